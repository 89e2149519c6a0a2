import { describe, expect, it } from 'vitest';
import { countsText, packRows, reviewEntries, reviewTotals, rowMark, rowSearchText, totalsText } from '../../../src/screens/customize/pack-rows.js';
import { findRow } from '../../../src/screens/keys/scroll-model.js';
import { featureGates, healthy, serviceType } from './fixtures.js';

describe('the review’s pack rows', () => {
  const rows = packRows(healthy);

  it('puts the rows with conflicts first, then those with additions, each group in plan order, and marks them', () => {
    expect(rows.map((r) => `${rowMark(r.counts)} hop ${r.hop} ${r.pack.name}`)).toEqual([
      '! hop 1 virtual-machine-orchestrator',
      '! hop 2 csi-portworx-generic',
      '+ hop 2 prometheus-operator',
      '  hop 1 cni-cilium-oss',
      '  hop 1 csi-portworx-generic',
      '  hop 1 nginx',
    ]);
  });

  it.each([
    { pack: 'virtual-machine-orchestrator', hop: 1, text: 'conflicts 1 · new 45 · ignored 11' },
    { pack: 'csi-portworx-generic', hop: 2, text: 'conflicts 2 · new 3 · carried 8 · ignored 5' },
    { pack: 'prometheus-operator', hop: 2, text: 'offered 1 · new 2 · ignored 2' },
    { pack: 'csi-portworx-generic', hop: 1, text: 'carried 10 · ignored 5' },
  ])('counts $pack in hop $hop, conflicts first: $text', ({ pack, hop, text }) => {
    const row = rows.find((r) => r.pack.name === pack && r.hop === hop)!;
    expect(countsText(row.counts)).toBe(text);
  });

  it('says "no differences" for a pack with none', () => {
    expect(countsText({ conflicts: 0, added: 0, offered: 0, newDefaults: 0, carried: 0, ignored: 0 })).toBe('no differences');
  });

  it('the header’s totals are the rows’ counts added up', () => {
    const totals = reviewTotals(rows);
    expect(totals.conflicts).toBe(healthy.conflicts);
    for (const key of Object.keys(totals) as Array<keyof typeof totals>) expect(totals[key]).toBe(rows.reduce((n, r) => n + r.counts[key], 0));
    expect(totalsText(rows)).toBe('6 pack version(s): conflicts 3 · offered 1 · new 51 · carried 20 · ignored 42');
  });

  it('/ finds what a row says in full: "conflict", a whole name, the versions', () => {
    const bounds = { total: rows.length, page: 1, textAt: (i: number) => rowSearchText(rows[i]!) };
    expect(findRow('conflict', bounds, 0, 1)).toBe(0);
    expect(findRow('conflict', bounds, 1, 1)).toBe(1);
    expect(findRow('virtual-machine-orchestrator 4.4.10 → 4.5.4', bounds, 0, 1)).toBe(0);
    expect(findRow('vmo-infra / csi-portworx-generic 3.1.4', bounds, 0, 1)).toBe(4);
    expect(findRow('addition', bounds, 0, 1)).toBe(2);
  });

  it('lists a pack’s conflicts first, then chosen fixes, then the rest', () => {
    const fix = { path: 'a.b', label: 'ruleFix' as const, result: true };
    expect(reviewEntries([serviceType, fix, featureGates]).map((e) => e.label)).toEqual(['conflict', 'ruleFix', 'newDefault']);
  });
});
