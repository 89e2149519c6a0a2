/**
 * The `snapshot` step (spec 9.1.5 "record the deployed profile versions"): the deployed profiles
 * from the cluster's profiles read, and a bounded baseline of the cluster that verification,
 * recovery and drift checks compare against. Reads only, one call per kind, concurrently.
 */
import { defineStepKind, skipped, succeeded } from '../../engine/step-kind.js';
import { isoNow } from '../../engine/clock.js';
import { latestPlan, type SnapshotContract } from '../contracts.js';
import { countBaseline, summarizeBaseline, type BaselineCounts } from './baseline.js';
import { profileDrift } from './drift.js';
import { healthDrift } from './health-drift.js';
import { readHealth } from '../preflight/health-read.js';
import type { PreflightOutput } from '../preflight/types.js';
import { snapshotCard } from '../cards.js';

export interface SnapshotOutput extends SnapshotContract {
  takenAt: string;
  counts: BaselineCounts;
  /** What the snapshot says along with its counts: an optional API group that is not installed. */
  notes?: string[];
}

export function snapshotSummary(out: Pick<SnapshotOutput, 'baseline' | 'counts' | 'notes'>): string {
  const c = out.counts;
  const b = out.baseline;
  const profiles = b.deployedProfiles.map((p) => `${p.name} ${p.version}`).join(', ');
  const notes = (out.notes ?? []).map((n) => `; ${n}`).join('');
  return `${profiles}; ${c.vms} VM(s) (${c.runningVmis} running), ${c.nodes} node(s), ${c.nads} network(s), ${c.loadBalancerServices} load-balancer service(s); KubeVirt ${b.kubevirtVersion ?? '?'}, CDI ${b.cdiVersion ?? '?'}${notes}`;
}

export const snapshotStep = defineStepKind({
  ...snapshotCard,
  async run(ctx) {
    const site = ctx.site;
    if (!site) return skipped('no site parameters: the cluster is unknown');
    ctx.progress({ headline: 'Reading the deployed profiles and the cluster…' });
    // The first failed read stops the others (their kubectl processes included).
    const stop = new AbortController();
    const signal = AbortSignal.any([ctx.signal, stop.signal]);
    const reader = ctx.effects.kube.reader(signal);
    const reads = Promise.all([
      ctx.effects.palette.getClusterProfiles(site.cluster.uid, { signal }),
      reader.vms(),
      reader.vmis(),
      reader.networkAttachmentDefinitions(),
      reader.services(),
      reader.storageClasses(),
      reader.nodes(),
      reader.kubeVirt(site.kubevirt.namespace, site.kubevirt.name),
      reader.cdi(site.cdi.name),
    ]);
    const [deployedProfiles, vms, vmis, nads, services, storageClasses, nodes, kubevirt, cdi] = await reads.catch((err: unknown) => {
      stop.abort();
      throw err;
    });
    const baseline = summarizeBaseline({ vms, vmis, nads: nads.items, services, storageClasses, nodes, kubevirt, cdi, deployedProfiles });
    const notes = nads.notInstalled ? [nads.notInstalled] : [];
    const output: SnapshotOutput = { baseline, counts: countBaseline(baseline), takenAt: isoNow(ctx.effects.clock), ...(notes.length ? { notes } : {}) };
    return succeeded(output, snapshotSummary(output));
  },
  async precondition(ctx, output: SnapshotOutput) {
    const site = ctx.site;
    if (!site) return [];
    // Health is news only while nothing has reached the cluster: after a publish or an apply, pods
    // roll and nodes are rebuilt on purpose, and the watch steps and the gates say what holds.
    const untouched = ctx.outputsOfKind('publish').length === 0 && ctx.outputsOfKind('apply').length === 0;
    const [now, health] = await Promise.all([ctx.effects.palette.getClusterProfiles(site.cluster.uid, { signal: ctx.signal }), untouched ? readHealth(ctx.effects.kube.reader(ctx.signal), site) : undefined]);
    const known = ctx.outputOf<PreflightOutput>('preflight')?.health ?? [];
    return [...profileDrift(output.baseline.deployedProfiles, now, latestPlan(ctx)), ...(health ? healthDrift(known, health) : [])];
  },
});
