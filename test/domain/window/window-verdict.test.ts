/** The estimate against the booked window: fits, fits only when things go well, or not even typically (said with how far over). */
import { describe, expect, it } from 'vitest';
import { windowGateLines } from '../../../src/domain/window/gate-lines.js';
import { windowTotalText, windowVerdict } from '../../../src/domain/window/window-verdict.js';
import type { PlannedHop } from '../../../src/domain/plan/planned-hop.js';
import type { VmImpact } from '../../../src/domain/impact/vm-impact.js';

const h = 3600;
const FOUR_HOURS = 4 * h * 1000;

describe('windowVerdict', () => {
  it.each([
    ['both ends inside', 2 * h, 3 * h, 'fits', 'within the 4h00m window in the params file'],
    ['the pessimistic end exactly at it', 2 * h, 4 * h, 'fits', 'within the 4h00m window in the params file'],
    ['only the typical case inside', 3 * h, 5 * h, 'only-typical', 'MORE than the 4h00m window in the params file when slow: the typical case (p50 3h00m) fits, the pessimistic one (p90 5h00m) does not'],
    ['even the typical case over (the large lab)', 13 * h + 36 * 60, 15 * h + 27 * 60, 'over', 'MORE than the 4h00m window in the params file: even the typical case (p50 13h36m) is 3.4× the window'],
    ['far over: whole numbers', 50 * h, 60 * h, 'over', 'MORE than the 4h00m window in the params file: even the typical case (p50 2d02h) is 13× the window'],
  ] as const)('%s', (_n, p50, p90, fit, text) => {
    expect(windowVerdict(p50, p90, FOUR_HOURS)).toEqual({ fit, text });
  });
});

describe('windowTotalText', () => {
  const eta = (p50: number, p90: number) => ({ eta: { p50Seconds: p50, p90Seconds: p90 } });
  it('adds the hops up, counts the restarts in, says the answers are not, and what to do when it does not fit', () => {
    expect(windowTotalText([eta(2 * h, 3 * h)], 0, FOUR_HOURS)).toBe('The hop takes about 2h00m-3h00m: within the 4h00m window in the params file.');
    expect(windowTotalText([eta(2 * h, 3 * h), eta(2 * h, 3 * h)], 1, FOUR_HOURS)).toBe(
      'The 2 hops take about 4h00m-6h00m, its 2 VM restart(s) at the gates included; plus your time at those 2 gates: MORE than the 4h00m window in the params file when slow: the typical case (p50 4h00m) fits, the pessimistic one (p90 6h00m) does not; book a longer window or split the hops over two.',
    );
    expect(windowTotalText([], 0, FOUR_HOURS)).toBeUndefined();
  });
});

describe('the gate that sets a hop in motion', () => {
  const hop = { index: 1, from: '4.5.4', to: '4.6.3', profiles: [], eta: { p50Seconds: 5 * h, p90Seconds: 6 * h, parts: [], summary: 'about 5h00m-6h00m: 7 VM(s) migrate, 5 at a time' } } as PlannedHop;
  const vm = (name: string, fate: VmImpact['fate']): VmImpact => ({ vm: name, fate, reason: '' });
  it('says the window against the booked one and names the VMs that go down', () => {
    const impact = [vm('ns/a', 'restart'), vm('ns/b', 'evict'), vm('ns/c', 'live-migrate'), ...Array.from({ length: 6 }, (_, i) => vm(`ns/r${i}`, 'restart'))];
    expect(windowGateLines(hop, impact, FOUR_HOURS)).toEqual([
      'This hop takes about 5h00m-6h00m: 7 VM(s) migrate, 5 at a time.',
      'Window: p50 5h00m, p90 6h00m; MORE than the 4h00m window in the params file: even the typical case (p50 5h00m) is 1.3× the window.',
      'Restarted after the moves, each at its own gate (downtime): ns/a, ns/r0, ns/r1, ns/r2, ns/r3 and 2 more (see the plan).',
      "Evicted by KubeVirt's workload updater, not asked (downtime): ns/b.",
    ]);
  });
});
