/**
 * What the migration watch waits for while nothing moves (issue 33): KubeVirt's new version, or the
 * workload updater; how long since the hop was sent against the plan's pack rollout; past its p90,
 * what to check and how to stop safely - in the live headline plain mode prints, and said once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { KubevirtProgress, MigrationsLive } from '../../../src/steps/migrations/monitor-types.js';
import { migrationWait, overdueWarning, waitedLine, waitHeadline } from '../../../src/steps/migrations/waiting.js';
import { until } from '../../support/wait.js';
import { startFakeKubevirt, type FakeKubevirt } from './support/fake-kubevirt.js';
import { kubevirt } from './support/objects.js';
import { migrationRun, runbookYaml } from './support/run.js';

const kv = (over: Partial<KubevirtProgress> = {}): KubevirtProgress => ({ ref: 'kubevirt/kubevirt', found: true, phase: 'Deployed', observed: 'v1.2.0', target: 'v1.3.1', expected: 'v1.3.1', conditions: ['Progressing=True (UpdateInProgress)'], settled: false, ...over });
const rollout = { p50Seconds: 600, p90Seconds: 1200 };

describe('migrationWait', () => {
  it.each([
    ['virt-operator rolling the new version out', kv(), 'kubevirt-rollout', 'waiting for KubeVirt to report v1.3.1: virt-operator is rolling out (it reports v1.2.0, Deployed; Progressing=True (UpdateInProgress))'],
    ['the pack not applied yet: KubeVirt still targets the old version', kv({ target: 'v1.2.0', conditions: [] }), 'kubevirt-operator', "waiting for KubeVirt to report v1.3.1: the new virt-operator has not taken over yet (KubeVirt's target is still v1.2.0, Deployed); Palette applies the pack first"],
  ])('%s', (_n, kubevirt, what, text) => {
    const w = migrationWait({ kubevirt, movable: 7, inFlight: 0, waitedMs: 185_000, deployedForMs: 0, rollout })!;
    expect(w).toMatchObject({ for: what, text, overdue: false, predicted: rollout });
    expect(waitedLine(w, true)).toBe("3m05s lab time since the hop was sent; the plan's pack rollout: p50 10m, p90 20m");
  });

  it('KubeVirt deployed, the updater not started: counted from when KubeVirt reported the version, against how soon the updater starts', () => {
    const deployed = kv({ observed: 'v1.3.1', settled: true, conditions: [] });
    // The hop was sent long ago (the storage rolled for 27 minutes): that is not the updater's delay.
    const w = migrationWait({ kubevirt: deployed, movable: 7, inFlight: 0, waitedMs: 27 * 60_000, deployedForMs: 40_000, rollout })!;
    expect(w).toMatchObject({ for: 'workload-updater', text: "waiting for KubeVirt's workload updater to start moving 7 outdated VMI(s) (KubeVirt v1.3.1 is deployed)", overdue: false });
    expect(waitedLine(w)).toBe('40s since KubeVirt reported v1.3.1; the workload updater usually starts: p50 30s, p90 5m');
    const late = migrationWait({ kubevirt: deployed, movable: 7, inFlight: 0, waitedMs: 33 * 60_000, deployedForMs: 6 * 60_000, rollout })!;
    expect(late.overdue).toBe(true);
    expect(late.checks[0]).toMatch(/spec\.workloadUpdateStrategy/);
  });

  it('is nothing while migrations move, or once nothing is left to move', () => {
    expect(migrationWait({ kubevirt: kv(), movable: 3, inFlight: 2, waitedMs: 0, deployedForMs: 0, rollout })).toBeUndefined();
    expect(migrationWait({ kubevirt: kv({ observed: 'v1.3.1', settled: true }), movable: 0, inFlight: 0, waitedMs: 0, deployedForMs: 0, rollout })).toBeUndefined();
    expect(migrationWait({ kubevirt: kv({ found: false }), movable: 3, inFlight: 0, waitedMs: 0, deployedForMs: 0, rollout })).toBeUndefined();
  });

  it('past the p90: overdue, with the commands for the KubeVirt resource in its own namespace and how to stop safely', () => {
    const w = migrationWait({ kubevirt: kv({ ref: 'virt/kv-main' }), movable: 0, inFlight: 0, waitedMs: 25 * 60_000, deployedForMs: 0, rollout })!;
    expect(w.overdue).toBe(true);
    expect(w.checks[0]).toBe('kubectl -n virt rollout status deploy/virt-operator');
    expect(w.checks[1]).toMatch(/^kubectl -n virt get kubevirt kv-main -o yaml +\(status\.conditions: why Progressing, Degraded\)$/);
    expect(waitHeadline(w)).toBe(`${w.text} (25m since the hop was sent, the plan's pack rollout p50 10m, p90 20m: PAST its p90)`);
    const warning = overdueWarning(w);
    expect(warning).toMatch(/^Still waiting for KubeVirt to report v1\.3\.1: virt-operator is rolling out .* after 25m since the hop was sent, past the p90 \(the plan's pack rollout: 10m-20m\)\. Check: kubectl -n virt rollout status deploy\/virt-operator/);
    expect(warning).toMatch(/To stop safely: q \(Ctrl\+C in plain mode\) saves the session, nothing half-sent; KubeVirt goes on by itself \(the rollout, then the migrations\); upgrade-pilot resume watches again\.$/);
  });
});

let fake: FakeKubevirt | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('the migration watch waiting for KubeVirt (Kubernetes double, real kubectl)', () => {
  it('says what it waits for in its headline, warns once past the plan’s p90 with what to check, and goes on when KubeVirt reports the version', async () => {
    // An update in progress as virt-operator writes it: phase stays Deployed, the target moves first, Progressing says so.
    const updating = kubevirt('v1.2.0', 'Deployed', 'v1.3.1');
    (updating.status as { conditions: unknown[] }).conditions = [
      { type: 'Available', status: 'True', reason: 'UpdateInProgress' },
      { type: 'Progressing', status: 'True', reason: 'UpdateInProgress' },
      { type: 'Degraded', status: 'True', reason: 'UpdateInProgress' },
    ];
    fake = await startFakeKubevirt((s) => s.upsert('kubevirts', updating));
    // The plan: one hop to KubeVirt v1.3.1 whose pack rollout takes 1 s at worst.
    const hop = { index: 1, from: '4.4.10', to: '4.5.4', profiles: [], kubevirtVersion: 'v1.3.1', eta: { p50Seconds: 1, p90Seconds: 1, summary: '', parts: [{ what: 'pack-rollout', p50Seconds: 1, p90Seconds: 1, basis: '' }] } };
    const yaml = runbookYaml(`  - { id: plan, kind: fixed-hops, with: { hops: [${JSON.stringify(hop)}] } }
  - id: hop
    forEach: hops
    steps:
      - { id: migrations, kind: migrations, with: { interval: 50ms } }`);
    const run = migrationRun(fake.lab.kubeconfig, yaml);
    const runner = run.runner();
    const headlines: string[] = [];
    runner.subscribe((_s, e) => {
      if (e.type === 'step.progress') headlines.push((e.live as MigrationsLive).headline);
    });
    const done = runner.run();
    const warned = await until('the warning past the p90', () => runner.getState().log.find((l) => l.level === 'warn' && l.message.startsWith('Still waiting for KubeVirt')));
    expect(warned.message).toMatch(/to report v1\.3\.1: virt-operator is rolling out .*past the p90.*kubectl -n kubevirt rollout status deploy\/virt-operator.*To stop safely/);
    expect(headlines[0]).toMatch(/^waiting for KubeVirt to report v1\.3\.1: virt-operator is rolling out \(it reports v1\.2\.0, Deployed; Progressing=True \(UpdateInProgress\), Degraded=True \(UpdateInProgress\)\) \(\d+s since the hop was sent, the plan's pack rollout p50 1s, p90 1s/);
    fake.store.update('kubevirts', 'kubevirt', 'kubevirt', (o) => Object.assign(o.status as object, { observedKubeVirtVersion: 'v1.3.1', conditions: [{ type: 'Available', status: 'True' }, { type: 'Progressing', status: 'False' }] }));
    expect((await done).status).toBe('done');
    // Said once, however many polls it waited past the p90.
    expect(runner.getState().log.filter((l) => l.message.startsWith('Still waiting for KubeVirt'))).toHaveLength(1);
  });
});
