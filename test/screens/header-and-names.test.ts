/**
 * The header keeps the session id and one badge at every width; names are shortened in the
 * middle (both ends kept), by the one helper every screen uses.
 */
import { describe, expect, it } from 'vitest';
import type { SessionMeta } from '../../src/engine/state.js';
import { fitMiddle, shortenMiddle } from '../../src/screens/fit-text.js';
import { headerParts, modeBadge } from '../../src/screens/Header.js';
import { meta } from '../support/state-fixtures.js';

describe('shortenMiddle', () => {
  it.each([
    ['fits: unchanged', 'vmo-worker-001', 20, 'vmo-worker-001'],
    ['exactly fits', 'vmo-worker-001', 14, 'vmo-worker-001'],
    ['both ends kept', 'vmo-worker-001', 9, 'vmo-…-001'],
    ['a version keeps its last part', 'cni-cilium-oss 1.16.6 → 1.17.1', 17, 'cni-cili…→ 1.17.1'],
    ['one column', 'abc', 1, '…'],
    ['no column', 'abc', 0, ''],
  ])('%s', (_what, text, width, want) => {
    const got = shortenMiddle(text, width);
    expect(got).toBe(want);
    expect([...got].length).toBeLessThanOrEqual(width);
  });

  it('fitMiddle pads to the width exactly', () => {
    expect(fitMiddle('ab', 4)).toBe('ab  ');
    expect([...fitMiddle('a-very-long-node-name-017', 10)].length).toBe(10);
  });
});

describe('the header', () => {
  const long: SessionMeta = { ...meta, id: '2026-11-27T1612-3f9a', lab: true, runbook: { ...meta.runbook, title: 'VM orchestration pack upgrade' }, cluster: { uid: 'c1', name: 'vmo-prod-east-datacenter-7', context: 'lab-admin@vmo-prod-east' } };

  it.each([
    ['live', { mode: 'live', lab: false }, 'LIVE'],
    ['lab', { mode: 'live', lab: true }, 'LAB'],
    ['rehearsal', { mode: 'rehearsal', lab: false }, 'REHEARSAL'],
    ['rehearsal on a lab', { mode: 'rehearsal', lab: true }, 'LAB REHEARSAL'],
    // A lab served by `lab --serve` (its params name the lab's clock): changes reach the lab only.
    ['a served lab', { mode: 'live', lab: false, servedLab: true }, 'LAB'],
    ['rehearsal on a served lab', { mode: 'rehearsal', lab: false, servedLab: true }, 'LAB REHEARSAL'],
  ] as const)('one badge, one meaning: %s', (_what, m, badge) => {
    expect(modeBadge(m).text).toBe(badge);
  });

  it.each([60, 80, 100, 120, 200])('at %i columns it keeps the session id and the badge, and fits on one line', (columns) => {
    const p = headerParts(long, columns);
    expect(p.session.endsWith(long.id)).toBe(true);
    expect(p.badge).toBe('LAB');
    const width = 2 + p.lead.length + p.cluster.length + p.context.length + 1 + p.badge.length + 2 + 1 + p.session.length;
    expect(width).toBeLessThanOrEqual(columns);
    expect(p.cluster.startsWith('vmo-')).toBe(true);
    expect(p.cluster.endsWith('-7')).toBe(true); // shortened, if at all, in the middle
  });

  it('names the cluster in full at 80 columns, and the runbook and context when there is room', () => {
    expect(headerParts(long, 80).cluster).toBe('vmo-prod-east-datacenter-7');
    expect(headerParts(long, 200)).toMatchObject({ lead: 'upgrade-pilot · VM orchestration pack upgrade · cluster ', context: ' (lab-admin@vmo-prod-east)', session: `session ${long.id}` });
  });
});
