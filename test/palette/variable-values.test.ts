/**
 * Values of profile variables (palette/variable-values.ts): read from where the operator said,
 * never from a request as journaled (a marker stands there), and put in only as the request is sent.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PaletteMutation } from '../../src/engine/mutation.js';
import type { PaletteApi } from '../../src/palette/api.js';
import { fillValues, valueMarker, VariableValues, withVariableValues } from '../../src/palette/variable-values.js';
import { InputError } from '../../src/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'up-vars-'));

describe('profile variable values', () => {
  it('come from an environment variable or a file (one trailing newline dropped), and each is handed to the redactor', () => {
    writeFileSync(join(dir, 'pw'), 'from-a-file\n');
    const seen: string[] = [];
    const values = new VariableValues({ sources: { A: { env: 'VMO_A' }, B: { file: join(dir, 'pw') } }, env: { VMO_A: 'from-the-env' }, onValue: (v) => seen.push(v) });
    expect(values.get('A')).toBe('from-the-env');
    expect(values.get('B')).toBe('from-a-file');
    expect(values.get('C')).toBeUndefined();
    expect(values.sourceOf('A')).toBe('the environment variable VMO_A');
    expect(seen).toEqual(['from-the-env', 'from-a-file']);
    expect(values.canAsk).toBe(false);
  });

  it.each([
    ['an unset environment variable', { env: 'NOT_SET' }, /comes? from the environment variable NOT_SET, which is not set/],
    ['an empty file', { file: 'empty' }, /is empty/],
    ['a missing file', { file: 'missing' }, /does not exist/],
  ])('%s is bad input, named', (_n, source, message) => {
    writeFileSync(join(dir, 'empty'), '');
    const s = 'file' in source ? { file: join(dir, source.file) } : source;
    const values = new VariableValues({ sources: { X: s }, env: {} });
    expect(() => values.get('X')).toThrow(InputError);
    expect(() => values.get('X')).toThrow(message);
  });

  it('fill the markers of a body, and refuse to send one whose value is not known', () => {
    const values = new VariableValues();
    values.set('A', 'secret-a');
    const body = { profiles: [{ uid: 'u', variables: [{ name: 'A', value: valueMarker('A') }] }] };
    expect(fillValues(body, values)).toEqual({ profiles: [{ uid: 'u', variables: [{ name: 'A', value: 'secret-a' }] }] });
    expect(body.profiles[0]!.variables[0]!.value).toBe('<value of A, not recorded>'); // the request itself is not changed
    expect(() => fillValues({ v: valueMarker('B') }, values)).toThrow(/The value of the profile variable B is not known in this run/);
  });

  it('reach the API only as the request is sent; every other call passes through', async () => {
    const sent: PaletteMutation[] = [];
    const api = { execute: async (r: PaletteMutation) => void sent.push(r), label: () => 'real' } as unknown as PaletteApi & { label(): string };
    const values = new VariableValues();
    values.set('A', 'secret-a');
    const wrapped = withVariableValues(api, values) as typeof api;
    const request: PaletteMutation = { target: 'palette', method: 'PATCH', path: '/v1/spectroclusters/c/profiles', body: { profiles: [{ uid: 'u', variables: [{ name: 'A', value: valueMarker('A') }] }] }, summary: 's' };
    await wrapped.execute(request);
    expect(sent[0]!.body).toEqual({ profiles: [{ uid: 'u', variables: [{ name: 'A', value: 'secret-a' }] }] });
    expect(JSON.stringify(request)).not.toContain('secret-a');
    expect(wrapped.label()).toBe('real');
  });
});
