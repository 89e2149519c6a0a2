import { afterEach, describe, expect, it } from 'vitest';
import type { GateRequest } from '../../../src/engine/gate.js';
import { kubevirtVersionOf } from '../../../src/lab/data/pack-catalog.js';
import type { LabHandle } from '../../../src/lab/index.js';
import type { DiagnoseOutput } from '../../../src/steps/migrations/diagnose-types.js';
import type { MigrationsOutput } from '../../../src/steps/migrations/monitor-types.js';
import type { RecoverOutput } from '../../../src/steps/migrations/recover-types.js';
import { noApprovals } from '../../../src/engine/approval-policy.js';
import { restartPath, restartRequest } from '../../../src/steps/migrations/recover-requests.js';
import { advanceUntil, isOutdated, labCancels, labRestarts, publishHop, runningVmis, startScenario } from './support/lab.js';
import { migrationRun, runbookYaml, scripted, simClock } from './support/run.js';

let lab: LabHandle | undefined;
afterEach(async () => {
  await lab?.close();
  lab = undefined;
});

// The lab runs 300 times faster than the wall: the default 10 minutes without progress is 2 s of a
// machine that may be busy elsewhere. These tests judge the stalls the scenarios make (migrations
// running too long, failing), so "no progress" waits a lab day.
const steps = (running: string[]) => `  - { id: snapshot, kind: snapshot, with: { runningVmis: ${JSON.stringify(running)} } }
  - { id: migrations, kind: migrations, with: { interval: 5s, stallAfter: 24h } }
  - { id: diagnose, kind: diagnose }
  - { id: recover, kind: recover, with: { interval: 5s, restartWith: kubectl } }`;
const vmOf = (r: GateRequest) => (r.subject ? `${r.subject.namespace}/${r.subject.name}` : r.gate);

describe('lab: skip-minor', () => {
  it('the monitor reports the stall, the diagnosis cites the three symptoms, approving two of three VMs restarts exactly those two', async () => {
    lab = await startScenario('skip-minor', 300);
    const running = runningVmis(lab);
    expect(running).toHaveLength(8);
    const choices: Record<string, 'approve' | 'skip'> = { 'ns-product/api-01': 'approve', 'virtual-machines/web-01': 'approve', 'virtual-machines/db-01': 'skip' };
    const op = scripted((r) => (r.gate === 'cancel-migrations' ? 'approve' : (choices[vmOf(r)] ?? 'skip')));
    const run = migrationRun(lab.kubeconfig, runbookYaml(steps(running)), { clock: simClock(lab.clock) });
    expect((await run.run({ confirm: op.confirm })).status).toBe('done');

    const monitor = run.step('migrations').output as MigrationsOutput;
    expect(monitor.outcome).toBe('stalled');
    expect(new Set(monitor.stall.map((s) => s.kind))).toEqual(new Set(['migration-too-long', 'failures']));
    expect(monitor.stall.filter((s) => s.kind === 'migration-too-long').map((s) => s.vmi).sort()).toEqual(['ns-edge/edge-gw-01', 'virtual-machines/web-02']);

    const diagnosis = run.step('diagnose').output as DiagnoseOutput;
    expect(diagnosis.headline).toMatch(/^Known issue: launcher incompatible after a skipped minor \(3 of 3 symptom\(s\) found\)/);
    const [finding] = diagnosis.findings;
    expect(finding!.signatures.every((s) => s.matches > 0)).toBe(true);
    const evidence = (sig: string) => finding!.evidence.filter((e) => e.signature === sig);
    expect(evidence('closed-client-socket')[0]).toMatchObject({ source: expect.stringMatching(/^(migration|VMI) /), line: expect.stringContaining('client socket is closed') });
    expect(evidence('dirty-rate-unimplemented')[0]).toMatchObject({ source: expect.stringMatching(/^virt-handler kubevirt\/virt-handler-\w+ on vmo-worker-\d \(last 500 lines\)$/), line: expect.stringContaining('Unimplemented desc = unknown method GetDomainDirtyRateStats') });
    expect(evidence('network-info-cache-missing')[0]).toMatchObject({ secondary: true, source: expect.stringMatching(/^virt-launcher /), line: expect.stringContaining('network-info-cache') });
    expect(diagnosis.unknown).toEqual([]);

    expect(op.asked[0]).toMatchObject({ gate: 'cancel-migrations' });
    expect(op.asked.slice(1).map(vmOf)).toEqual(running);
    expect(labRestarts(lab).sort()).toEqual(['ns-product/api-01', 'virtual-machines/web-01']);
    expect(labCancels(lab).length).toBeGreaterThanOrEqual(2);
    const out = run.step('recover').output as RecoverOutput;
    expect(out.restarted).toEqual(['ns-product/api-01', 'virtual-machines/web-01']);
    expect(out.outstanding).toContain('virtual-machines/db-01');
    expect(out.outstanding).toHaveLength(6);
    // The restarted ones run on the new launcher; the skipped one is still outdated.
    expect(isOutdated(lab, 'ns-product/api-01')).toBe(false);
    expect(isOutdated(lab, 'virtual-machines/web-01')).toBe(false);
    expect(isOutdated(lab, 'virtual-machines/db-01')).toBe(true);
  });

  it('Abort recovery sends nothing more', async () => {
    lab = await startScenario('skip-minor', 300);
    const l = lab;
    let mutationsAtAbort = -1;
    const op = scripted((r) => {
      if (r.gate === 'cancel-migrations') return 'approve';
      if (vmOf(r) === 'ns-edge/edge-gw-01') return 'approve';
      if (vmOf(r) === 'ns-packs/build-cache-01') {
        mutationsAtAbort = l.audit.entries({ api: 'kube' }).filter((e) => e.method !== 'GET').length;
        return 'abort';
      }
      return 'skip';
    });
    const run = migrationRun(lab.kubeconfig, runbookYaml(steps(runningVmis(lab))), { clock: simClock(lab.clock) });
    expect((await run.run({ confirm: op.confirm })).status).toBe('stopped');
    expect(op.asked.map(vmOf).slice(1)).toEqual(['ns-adv/win-sb-01', 'ns-edge/edge-gw-01', 'ns-packs/build-cache-01']);
    expect(labRestarts(lab)).toEqual(['ns-edge/edge-gw-01']);
    expect(lab.audit.entries({ api: 'kube' }).filter((e) => e.method !== 'GET')).toHaveLength(mutationsAtAbort);
    expect(run.step('recover').error?.kind).toBe('stopped');
  });
});

describe('lab: healthy, after a one-minor publish', () => {
  it('the migrations complete, nothing is diagnosed, and only the VM that cannot live-migrate is offered a restart', async () => {
    lab = await startScenario('healthy', 300);
    const l = lab;
    const running = runningVmis(lab);
    const began = lab.clock.now();
    publishHop(lab, '4.5.4');
    const target = kubevirtVersionOf('4.5.4');
    // Jump until KubeVirt runs the new version; the migrations it then starts are watched live.
    expect(advanceUntil(lab, () => l.world.summary().kubevirt.observedVersion === target && l.world.summary().kubevirt.phase === 'Deployed', 30 * 60_000)).toBe(true);
    const op = scripted((r) => (vmOf(r) === 'ns-packs/build-cache-01' ? 'approve' : undefined));
    const run = migrationRun(lab.kubeconfig, runbookYaml(steps(running)), { clock: simClock(lab.clock), began });
    expect((await run.run({ confirm: op.confirm })).status).toBe('done');

    const monitor = run.step('migrations').output as MigrationsOutput;
    expect(monitor.outcome).toBe('completed');
    expect(monitor.counts.Succeeded).toBeGreaterThanOrEqual(6);
    expect(monitor.counts.Failed).toBe(0);
    expect(monitor.needsRestart.map((n) => n.vmi)).toEqual(['ns-packs/build-cache-01']);
    expect(run.step('diagnose').status).toBe('skipped');
    expect(op.asked.map(vmOf)).toEqual(['ns-packs/build-cache-01']);
    expect(labCancels(lab)).toEqual([]);
    expect(labRestarts(lab)).toEqual(['ns-packs/build-cache-01']);
    expect(isOutdated(lab, 'ns-packs/build-cache-01')).toBe(false);
    expect(run.step('recover').output as RecoverOutput).toMatchObject({ restarted: ['ns-packs/build-cache-01'], outstanding: [] });
  });
});

describe('lab: a kill between a restart’s intent and its result', () => {
  it('on resume the VM is found restarted and is not restarted again (lab audit)', async () => {
    lab = await startScenario('skip-minor', 300);
    const run = migrationRun(lab.kubeconfig, runbookYaml(steps(runningVmis(lab))), { clock: simClock(lab.clock) });
    // Plain mode, only the cancel approved: the run stops at exit 3 with every restart awaiting approval.
    expect((await run.run({ approvals: { ...noApprovals, gates: ['cancel-migrations'] } })).status).toBe('awaitingApproval');
    expect(labRestarts(lab)).toEqual([]);
    // The next attempt journals the intent to restart web-01, sends it, and dies before the result.
    const uid = lab.store.get('virtualmachineinstances', 'virtual-machines', 'web-01')!.metadata.uid;
    const session = run.store.open(run.id);
    const at = () => new Date(lab!.clock.now()).toISOString();
    session.append({ type: 'session.resumed', at: at() });
    session.append({ type: 'step.started', at: at(), id: 'recover' });
    session.append({ type: 'step.note', at: at(), id: 'recover', key: 'before/virtual-machines/web-01', value: { uid } });
    session.append({ type: 'mutation.intent', at: at(), key: 'recover/restart/virtual-machines/web-01/send', stepId: 'recover', request: restartRequest('virtual-machines', 'web-01', 'kubectl'), dryRun: false });
    session.close();
    await run.kubectl.run(['replace', '--raw', restartPath('virtual-machines', 'web-01'), '-f', '-'], { action: 'restart web-01', stdin: '{}' });
    // The restart reached the cluster before the "crash": the resume must find it there, not send it again.
    expect(labRestarts(lab)).toEqual(['virtual-machines/web-01']);

    // KubeVirt keeps creating migrations for outdated VMIs, so the resume cancels the new ones again.
    const second = await run.run({ approvals: { ...noApprovals, gates: ['cancel-migrations'], restarts: ['virtual-machines/web-01'], skipRestarts: runningVmis(lab).filter((v) => v !== 'virtual-machines/web-01') } });
    expect(second.status).toBe('done');
    expect(labRestarts(lab)).toEqual(['virtual-machines/web-01']);
    expect(run.state().mutations['recover/restart/virtual-machines/web-01/send']?.outcome).toBe('settled');
    expect(isOutdated(lab, 'virtual-machines/web-01')).toBe(false);
    expect((run.step('recover').output as RecoverOutput).restarted).toEqual(['virtual-machines/web-01']);
  });
});
