/**
 * The way back: for each profile, the version the cluster ran before the upgrade and how to return
 * to it. On a real Palette with clones that version still exists, so going back is one apply that
 * re-attaches it; edited in place (or on the spec's service, whose PUT relabels the one object) it
 * is gone, and going back means writing its packs again. Named in the plan, the report and the
 * hints of the steps that can stop with the cluster half way.
 */
import type { StepContext } from '../../engine/context.js';
import type { ProfileRole } from '../../engine/params.js';
import type { FlavorChoice } from '../../palette/flavor.js';
import { latestPlan, type WayBack } from '../contracts.js';
import type { ApplyOutput, AppliedVersion } from './types.js';

export interface DeployedVersion {
  role: ProfileRole;
  name: string;
  uid: string;
  version: string;
}

/** The request that re-attaches `back` in place of `now` (what the apply step would send). */
export function reattachCall(clusterUid: string, back: string, now: string): string {
  return `PATCH /v1/spectroclusters/${clusterUid}/profiles?resolveNotification=true with {"profiles":[{"uid":"${back}","replaceWithProfile":"${now}"}]}`;
}

/**
 * The pack's own word on going back (Palette docs, "Upgrade the VMO Pack": it advises against
 * downgrading packs and asks to keep the old values as the rollback reference).
 */
export const DOWNGRADE_CAVEAT =
  'Palette advises against downgrading packs: going back puts an older KubeVirt over VMs already moved to the newer launcher, so use it only when the new version cannot run, with the old values (the snapshot) as the reference.';

/**
 * The steps back for one profile, newest first: each applied hop's starting version attached in
 * place of its new one, one minor per step as the way up went. `applied` is in the order sent.
 */
export function stepsBack(applied: AppliedVersion[][], role: ProfileRole): AppliedVersion[] {
  return applied
    .flatMap((hop) => hop.filter((r) => r.role === role))
    .filter((r) => r.from.uid !== r.to.uid)
    .reverse();
}

/** One step back as an operator follows it. */
export function stepBackText(clusterUid: string, r: AppliedVersion): string {
  return `attach ${r.name} ${r.from.version} (uid ${r.from.uid}) in place of ${r.to.version} (uid ${r.to.uid}) by ${reattachCall(clusterUid, r.from.uid, r.to.uid)}`;
}

export function planWayBack(choice: FlavorChoice, deployed: DeployedVersion[], clusterUid: string): WayBack[] {
  return deployed.map((d) => {
    let how: string;
    if (choice.flavor === 'palette' && choice.versioning !== 'in-place') {
      how =
        `Palette keeps ${d.name} ${d.version} (each hop clones a new version): step back one hop at a time, as the way up went, ` +
        `each hop's starting version attached in place of its new one (${reattachCall(clusterUid, '<starting version>', '<new version>')}), ${d.version} last. ` +
        `The new versions' uids exist once each hop clones them; the report and every stop name them. ${DOWNGRADE_CAVEAT}`;
    } else if (choice.flavor === 'palette') {
      how = `Edited in place, ${d.version} is overwritten by the first publish: write its packs (the snapshot lists them) back as a draft of ${d.uid}, publish it and apply the update.`;
    } else {
      how = `The spec's service relabels the one profile object: write the packs of ${d.version} (the snapshot lists them) back as a draft under a new label and publish it.`;
    }
    return { role: d.role, name: d.name, uid: d.uid, version: d.version, how };
  });
}

/** What each apply of this session attached, in the order sent (a rehearsal's included). */
export function appliedBySession(ctx: StepContext<unknown>): AppliedVersion[][] {
  return ctx.outputsOfKind<ApplyOutput>('apply').map((out) => out.replaced ?? []);
}

/**
 * One line for a stop after the cluster changed: per profile, how to put back the version it ran
 * before the upgrade, one hop at a time. `pending` is an apply being sent now (not yet recorded).
 */
export function wayBackHint(ctx: StepContext<unknown>, pending: AppliedVersion[] = []): string | undefined {
  const plan = latestPlan(ctx);
  const back = plan?.wayBack ?? [];
  if (back.length === 0) return undefined;
  const cluster = ctx.site?.cluster.uid ?? '<cluster uid>';
  const applied = appliedBySession(ctx);
  const recorded = new Set(applied.flat().map((r) => `${r.role} ${r.to.uid}`));
  const fresh = pending.filter((r) => !recorded.has(`${r.role} ${r.to.uid}`));
  const chain = fresh.length ? [...applied, fresh] : applied;
  const parts = back.map((b) => {
    const steps = plan?.flavor === 'palette' ? stepsBack(chain, b.role) : [];
    if (steps.length) return `${b.name}: ${steps.map((r) => stepBackText(cluster, r)).join(', then ')}`;
    return `${b.name} ${b.version} (uid ${b.uid}): ${b.how}`;
  });
  return `The way back, one hop at a time: ${parts.join('; ')}.`;
}
