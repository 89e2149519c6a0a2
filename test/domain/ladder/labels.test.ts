import { describe, expect, it } from 'vitest';
import { checkLabel, nextLabel } from '../../../src/domain/ladder/labels.js';

describe('profile version labels', () => {
  it.each([
    ['the next minor', '1.4.0', [], '1.5.0'],
    ['above every label the profile used', '1.4.0', ['1.4.0', '1.5.0', '1.7.2'], '1.8.0'],
    ['skips a label that is taken', '2.0.0', ['2.1.0'], '2.2.0'],
    ['ignores labels that are not versions', '1.4.0', ['prod', ''], '1.5.0'],
    ['a suffixed label', '1.4.0-site.2', [], '1.5.0'],
    ['a profile without a readable label', '', [], '1.0.0'],
  ])('%s: %s → %s', (_name, previous, used, expected) => {
    expect(nextLabel(previous, new Set(used))).toBe(expected);
  });

  it('labels computed hop after hop are new and strictly increasing', () => {
    const used = new Set(['1.4.0']);
    const labels: string[] = [];
    let previous = '1.4.0';
    for (let i = 0; i < 4; i++) {
      previous = nextLabel(previous, used);
      used.add(previous);
      labels.push(previous);
    }
    expect(labels).toEqual(['1.5.0', '1.6.0', '1.7.0', '1.8.0']);
  });

  it('accepts a chosen label that is new and higher; refuses one already used or not higher', () => {
    expect(checkLabel('2.0.0', '1.4.0', new Set(['1.4.0']), 'vmo-core-addon')).toEqual({ ok: true });
    const used = checkLabel('1.3.0', '1.4.0', new Set(['1.3.0', '1.4.0']), 'vmo-core-addon');
    expect(used).toMatchObject({ ok: false, reason: 'The version label 1.3.0 is already used by the profile vmo-core-addon: a new pack set needs a new label.' });
    const lower = checkLabel('1.3.9', '1.4.0', new Set(['1.4.0']), 'vmo-core-addon');
    expect(lower).toMatchObject({ ok: false, reason: 'The version label 1.3.9 for vmo-core-addon is not above its previous label 1.4.0.' });
  });

  it('accepts a chosen label above the previous one that exists already: a version another cluster sharing the profile made', () => {
    expect(checkLabel('1.5.0', '1.4.0', new Set(['1.4.0', '1.5.0']), 'vmo-core-addon')).toEqual({ ok: true });
    expect(checkLabel('1.4.0', '1.4.0', new Set(['1.4.0']), 'vmo-core-addon')).toMatchObject({ ok: false });
  });
});
