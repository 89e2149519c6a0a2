/**
 * A session's timeline from its steps and its report's sections (pure): steps merged by kind per
 * hop, the skipped and the report step not drawn, each restart and each VM left behind on its own
 * row (red when it failed), the gates that waited for a key and the stops until a resume as the
 * operator's time, each hop's forecast from its send, the booked window; in a lab the predictions
 * and the window at the lab's recorded speed (none drawn when the speed was not recorded); a run
 * still going draws its open step as running; past VM_ROWS the restarts share one bar.
 */
import { describe, expect, it } from 'vitest';
import type { SessionState, StepState } from '../../../src/engine/state.js';
import type { ReportData } from '../../../src/report/model.js';
import { sessionTimeline } from '../../../src/report/timeline/session.js';
import { VM_ROWS } from '../../../src/report/timeline/session-bars.js';
import { meta, step } from '../../support/state-fixtures.js';

const T0 = Date.parse('2026-12-02T01:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();
const hop = { index: 1, count: 1, from: '4.4.10', to: '4.5.4' };
const ran = (id: string, kind: string, from: number, to: number, extra: Partial<StepState> = {}) => step(id, { kind, status: 'succeeded', startedAt: at(from), endedAt: at(to), attempts: 1, ...extra });
const inHop = (id: string, kind: string, from: number, to: number, extra: Partial<StepState> = {}) => ran(`hop1.${id}`, kind, from, to, { localId: id, hop, group: 'hops', ...extra });

function state(entries: StepState[], extra: Partial<SessionState['meta']> = {}): SessionState {
  return { meta: { ...meta, createdAt: at(0), timeZone: 'Europe/Berlin', windowMs: 4 * 3_600_000, ...extra }, entries, mutations: {}, run: { status: 'done', updatedAt: at(2000), resumes: 1 }, log: [], seq: 1 };
}

const steps = (labSpeed?: number) => [
  ran('preflight', 'preflight', 1, 5),
  ran('plan', 'plan', 5, 8),
  inHop('draft-infra', 'draft', 10, 12),
  inHop('draft-addon', 'draft', 12, 13),
  inHop('publish-infra', 'publish', 14, 80),
  inHop('apply', 'apply', 80, 80, { status: 'skipped', skipReason: 'spec' }),
  inHop('reconcile', 'reconcile', 100, 700),
  inHop('migrations', 'migrations', 700, 1000, labSpeed ? { output: { moved: { labTime: true, labSpeed } } } : {}),
  inHop('recover', 'recover', 1000, 1200),
  ran('verify', 'verify', 1200, 1210),
  ran('report', 'report', 1210, 1211),
];

const body = (over: Partial<ReportData> = {}): Omit<ReportData, 'timeline'> =>
  ({
    generatedAt: at(1300),
    startedAt: at(0),
    endedAt: at(1211),
    outcome: { status: 'done' },
    labTime: false,
    rehearsal: false,
    hops: [
      {
        index: 1,
        from: '4.4.10',
        to: '4.5.4',
        profiles: [],
        eta: { p50Seconds: 600, p90Seconds: 900, parts: [], summary: '' },
        rollout: { plannedP50Seconds: 400, plannedP90Seconds: 600, measuredSeconds: 610 },
        migrations: { plannedP50Seconds: 200, plannedP90Seconds: 300, measuredSeconds: 280, outcome: 'completed' },
      },
    ],
    vms: [
      { name: 'vms/web-1', hop: 1, fate: 'live-migrated' },
      { name: 'vms/db-1', hop: 1, fate: 'restarted', sentAt: at(1010), runningAt: at(1055), downtimeSeconds: 44, backRunning: true },
      { name: 'vms/db-2', hop: 1, fate: 'restarted', sentAt: at(1060), backRunning: false, reason: 'did not run again within the wait' },
      { name: 'vms/cache-1', hop: 1, fate: 'outstanding', reason: 'restart skipped (operator, key s)' },
    ],
    decisions: [
      { at: at(70), shownAt: at(15), step: 'hop1.publish-infra', hop: 1, gate: 'publish', gateKey: 'k1', title: 'Publish vmo-infra 1.5.0', choice: 'approve', by: 'key', key: 'y', operator: 'ann@jump' },
      { at: at(10), step: 'hop1.draft-infra', hop: 1, gate: 'draft', gateKey: 'k0', title: 'Write the draft', choice: 'approve', by: 'flag', flag: '--approve draft' },
    ],
    stops: [{ at: at(81), status: 'awaitingApproval', reason: 'x', step: 'hop1.reconcile', gate: 'apply', resumedAt: at(99), resumedBy: 'bob@jump' }],
    ...over,
  }) as Omit<ReportData, 'timeline'>;

describe('sessionTimeline', () => {
  it('draws the hop: merged steps, the restarts and the VM left behind, the waits, the forecast from the send, the window and the end', () => {
    const t = sessionTimeline(state(steps()), body());
    expect(t).toMatchObject({ from: at(0), to: at(1211), timeZone: 'Europe/Berlin', windows: [{ from: at(0), to: at(14_400) }], marks: [{ at: at(1211), label: 'done', status: 'ok' }] });
    expect(t.labSpeed).toBeUndefined();
    expect(t.sections.map((s) => s.title)).toEqual(['Before the hops', 'Hop 1 4.4.10 → 4.5.4', 'After the hops']);
    const hop1 = t.sections[1]!;
    expect(hop1.bars.map((b) => [b.label, b.by, b.status, b.from, b.to])).toEqual([
      ['drafts', 'tool', 'ok', at(10), at(13)],
      ['publish', 'tool', 'ok', at(14), at(80)],
      ['publish vmo-infra 1.5.0?', 'operator', 'ok', at(15), at(70)],
      ['stopped at the apply gate', 'operator', 'ok', at(81), at(99)],
      ['reconcile', 'cluster', 'ok', at(100), at(700)],
      ['migrations', 'cluster', 'ok', at(700), at(1000)],
      ['not moved vms/cache-1', 'cluster', 'failed', at(700), at(1000)],
      ['restart vms/db-1', 'cluster', 'ok', at(1010), at(1055)],
      ['restart vms/db-2', 'cluster', 'failed', at(1060), at(1200)],
    ]);
    const note = (label: string) => hop1.bars.find((b) => b.label === label)?.note;
    expect(note('drafts')).toBe('2 profiles');
    expect(note('publish')).toBe('of which 55s waiting for the operator');
    expect(note('publish vmo-infra 1.5.0?')).toBe('approve by key y after 55s (ann@jump)');
    expect(note('stopped at the apply gate')).toBe('resumed by bob@jump after 18s');
    expect(note('reconcile')).toBe('pack rollout took 10m10s (planned 6m40s-10m00s)');
    expect(note('migrations')).toBe('1 live-migrated, 1 not moved; took 4m40s (planned 3m20s-5m00s)');
    expect(note('restart vms/db-1')).toBe('down 44s');
    expect(note('restart vms/db-2')).toBe('not back: did not run again within the wait');
    expect(note('not moved vms/cache-1')).toBe('restart skipped (operator, key s)');
    expect(hop1.forecast).toEqual({ from: at(100), p50At: at(700), p90At: at(1000), p50Seconds: 600, p90Seconds: 900, to: at(1000), tookSeconds: 890 });
    expect(t.sections[2]!.bars.map((b) => b.label)).toEqual(['verification']);
    expect(new Set(t.sections.flatMap((s) => s.bars.map((b) => b.id))).size).toBe(t.sections.flatMap((s) => s.bars).length);
  });

  it("in a lab: the forecast and the window at the lab's recorded speed, and none of them when no speed was recorded", () => {
    const lab = sessionTimeline(state(steps(60)), body({ labTime: true }));
    expect(lab.labSpeed).toBe(60);
    expect(lab.sections[1]!.forecast).toMatchObject({ from: at(100), p50At: at(110), p90At: at(115) });
    expect(lab.windows).toEqual([{ from: at(0), to: at(240), label: 'booked window, 4h00m lab time from the start (params window)' }]);
    const unknown = sessionTimeline(state(steps()), body({ labTime: true }));
    expect(unknown.labSpeed).toBeUndefined();
    expect(unknown.sections[1]!.forecast).toBeUndefined();
    expect(unknown.windows).toEqual([]);
  });

  it('a run still going: its open step is drawn running to the report, the stop it has not been resumed from is a mark', () => {
    const open = steps().slice(0, 7).map((s) => (s.id === 'hop1.reconcile' ? { ...s, status: 'running' as const, endedAt: undefined } : s));
    const t = sessionTimeline(state(open.filter((s) => s.id !== 'hop1.migrations')), body({ endedAt: null, outcome: { status: 'running' }, stops: [] }));
    expect(t.to).toBe(at(1300));
    expect(t.sections[1]!.bars.find((b) => b.label === 'reconcile')).toMatchObject({ status: 'running', to: at(1300) });
    const stopped = sessionTimeline(state(steps().slice(0, 5)), body({ endedAt: at(81), outcome: { status: 'awaitingApproval' }, stops: [{ at: at(81), status: 'awaitingApproval', reason: 'x', step: 'hop1.publish-infra', gate: 'publish' }] }));
    expect(stopped.marks).toEqual([{ at: at(81), label: 'stopped at the publish gate', status: 'stopped' }]);
  });

  it(`names at most ${VM_ROWS} restarts one per row: the rest share one bar that says how many failed`, () => {
    const vms = Array.from({ length: 15 }, (_, i) => ({ name: `vms/v-${String(i).padStart(2, '0')}`, hop: 1, fate: 'restarted' as const, sentAt: at(1000 + i * 10), ...(i === 14 ? { backRunning: false } : { runningAt: at(1005 + i * 10), backRunning: true }) }));
    const bars = sessionTimeline(state(steps()), body({ vms })).sections[1]!.bars.filter((b) => b.id.includes('.restart.'));
    expect(bars).toHaveLength(VM_ROWS);
    expect(bars.at(-1)).toMatchObject({ label: '4 more restarts', status: 'failed', from: at(1110), note: "1 failed; each one in the report's VM table" });
  });
});
