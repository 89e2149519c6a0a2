/** The dirty-rate gauge from a Prometheus instant query (HTTP API `/api/v1/query` shape). */
import { describe, expect, it } from 'vitest';
import { dirtyRatesOf } from '../../../src/domain/window/dirty-rate.js';

const vector = (result: unknown[]) => ({ status: 'success', data: { resultType: 'vector', result } });
const sample = (namespace: string, name: string, v: string) => ({ metric: { __name__: 'kubevirt_vmi_dirty_rate_bytes_per_second', namespace, name, node: 'n1' }, value: [1764250000.123, v] });

describe('dirtyRatesOf', () => {
  it('keys rates by namespace/name, the highest when a VMI appears twice (two scrapes)', () => {
    const rates = dirtyRatesOf(vector([sample('ns', 'a', '56623104'), sample('ns', 'b', '1048576'), sample('ns', 'b', '2097152')]));
    expect(rates).toEqual(new Map([['ns/a', 56623104], ['ns/b', 2097152]]));
  });
  it.each([
    ['an error answer', { status: 'error', errorType: 'bad_data', error: 'parse error' }, /answered error: parse error/],
    ['not Prometheus at all', '<html>login</html>', /not a Prometheus query result/],
  ])('%s says why', (_n, answer, text) => expect(dirtyRatesOf(answer)).toMatch(text));
  it('skips samples without the VMI labels or with NaN', () => {
    expect(dirtyRatesOf(vector([{ metric: { name: 'x' }, value: [1, '5'] }, sample('ns', 'a', 'NaN')]))).toEqual(new Map());
  });
});
