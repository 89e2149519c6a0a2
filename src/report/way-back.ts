/**
 * The way back: per profile, the version the cluster ran before the first hop and how to return
 * to it. The plan says so when it knows the flavor's way (PlanContract.wayBack); otherwise it is
 * derived from the first hop's starting versions and the snapshot's packs. Pure.
 */
import type { SessionState } from '../engine/state.js';
import type { PlanContract, SnapshotContract } from '../steps/contracts.js';
import type { ReportRollback } from './model.js';
import { DOWNGRADE_CAVEAT, stepBackText, stepsBack, type AppliedVersion } from '../domain/flavor/way-back.js';

function howBack(flavor: PlanContract['flavor'], name: string, version: string, uid: string): string {
  if (flavor === 'palette') return `Attach ${name} ${version} (uid ${uid}) to the cluster again: Palette keeps the versions it published.`;
  return (
    `Write a draft of ${name} holding the packs and values of ${version} under a new version label, then publish it ` +
    `(this profile API replaces a version in place, so ${version} itself is not kept; hop 1's payload diffs in the appendix show what changed from it); ` +
    'step back one minor at a time, as the upgrade went.'
  );
}

/** Whether any change to this profile was sent (or, in a rehearsal, would have been). */
const touched = (state: SessionState, uid: string) =>
  Object.values(state.mutations).some((m) => m.request.target === 'palette' && m.request.path.includes(uid) && m.outcome !== undefined && m.outcome !== 'failed');

/**
 * `applied`: what each apply of the session attached, in the order sent. Once the new versions
 * exist their uids are known, so the way back names each step with them, newest hop first.
 */
export function wayBackOf(state: SessionState, plan: PlanContract | undefined, snapshot: SnapshotContract | undefined, applied: AppliedVersion[][] = [], clusterUid?: string): ReportRollback[] {
  const before = snapshot?.baseline.deployedProfiles ?? [];
  const packsOf = (name: string) => before.find((p) => p.name === name)?.packs;
  if (plan?.wayBack?.length) {
    return plan.wayBack.map((w) => {
      const packs = packsOf(w.name);
      const steps = plan.flavor === 'palette' && clusterUid ? stepsBack(applied, w.role) : [];
      const how = steps.length
        ? `One hop at a time, newest first: ${steps.map((r, i) => `${i + 1}. ${stepBackText(clusterUid!, r)}, then wait until every pack is Ready`).join('; ')}. ${DOWNGRADE_CAVEAT}`
        : w.how;
      return { profile: w.name, role: w.role, uid: w.uid, version: w.version, ...(packs ? { packs } : {}), how };
    });
  }
  const first = plan?.hops[0];
  if (!first) {
    return before.map((p) => ({ profile: p.name, version: p.version, packs: p.packs, how: `Nothing to go back to: no hop was planned, so ${p.name} still runs ${p.version}.` }));
  }
  // Defensive: a plan from another runbook may carry hops without per-profile details.
  return (first.profiles ?? []).map((p) => {
    const packs = packsOf(p.name);
    const how = touched(state, p.uid) ? howBack(plan.flavor, p.name, p.fromVersion, p.uid) : `Nothing to go back to: no change to ${p.name} was sent; it still runs ${p.fromVersion}.`;
    return { profile: p.name, role: p.role, uid: p.uid, version: p.fromVersion, ...(packs ? { packs } : {}), how };
  });
}
