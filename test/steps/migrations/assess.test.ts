import { describe, expect, it } from 'vitest';
import type { KubeVirt, Vmi, Vmim } from '../../../src/kube/schemas.js';
import { assessPoll, type PollAssessment } from '../../../src/steps/migrations/assess.js';
import type { MigrationView } from '../../../src/steps/migrations/cluster-view.js';
import { startTracker, track, type TrackerState } from '../../../src/steps/migrations/progress-tracker.js';
import { closedSocket, kubevirt, vmi, vmim } from './support/objects.js';

const ref = { namespace: 'kubevirt', name: 'kubevirt' };
const limits = { migrationLimit: 15 * 60_000, failureLimit: 2 };
const view = (o: Partial<{ outdated: object[]; migrations: object[]; kubevirt: object | undefined }>): MigrationView => ({
  outdated: (o.outdated ?? []) as Vmi[],
  migrations: (o.migrations ?? []) as Vmim[],
  kubevirt: ('kubevirt' in o ? o.kubevirt : kubevirt()) as KubeVirt | undefined,
});
const poll = (v: MigrationView, expected?: string) => assessPoll(v, Date.now(), limits, ref, expected);

describe('assessPoll', () => {
  it('counts phases, puts the longest-running first and reads source → target from migrationState', () => {
    const p = poll(
      view({
        outdated: [vmi('vms', 'a'), vmi('vms', 'b', { node: 'node-3' }), vmi('vms', 'c')],
        migrations: [vmim('vms', 'm-b', 'b', { phase: 'Pending' }), vmim('vms', 'm-a', 'a', { phase: 'Running', runningForMs: 120_000, source: 'node-1', target: 'node-4' }), vmim('vms', 'm-c', 'c', { phase: 'Succeeded' })],
      }),
    );
    expect(p.counts).toMatchObject({ Pending: 1, Running: 1, Succeeded: 1, Failed: 0 });
    expect(p.rows.map((r) => `${r.vmi} ${r.source} → ${r.target} ${r.phase}`)).toEqual(['vms/a node-1 → node-4 Running', 'vms/b node-3 → — Pending', 'vms/c node-1 → node-2 Succeeded']);
    expect(p.inFlight).toBe(2);
    expect(p.settled).toBe(false);
    expect(p.stall).toEqual([]);
  });

  it('is settled when only VMIs that cannot live-migrate stay outdated (they are recovery’s job)', () => {
    const p = poll(view({ outdated: [vmi('ns-packs', 'build-cache-01', { migratable: false, node: 'w3' })], migrations: [vmim('vms', 'm1', 'web', { phase: 'Succeeded' })] }));
    expect(p.settled).toBe(true);
    expect(p.outdated).toEqual([
      {
        vmi: 'ns-packs/build-cache-01',
        node: 'w3',
        migratable: false,
        notMigratableReason: 'DisksNotLiveMigratable: cannot migrate VMI: PVC build-cache-01-rootdisk is not shared',
        launcher: 'v1.2.0',
        willMove: false,
        staysBecause: 'cannot live-migrate (DisksNotLiveMigratable) and Evict is not a workload update method: stays on the old launcher',
      },
    ]);
  });

  it('waits for a VMI that cannot live-migrate when KubeVirt evicts such VMIs; with no update method nothing moves', () => {
    const evicting = kubevirt('v1.4.0') as unknown as { spec: { workloadUpdateStrategy: { workloadUpdateMethods: string[] } } };
    evicting.spec.workloadUpdateStrategy.workloadUpdateMethods = ['LiveMigrate', 'Evict'];
    const cache = vmi('ns-packs', 'cache', { migratable: false });
    expect(poll(view({ outdated: [cache], kubevirt: evicting }))).toMatchObject({ settled: false, movable: 1 });
    evicting.spec.workloadUpdateStrategy.workloadUpdateMethods = [];
    expect(poll(view({ outdated: [cache, vmi('vms', 'web')], kubevirt: evicting }))).toMatchObject({ settled: true, movable: 0 });
  });

  it('is not settled while the KubeVirt CR counts more outdated VMIs than carry the label (the labels lag)', () => {
    const kv = kubevirt('v1.4.0') as { status: Record<string, unknown> };
    kv.status.outdatedVirtualMachineInstanceWorkloads = 3;
    expect(poll(view({ kubevirt: kv })).settled).toBe(false);
    kv.status.outdatedVirtualMachineInstanceWorkloads = 0;
    expect(poll(view({ kubevirt: kv })).settled).toBe(true);
  });

  it.each([
    ['KubeVirt still deploying', kubevirt('v1.3.1', 'Deploying', 'v1.4.0'), undefined, false],
    ['KubeVirt deployed, but not yet the version this hop deploys', kubevirt('v1.3.1'), 'v1.4.0', false],
    ['KubeVirt at the hop’s version', kubevirt('v1.4.0'), '1.4.0', true],
    ['no KubeVirt CR to wait for', undefined, undefined, true],
  ])('settled only with KubeVirt settled: %s', (_name, kv, expected, settled) => {
    const p = poll(view({ kubevirt: kv }), expected);
    expect(p.settled).toBe(settled);
    expect(p.kubevirt.found).toBe(kv !== undefined);
  });

  it('a migration Running past its limit is a stall; Pending ones wait their turn however old', () => {
    const p = poll(view({ outdated: [vmi('vms', 'a'), vmi('vms', 'b')], migrations: [vmim('vms', 'm-a', 'a', { phase: 'Running', runningForMs: 40 * 60_000 }), vmim('vms', 'm-b', 'b', { phase: 'Pending', ageMs: 90 * 60_000 })] }));
    expect(p.stall.map((s) => s.text)).toEqual([expect.stringMatching(/^vms\/a: migration vms\/m-a Running for 40m0\ds \(limit 15m00s\)$/)]);
    expect(p.problems).toMatchObject([{ kind: 'stuck', vmi: 'vms/a', migration: 'vms/m-a' }]);
    expect(p.affectedNodes).toEqual(['node-1', 'node-2']);
  });

  it('repeated failures of a still-outdated VMI stall; an old failure of a VMI that has moved does not', () => {
    const failed = (name: string, vmiName: string, ageMs: number) => vmim('vms', name, vmiName, { phase: 'Failed', ageMs, reason: closedSocket, source: 'node-1', target: 'node-2' });
    const p = poll(view({ outdated: [vmi('vms', 'a'), vmi('vms', 'b')], migrations: [failed('f1', 'a', 600_000), failed('f2', 'a', 60_000), failed('f3', 'b', 60_000), failed('f4', 'moved', 60_000), failed('f5', 'moved', 30_000)] }));
    expect(p.stall.map((s) => s.vmi)).toEqual(['vms/a']);
    expect(p.stall[0]!.text).toMatch(/^vms\/a: 2 failed migration\(s\), the latest: Live migration failed .*client socket is closed/);
    expect(p.problems.map((x) => x.migration)).toEqual(['vms/f1', 'vms/f2', 'vms/f3']);
  });
});

describe('assessPoll against the history real clusters keep', () => {
  const day = 86_400_000;
  const hist = [
    vmim('vms', 'old-f1', 'db', { phase: 'Failed', ageMs: 6 * day, reason: closedSocket }),
    vmim('vms', 'old-f2', 'db', { phase: 'Failed', ageMs: 6 * day - 20 * 60_000, reason: closedSocket }),
    vmim('vms', 'old-s', 'db', { phase: 'Succeeded', ageMs: 5 * day }),
  ];
  const sessionStartedAgo = 10 * 60_000;

  it('shows this session’s migrations and those in flight; the finished ones from days before are not in the table', () => {
    const now = Date.now();
    const p = assessPoll(
      view({ outdated: [vmi('vms', 'db'), vmi('vms', 'web')], migrations: [...hist, vmim('vms', 'new', 'web', { phase: 'Succeeded', ageMs: 2 * 60_000 }), vmim('vms', 'stuck', 'db', { phase: 'Running', runningForMs: 3 * day })] }),
      now,
      limits,
      ref,
      undefined,
      now - sessionStartedAgo,
    );
    expect(p.rows.map((r) => r.key).sort()).toEqual(['vms/new', 'vms/stuck']);
    expect(p.counts).toMatchObject({ Succeeded: 1, Failed: 0, Running: 1 });
  });

  it('failures a later success superseded do not count against a VMI that is outdated again', () => {
    const now = Date.now();
    const p = assessPoll(view({ outdated: [vmi('vms', 'db')], migrations: hist }), now, limits, ref, undefined, now - sessionStartedAgo);
    expect(p.stall).toEqual([]);
    expect(p.problems).toEqual([]);
    // Two new failures after that success stall it, whatever the session.
    const again = [...hist, vmim('vms', 'f3', 'db', { phase: 'Failed', ageMs: 8 * 60_000, reason: closedSocket }), vmim('vms', 'f4', 'db', { phase: 'Failed', ageMs: 60_000, reason: closedSocket })];
    const q = assessPoll(view({ outdated: [vmi('vms', 'db')], migrations: again }), now, limits, ref, undefined, now - sessionStartedAgo);
    expect(q.stall.map((s) => s.text)).toEqual([`vms/db: 2 failed migration(s), the latest: ${closedSocket}`]);
    expect(q.problems.map((x) => x.migration)).toEqual(['vms/f3', 'vms/f4']);
  });

  it('failures from before the session that no success superseded still stall it (a skipped minor found at the start)', () => {
    const now = Date.now();
    const before = [vmim('vms', 'f1', 'db', { phase: 'Failed', ageMs: 45 * 60_000, reason: closedSocket }), vmim('vms', 'f2', 'db', { phase: 'Failed', ageMs: 12 * 60_000, reason: closedSocket })];
    const p = assessPoll(view({ outdated: [vmi('vms', 'db')], migrations: before }), now, limits, ref, undefined, now - 5 * 60_000);
    expect(p.rows).toEqual([]);
    expect(p.stall.map((s) => s.kind)).toEqual(['failures']);
  });
});

describe('track: the verdict over polls', () => {
  const opts = { stallAfter: 10_000, confirmPolls: 2, historyPoints: 4 };
  const at = (p: PollAssessment, state: TrackerState, now: number) => track(state, p, now, opts);
  const working = (outdated: number, succeeded = 0) => poll(view({ outdated: Array.from({ length: outdated }, (_, i) => vmi('vms', `v${i}`)), migrations: Array.from({ length: succeeded }, (_, i) => vmim('vms', `s${i}`, `x${i}`, { phase: 'Succeeded' })) }));

  it('completes only after the settled state held for confirmPolls polls in a row', () => {
    let s = startTracker(0);
    const done = working(0);
    let r = at(done, s, 1000);
    expect(r.verdict.kind).toBe('wait');
    s = r.state;
    r = at(done, s, 2000);
    expect(r.verdict.kind).toBe('completed');
  });

  it('fewer outdated VMIs or another success is progress; the same numbers for stallAfter is a stall', () => {
    let s = startTracker(0);
    for (const [now, p] of [
      [0, working(5)],
      [6000, working(4)],
      [12_000, working(4, 1)],
      [20_000, working(4, 1)],
    ] as const) {
      const r = at(p, s, now);
      expect(r.verdict.kind).toBe('wait');
      s = r.state;
    }
    expect(s.lastProgressAt).toBe(12_000);
    const r = at(working(4, 1), s, 22_000);
    expect(r.verdict).toEqual({ kind: 'stalled', reasons: [{ kind: 'no-progress', text: 'No progress for 10s: 4 VMI(s) still outdated (4 KubeVirt should move), 0 migration(s) in flight' }] });
  });

  it('keeps the outdated count over time, thinning old points instead of dropping them', () => {
    let s = startTracker(0);
    for (let i = 0; i < 9; i++) s = at(working(9 - i), s, i * 1000).state;
    expect(s.history.length).toBeLessThanOrEqual(5);
    expect(s.history[0]!.outdated).toBe(9);
    expect(s.history.at(-1)!.outdated).toBe(1);
  });

  it('one VMI failing repeatedly does not stop a rollout that progresses elsewhere; it stalls once nothing else can move', () => {
    const failing = [vmim('vms', 'f1', 'flaky', { phase: 'Failed', reason: closedSocket }), vmim('vms', 'f2', 'flaky', { phase: 'Failed', reason: closedSocket })];
    const during = poll(view({ outdated: [vmi('vms', 'flaky'), vmi('vms', 'busy')], migrations: [...failing, vmim('vms', 'm', 'busy', { phase: 'Running', runningForMs: 30_000 })] }));
    expect(during.stall).toHaveLength(1);
    expect(during.movable).toBe(1);
    let r = at(during, startTracker(0), 1000);
    expect(r.verdict.kind).toBe('wait');
    const after = poll(view({ outdated: [vmi('vms', 'flaky')], migrations: [...failing, vmim('vms', 'm', 'busy', { phase: 'Succeeded' })] }));
    r = at(after, r.state, 2000);
    expect(r.verdict).toMatchObject({ kind: 'stalled', reasons: [{ kind: 'failures', vmi: 'vms/flaky' }] });
  });
});
