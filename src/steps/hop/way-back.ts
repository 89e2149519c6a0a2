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
import type { ApplyOutput } from './apply.js';

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

export function planWayBack(choice: FlavorChoice, deployed: DeployedVersion[], clusterUid: string): WayBack[] {
  return deployed.map((d) => {
    let how: string;
    if (choice.flavor === 'palette' && choice.versioning !== 'in-place') {
      how = `Palette keeps ${d.name} ${d.version} (each hop clones a new version): apply it again with ${reattachCall(clusterUid, d.uid, '<uid of the version then attached>')}.`;
    } else if (choice.flavor === 'palette') {
      how = `Edited in place, ${d.version} is overwritten by the first publish: write its packs (the snapshot lists them) back as a draft of ${d.uid}, publish it and apply the update.`;
    } else {
      how = `The spec's service relabels the one profile object: write the packs of ${d.version} (the snapshot lists them) back as a draft under a new label and publish it.`;
    }
    return { role: d.role, name: d.name, uid: d.uid, version: d.version, how };
  });
}

/** The version of each profile attached by the latest apply of this session (role → uid). */
function attachedBySession(ctx: StepContext<unknown>): Map<ProfileRole, string> {
  const now = new Map<ProfileRole, string>();
  for (const out of ctx.outputsOfKind<ApplyOutput>('apply')) for (const r of out.replaced ?? []) now.set(r.role, r.to.uid);
  return now;
}

/**
 * One line for a stop after the cluster changed: per profile, how to put back the version it ran
 * before the upgrade. `attached` overrides what the session last applied (a step that knows better).
 */
export function wayBackHint(ctx: StepContext<unknown>, attached: Map<ProfileRole, string> = new Map()): string | undefined {
  const plan = latestPlan(ctx);
  const back = plan?.wayBack ?? [];
  if (back.length === 0) return undefined;
  const cluster = ctx.site?.cluster.uid ?? '<cluster uid>';
  const now = new Map([...attachedBySession(ctx), ...attached]);
  const parts = back.map((b) => {
    const current = now.get(b.role);
    if (plan?.flavor === 'palette' && current && current !== b.uid) return `${b.name} ${b.version} (uid ${b.uid}) by ${reattachCall(cluster, b.uid, current)}`;
    return `${b.name} ${b.version} (uid ${b.uid}): ${b.how}`;
  });
  return `The way back: ${parts.join('; ')}.`;
}
