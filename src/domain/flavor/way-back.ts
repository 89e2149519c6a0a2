/**
 * The way back: for each profile, the version the cluster ran before the upgrade and how to return
 * to it. On a real Palette with clones that version still exists, so going back is one apply that
 * re-attaches it; edited in place (or on the spec's service, whose PUT relabels the one object) it
 * is gone, and going back means writing its packs again. Named in the plan, the report and the
 * hints of the steps that can stop with the cluster half way.
 */
import type { ProfileRole } from '../../engine/params.js';
import type { FlavorChoice } from '../../palette/flavor.js';

/**
 * The way back: per profile, the version the cluster ran before the upgrade, and how to return to
 * it (re-attach the old version on a real Palette, which keeps it; re-publish its packs under a new
 * label on the spec's service, whose PUT replaces the version in place).
 */
export interface WayBack {
  role: ProfileRole;
  name: string;
  /** The uid of the version the cluster ran before. */
  uid: string;
  version: string;
  /** One line an operator can follow. */
  how: string;
}

export interface VersionRef {
  uid: string;
  version: string;
}

/** One profile's version an apply replaced: what the cluster ran (the way back) and what it runs now. */
export interface AppliedVersion {
  role: ProfileRole;
  name: string;
  /** What the cluster ran (the way back) and what it runs now. */
  from: VersionRef;
  to: VersionRef;
}

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
