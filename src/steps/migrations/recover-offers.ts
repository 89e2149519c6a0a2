/**
 * What recovery offers in this attempt: the baseline it holds VMs against, the VMs it may restart
 * (with why), the ones it refuses (with why), and the VMs an earlier attempt offered. Those stay
 * listed even when no longer outdated: a VM restarted before a crash is no longer outdated, and
 * its journal entry must still be honoured (settled, waited for, reported as restarted).
 */
import type { StepContext } from '../../engine/context.js';
import type { Vm, Vmi, Vmim } from '../../kube/schemas.js';
import { hopOutputs, latestPlan, type SnapshotContract } from '../contracts.js';
import { predictedCandidates, selectCandidates, type Baseline, type NotOffered, type RestartCandidate } from './candidates.js';
import { keyOf } from './cluster-view.js';
import type { DiagnoseOutput } from './diagnose-types.js';
import { notesOf } from './recover-context.js';
import { problemsByVmi, restartWhy } from './restart-why.js';

export interface Offer {
  c: RestartCandidate;
  why: string;
}

export interface Offers {
  baseline: Baseline;
  /** Every VM this attempt deals with (earlier offers included), in namespace/name order. */
  all: Offer[];
  /** Offered in this attempt (the others come from an earlier one). */
  offeredNow: ReadonlySet<string>;
  notOffered: NotOffered[];
  /** Refused VMs that are not among `all`. */
  refusedOnly: NotOffered[];
}

/** The snapshot's baseline; without a snapshot, what was running when recovery first looked (journaled, so a resume keeps it). */
function resolveBaseline(ctx: StepContext<unknown>, outdated: Vmi[]): Baseline {
  const snapshot = ctx.outputsOfKind<SnapshotContract>('snapshot').at(-1)?.baseline;
  if (snapshot) return { vmis: new Set(snapshot.runningVmis), source: 'snapshot' };
  let firstLook = notesOf(ctx).baseline as string[] | undefined;
  if (!firstLook) {
    firstLook = outdated.filter((v) => v.status?.phase === 'Running').map(keyOf);
    ctx.note('baseline', firstLook);
  }
  return { vmis: new Set(firstLook), source: 'first-look' };
}

export function buildOffers(ctx: StepContext<unknown>, reads: { outdated: Vmi[]; migrations: Vmim[]; vms: Vm[] }, now: number): Offers {
  const baseline = resolveBaseline(ctx, reads.outdated);
  const { offered, notOffered } = selectCandidates(reads.outdated, reads.vms, baseline);
  const problems = problemsByVmi(reads.migrations, now);
  const diagnosis = hopOutputs<DiagnoseOutput>(ctx, 'diagnose').at(-1);
  const offers: Offer[] = offered.map((c) => ({ c, why: restartWhy(c, problems.get(c.vm), diagnosis) }));
  if (ctx.dryRun) {
    // A rehearsal publishes nothing: also show the gates the plan predicts for VMs that will not live-migrate.
    for (const c of predictedCandidates(latestPlan(ctx)?.impact ?? [], baseline, new Set(offers.map((o) => o.c.vm)))) offers.push({ c, why: restartWhy(c, undefined, diagnosis) });
  }
  const earlier = (notesOf(ctx).offered as Offer[] | undefined) ?? [];
  const offeredNow = new Set(offers.map((o) => o.c.vm));
  const carried = earlier.filter((o) => !offeredNow.has(o.c.vm));
  if (offers.some((o) => !earlier.some((e) => e.c.vm === o.c.vm))) ctx.note('offered', [...carried, ...offers]);
  const all = [...carried, ...offers].sort((a, b) => a.c.vm.localeCompare(b.c.vm));
  const listed = new Set(all.map((o) => o.c.vm));
  return { baseline, all, offeredNow, notOffered, refusedOnly: notOffered.filter((n) => !listed.has(n.vm)) };
}
