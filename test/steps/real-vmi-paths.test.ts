/**
 * A VMI as real KubeVirt serves it (null condition timestamps, omitempty migration states) through
 * every path that reads VMIs: the plan's impact, the snapshot's baseline, the migration monitor's
 * poll, recovery's candidates and cancels, and the repave gate's drain plan. Read through the
 * product's readers from the corpus (test/fixtures/real), so a shape they cannot take fails here.
 */
import { describe, expect, it } from 'vitest';
import { assessPoll } from '../../src/steps/migrations/assess.js';
import { migrationsToCancel, selectCandidates } from '../../src/steps/migrations/candidates.js';
import { readMigrationView } from '../../src/steps/migrations/cluster-view.js';
import { drainPlan } from '../../src/domain/repave/repave-impact.js';
import { predictImpact } from '../../src/domain/impact/impact.js';
import { readUpdateConfig } from '../../src/steps/plan/kubevirt-config.js';
import { summarizeBaseline } from '../../src/steps/snapshot/baseline.js';
import { ClusterReader } from '../../src/kube/reader.js';
import { corpusKubectl, loadCorpus } from '../kube/real-corpus.js';

const corpus = loadCorpus();
const pick = (...files: string[]) => corpus.filter((c) => files.includes(c.file)).map((c) => c.obj);
/** A cluster of real shapes: VMIs that can and cannot migrate, outdated ones mid-migration and after a failed abort, their VMs, nodes, KubeVirt v1.4. */
const cluster = pick(
  'vmi/running-live-migratable-agent.yaml',
  'vmi/fedora02-running-agent-rwo.yaml',
  'vmi/migrating.yaml',
  'vmi/migration-abort-failed.yaml',
  'vmi/not-live-migratable.yaml',
  'vm/runstrategy-always.yaml',
  'vm/fedora02-running-true.yaml',
  'vmim/abort-failed.yaml',
  'vmim/history-superseded.yaml',
  'node/ready.yaml',
  'node/cordoned.yaml',
  'kubevirt/kubevirt-v1.4.0.yaml',
  'cdi/cdi-v1.61.0.yaml',
);
const reader = new ClusterReader(corpusKubectl(cluster));
const NOW = Date.parse('2025-03-11T15:00:00Z');

describe('a VMI with null timestamps through every path that reads VMIs', () => {
  it('plan: the impact of each VM, from LiveMigratable read with its nulls', async () => {
    const strategy = await readUpdateConfig(reader, 'kubevirt', 'kubevirt');
    const impact = predictImpact(strategy, await reader.vms(), await reader.vmis());
    const fate = (vm: string) => impact.find((i) => i.vm === vm)?.fate;
    expect(fate('vms/web-01')).toBe('live-migrate');
    expect(fate('default/fedora02')).toBe('restart');
    expect(fate('legacy/router-01')).toBe('restart');
    expect(impact.find((i) => i.vm === 'legacy/router-01')?.reason).toMatch(/InterfaceNotLiveMigratable/);
    expect(impact).toHaveLength(15);
  });

  it('snapshot: the baseline counts them running', async () => {
    const b = summarizeBaseline({ vms: await reader.vms(), vmis: await reader.vmis(), nads: [], services: [], storageClasses: [], nodes: await reader.nodes(), kubevirt: await reader.kubeVirt('kubevirt', 'kubevirt'), cdi: await reader.cdi('cdi'), deployedProfiles: [] });
    expect(b.runningVmis).toHaveLength(15);
    expect(b.runningVmis).toContain('default/fedora02');
    expect(b).toMatchObject({ kubevirtVersion: 'v1.4.0', cdiVersion: 'v1.61.0', nodes: { total: 2, notReady: [] } });
  });

  it('monitor: one poll reads the outdated VMIs, the migration whose abort failed and the history, and judges them', async () => {
    const view = await readMigrationView(reader, { namespace: 'kubevirt', name: 'kubevirt' });
    expect(view.outdated.map((v) => v.metadata.name).sort()).toEqual(['api-02', 'db-01']);
    const poll = assessPoll(view, NOW, { migrationLimit: 15 * 60_000, failureLimit: 2 }, { namespace: 'kubevirt', name: 'kubevirt' }, 'v1.4.0', Date.parse('2025-03-11T12:00:00Z'));
    // The session's table: the migration still running (its abort failed); db-01's week-old history is not in it.
    expect(poll.rows.map((r) => `${r.key} ${r.phase}`)).toEqual(['vms/kubevirt-workload-update-f5qxr Running']);
    // db-01's failures a later success superseded do not stall it.
    expect(poll.stall.filter((s) => s.kind === 'failures')).toEqual([]);
    expect(poll.settled).toBe(false);
  });

  it('recovery: the outdated VMs are offered, the migration whose abort failed is offered for cancel again', async () => {
    const view = await readMigrationView(reader, { namespace: 'kubevirt', name: 'kubevirt' });
    const { offered, notOffered } = selectCandidates(view.outdated, await reader.vms(), { vmis: new Set(['vms/db-01', 'vms/api-02']), source: 'snapshot' });
    // db-01's VM is not in this cluster: it is said so, never restarted.
    expect(offered.map((c) => c.vm)).toEqual([]);
    expect(notOffered.map((n) => `${n.vm}: ${n.reason}`)).toEqual(['vms/api-02: no VirtualMachine owns this VMI, so KubeVirt cannot restart it', 'vms/db-01: no VirtualMachine owns this VMI, so KubeVirt cannot restart it']);
    expect(migrationsToCancel(view.migrations, view.outdated, NOW).map((m) => `${m.key} ${m.phase}`)).toEqual(['vms/kubevirt-workload-update-f5qxr Running']);
  });

  it('repave gate: each running VMI leaves its node by migration or by a restart, by its LiveMigratable condition', async () => {
    const plan = drainPlan(await reader.nodes(), await reader.vmis());
    const all = plan.flatMap((n) => n.vms);
    expect(all.find((v) => v.vm === 'vms/web-01')?.moves).toBe('migrates');
    expect(all.find((v) => v.vm === 'legacy/sev-01')).toMatchObject({ moves: 'restarts', reason: 'shut down and started again (downtime): SEVNotLiveMigratable' });
    // fedora02 runs on a node of another cluster (its copy comes from elsewhere): not drained here
    expect(all).toHaveLength(14);
  });
});
