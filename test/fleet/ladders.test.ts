/** The fleet plan's ladders: each start its own, one minor at a time; profile versions shared by the clusters that run them. */
import { describe, expect, it } from 'vitest';
import { fleetLadders, ladderLines, type ClusterStart } from '../../src/fleet/ladders.js';

const available = { versions: ['4.3.1', '4.4.2', '4.5.4', '4.6.3'], explicit: false };
const start = (name: string, stage: string, vmo: string | undefined, profiles: ClusterStart['profiles'] = [], error?: string): ClusterStart => ({ name, stage, ...(vmo ? { vmo } : {}), profiles, ...(error ? { error } : {}) });
const infra15 = { name: 'vmo-infra', uid: 'u-infra-15', version: '1.5.0' };
const infra14 = { name: 'vmo-infra', uid: 'u-infra-14', version: '1.4.0' };
const infra16 = { name: 'vmo-infra', uid: 'u-infra-16', version: '1.6.0' };
const own = (n: string) => ({ name: `vmo-infra-${n}`, uid: `u-own-${n}`, version: '1.5.0' });

describe('fleetLadders', () => {
  it.each<[string, ClusterStart[], { groups: Array<[string, string[], string[]]>; shared: Array<[string, string[], string, number]>; unread?: string[] }]>([
    ['one start, one shared version: made once by the first', [start('a', 'canary', '4.5.4', [infra15]), start('b', 'wave-1', '4.5.4', [infra15])], { groups: [['4.5.4', ['4.6.3'], ['a', 'b']]], shared: [['u-infra-15', ['a', 'b'], 'a', 1]] }],
    [
      'two starts: each its own ladder, one minor at a time; versions of one profile are not shared across them',
      [start('a', 'canary', '4.5.4', [infra15]), start('b', 'wave-1', '4.4.2', [infra14]), start('c', 'wave-1', '4.4.2', [infra14])],
      { groups: [['4.5.4', ['4.6.3'], ['a']], ['4.4.2', ['4.5.4', '4.6.3'], ['b', 'c']]], shared: [['u-infra-14', ['b', 'c'], 'b', 2]] },
    ],
    ['clusters with their own profiles share nothing', [start('a', 's', '4.5.4', [own('a')]), start('b', 's', '4.5.4', [own('b')])], { groups: [['4.5.4', ['4.6.3'], ['a', 'b']]], shared: [] }],
    [
      'a cluster already at the target makes no version; the climbing one makes it',
      [start('done', 'canary', '4.6.3', [infra16]), start('a', 'w', '4.5.4', [infra15]), start('b', 'w', '4.5.4', [infra15])],
      { groups: [['4.6.3', [], ['done']], ['4.5.4', ['4.6.3'], ['a', 'b']]], shared: [['u-infra-15', ['a', 'b'], 'a', 1]] },
    ],
    ['two clusters both at the target share a version but make none', [start('a', 's', '4.6.3', [infra16]), start('b', 's', '4.6.3', [infra16])], { groups: [['4.6.3', [], ['a', 'b']]], shared: [] }],
    ['a cluster not read is named, not guessed', [start('a', 's', '4.5.4', [infra15]), start('x', 's', undefined, [], 'Cluster x was not found')], { groups: [['4.5.4', ['4.6.3'], ['a']]], shared: [], unread: ['x'] }],
  ])('%s', (_name, starts, want) => {
    const l = fleetLadders(starts, '4.6.3', available);
    expect(l.groups.map((g) => [g.from, g.hops, g.clusters])).toEqual(want.groups);
    expect(l.shared.map((s) => [s.uid, s.clusters, s.first.cluster, s.hops])).toEqual(want.shared);
    expect(l.unread.map((u) => u.name)).toEqual(want.unread ?? []);
  });

  it('a start with no ladder says why (another major), and the lines say it in capitals', () => {
    const l = fleetLadders([start('old', 's', '3.9.0', [])], '4.6.3', available);
    expect(l.groups[0]!.refused).toBeTruthy();
    expect(ladderLines(l, '4.6.3', 'the registry').join('\n')).toMatch(/ {4}3\.9\.0: NO LADDER to 4\.6\.3: .+: old/);
  });

  it('hops listed by hand are each a hop', () => {
    const l = fleetLadders([start('a', 's', '4.4.2', [])], '4.6.3', { versions: ['4.5.4'], explicit: true });
    expect(l.groups[0]!.hops).toEqual(['4.5.4', '4.6.3']);
  });

  it('lines: ladders, unread clusters, the shared versions and who makes them', () => {
    const l = fleetLadders([start('a', 'canary', '4.5.4', [infra15]), start('b', 'wave-1', '4.4.2', [infra14]), start('c', 'wave-1', '4.4.2', [infra14]), start('x', 'wave-1', undefined, [], 'refused: 401')], '4.6.3', available);
    expect(ladderLines(l, '4.6.3', 'the reference profiles')).toEqual([
      '  where each cluster starts (read from Palette now; versions from the reference profiles):',
      '    4.5.4 → 4.6.3 (1 hop): a',
      '    4.4.2 → 4.5.4 → 4.6.3 (2 hops, one minor each): b, c',
      '    x: not read: refused: 401',
      "    clusters that start at different versions climb their own ladders; each cluster's own session plans its hops again when it starts.",
      "  shared profile versions: each hop's new version is made once (clone, draft, publish) by the first cluster that needs it; the others only apply it:",
      '    vmo-infra 1.4.0 (u-infra-14), run by 2 clusters: 2 new versions, made by b (stage wave-1)',
    ]);
  });
});
