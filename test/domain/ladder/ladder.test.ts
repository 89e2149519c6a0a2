import { describe, expect, it } from 'vitest';
import { buildLadder } from '../../../src/domain/ladder/ladder.js';
import { compareVersions, parseVersion } from '../../../src/domain/versions/version.js';

// [case, deployed, target, available, explicit, hops ("a>b,c>d") or a refusal fragment]
const cases: Array<[string, string, string, string[], boolean, string | RegExp]> = [
  ['two minors behind, intermediate available', '4.4.10', '4.6.3', ['4.5.4'], false, '4.4.10>4.5.4,4.5.4>4.6.3'],
  ['one minor behind', '4.5.4', '4.6.3', [], false, '4.5.4>4.6.3'],
  ['patch only', '4.6.1', '4.6.3', [], false, '4.6.1>4.6.3'],
  ['same version: nothing to do', '4.6.3', '4.6.3', [], false, ''],
  ['same version written with a v prefix', 'v1.4.0', '1.4.0', [], false, ''],
  ['the highest patch of the intermediate minor is used', '4.4.10', '4.6.3', ['4.5.1', '4.5.4', '4.5.2'], false, '4.4.10>4.5.4,4.5.4>4.6.3'],
  ['versions of other minors are ignored', '4.4.10', '4.6.3', ['4.3.9', '4.5.4', '4.6.0', '4.7.1'], false, '4.4.10>4.5.4,4.5.4>4.6.3'],
  ['three hops', '4.3.2', '4.6.3', ['4.4.10', '4.5.4'], false, '4.3.2>4.4.10,4.4.10>4.5.4,4.5.4>4.6.3'],
  ['v prefixes throughout', 'v1.2.0', 'v1.4.0', ['v1.3.1'], false, 'v1.2.0>v1.3.1,v1.3.1>v1.4.0'],
  ['spectro suffixes', '1.2.0-spectro.1', '1.4.2-spectro.1', ['1.3.1-spectro.2', '1.3.1-spectro.1'], false, '1.2.0-spectro.1>1.3.1-spectro.2,1.3.1-spectro.2>1.4.2-spectro.1'],
  ['a two-part version', '4.5', '4.6', [], false, '4.5>4.6'],
  ['missing intermediate minor', '4.4.10', '4.6.3', [], false, /No 4\.5\.x version is available to step through from 4\.4\.10 to 4\.6\.3; skipping a minor version makes the automatic live migrations of running VMs fail/],
  ['missing one of two intermediates', '4.3.2', '4.6.3', ['4.4.10'], false, /No 4\.5\.x version is available/],
  ['downgrade', '4.6.3', '4.5.4', [], false, /older than the deployed 4\.6\.3: downgrades are not supported/],
  ['patch downgrade', '4.6.4', '4.6.3', [], false, /downgrades are not supported/],
  ['suffix downgrade', '1.4.2-spectro.2', '1.4.2-spectro.1', [], false, /downgrades are not supported/],
  ['crossing a major', '4.6.3', '5.0.0', [], false, /another major version/],
  ['a deployed tag that is not a version', 'latest', '4.6.3', [], false, /"latest" is not a version/],
  ['a target that is not a version', '4.4.10', 'next', [], false, /"next" is not a version/],
  ['explicit hops as given', '4.4.10', '4.6.3', ['4.5.2'], true, '4.4.10>4.5.2,4.5.2>4.6.3'],
  ['explicit hops that skip a minor', '4.3.2', '4.6.3', ['4.4.10'], true, /The hop 4\.4\.10 → 4\.6\.3 skips the minor version 4\.5/],
  ['explicit empty list that skips', '4.4.10', '4.6.3', [], true, /skips the minor version 4\.5/],
  ['explicit hops repeating a version', '4.4.10', '4.6.3', ['4.5.4', '4.5.4'], true, /repeats 4\.5\.4/],
  ['explicit hops out of order', '4.3.2', '4.6.3', ['4.5.4', '4.4.10'], true, /from 4\.5\.4 to 4\.4\.10, which is not an upgrade/],
  ['explicit hop below the deployed version', '4.4.10', '4.6.3', ['4.4.2', '4.5.4'], true, /from 4\.4\.10 to 4\.4\.2, which is not an upgrade/],
  ['an intermediate that is not a version', '4.4.10', '4.6.3', ['4.5.x'], false, /"4\.5\.x" is not a version/],
];

describe('upgrade ladder', () => {
  it.each(cases)('%s', (_n, deployed, target, available, explicit, expected) => {
    const ladder = buildLadder(deployed, target, available, explicit);
    if (typeof expected === 'string') {
      expect(ladder.ok, ladder.ok ? '' : ladder.reason).toBe(true);
      if (ladder.ok) expect(ladder.hops.map((h) => `${h.from}>${h.to}`).join(',')).toBe(expected);
    } else {
      expect(ladder.ok).toBe(false);
      if (!ladder.ok) {
        expect(ladder.reason).toMatch(expected);
        expect(ladder.hint).toBeTruthy();
      }
    }
  });

  describe('stepping stones (VMO 4.10.0 needs 4.9.9 or later first)', () => {
    const stone = { since: '4.10.0', version: '4.9.9', reason: 'VMO Manager replaces the VM Dashboard', source: 'upgrade-vmo-pack.md' };
    it.each<[string, string, string, string[], boolean, string | RegExp, string | undefined]>([
      ['a patch below the stone: the stone comes first, as a hop of its own', '4.9.3', '4.10.0', ['4.9.3', '4.9.9'], false, '4.9.3>4.9.9,4.9.9>4.10.0', '4.9.9'],
      ['the highest patch of the minor is the stone: kept, and said why', '4.8.4', '4.10.0', ['4.9.3', '4.9.9'], false, '4.8.4>4.9.9,4.9.9>4.10.0', '4.9.9'],
      ['a later patch than the stone is fine', '4.8.4', '4.10.0', ['4.9.9', '4.9.12'], false, '4.8.4>4.9.12,4.9.12>4.10.0', '4.9.12'],
      ['already on the stone: nothing added', '4.9.9', '4.10.0', [], false, '4.9.9>4.10.0', undefined],
      ['a hop that does not cross the stone is left alone', '4.8.4', '4.9.3', ['4.9.3'], false, '4.8.4>4.9.3', undefined],
      ['no version at or above the stone below 4.10.0: refused', '4.8.4', '4.10.0', ['4.9.3'], false, /goes to 4\.10\.0 or later without 4\.9\.9 or later first: VMO Manager replaces the VM Dashboard/, undefined],
      ["the operator's own hop list without the stone: refused, not changed", '4.9.3', '4.10.0', [], true, /without 4\.9\.9 or later first/, undefined],
      ["the operator's own hop list with it", '4.9.3', '4.10.0', ['4.9.9'], true, '4.9.3>4.9.9,4.9.9>4.10.0', '4.9.9'],
    ])('%s', (_n, deployed, target, available, explicit, expected, why) => {
      const ladder = buildLadder(deployed, target, available, explicit, [stone]);
      if (typeof expected !== 'string') {
        expect(ladder.ok).toBe(false);
        if (!ladder.ok) expect(ladder.reason).toMatch(expected);
        return;
      }
      expect(ladder.ok, ladder.ok ? '' : ladder.reason).toBe(true);
      if (!ladder.ok) return;
      expect(ladder.hops.map((h) => `${h.from}>${h.to}`).join(',')).toBe(expected);
      const reasons = ladder.hops.filter((h) => h.reason);
      expect(reasons.map((h) => h.to)).toEqual(why ? [why] : []);
      if (why) expect(reasons[0]!.reason).toBe('a stepping stone: 4.10.0 and later need 4.9.9 or later first (VMO Manager replaces the VM Dashboard; upgrade-vmo-pack.md)');
    });
  });

  it('orders versions by numbers, then by build suffix', () => {
    const sorted = ['1.10.0', '1.9.9', 'v1.9.10', '1.9.9-spectro.1', '1.9.9-spectro.10', '1.9.9-spectro.2'].map((t) => parseVersion(t)!).sort(compareVersions).map((v) => v.raw);
    expect(sorted).toEqual(['1.9.9', '1.9.9-spectro.1', '1.9.9-spectro.2', '1.9.9-spectro.10', 'v1.9.10', '1.10.0']);
  });
});
