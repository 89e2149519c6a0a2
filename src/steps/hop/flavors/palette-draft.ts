/**
 * Where a real Palette's draft goes. Each version is its own object (own uid; versions of a profile
 * share the name and list each other in `spec.versions`). With `clone` (the default) a hop writes a
 * new version: found by name + label if it already exists (a resumed or repeated run), otherwise
 * cloned from the version the cluster runs, which stays untouched - the way back. With `in-place`
 * the deployed version is edited under its own label. Either way a PUT never changes the label of
 * an existing object (that would rename the deployed version and lose it).
 */
import { StepFailedError } from '../../../errors.js';
import { findStep } from '../../../engine/state.js';
import { cloneRequest, isPendingUid, pendingUid } from '../../../palette/mutations.js';
import type { ProfileDoc } from '../../../palette/types.js';
import type { PlannedProfile } from '../../../domain/plan/planned-hop.js';
import { earlierVersion } from '../draft-changes.js';
import type { DraftTarget, HopContext } from './types.js';

/** The object a clone of `source` to `label` will be, before it exists (what the gate and a rehearsal show). */
export function asClone(source: ProfileDoc, uid: string, label: string): ProfileDoc {
  const metadata = typeof source.raw.metadata === 'object' && source.raw.metadata !== null ? (source.raw.metadata as Record<string, unknown>) : {};
  const { draftPacks: _d, draftVersion: _v, ...rest } = source;
  return {
    ...rest,
    raw: { ...source.raw, metadata: { ...metadata, uid } },
    uid,
    version: label,
    publishedVersion: label,
    isPublished: true,
    packs: source.publishedPacks ?? source.packs,
  };
}

/** A version by name and label, looked up next to its source (a real Palette lists every version in `spec.versions`), then in the profile list. */
async function findVersion(ctx: HopContext, name: string, label: string, sourceUid: string) {
  const palette = ctx.effects.palette;
  const near = await palette.getProfile(sourceUid, { manifests: false, signal: ctx.signal });
  return palette.findProfileVersion(name, label, { near, signal: ctx.signal });
}

/** The version this hop starts from: the one an earlier hop wrote, else the one the plan found deployed. */
async function sourceOf(ctx: HopContext, plan: PlannedProfile): Promise<ProfileDoc> {
  const earlier = earlierVersion(ctx, plan.role);
  const palette = ctx.effects.palette;
  if (earlier && !isPendingUid(earlier.uid)) return palette.getProfile(earlier.uid, { signal: ctx.signal });
  const deployed = await palette.getProfile(plan.uid, { signal: ctx.signal });
  // A rehearsal never made the earlier hop's version: stand in for it with the deployed content.
  return earlier ? asClone(deployed, earlier.uid, earlier.toVersion) : deployed;
}

export async function cloneTarget(ctx: HopContext, plan: PlannedProfile): Promise<DraftTarget> {
  const palette = ctx.effects.palette;
  const source = await sourceOf(ctx, plan);
  const sourceVersion = source.publishedVersion ?? source.version;
  const label = plan.toVersion;
  const base = { label, source: { uid: source.uid, version: sourceVersion }, warnings: [] as string[] };
  const found = isPendingUid(source.uid) ? undefined : await palette.findProfileVersion(plan.name, label, { near: source, signal: ctx.signal });
  if (found) {
    const before = await palette.getProfile(found.uid, { signal: ctx.signal });
    return {
      ...base,
      uid: found.uid,
      before,
      how: 'existing',
      lines: [
        `Version ${label} of ${plan.name} already exists (uid ${found.uid}): its draft is written; nothing is cloned.`,
        `${sourceVersion} (uid ${source.uid}) stays as it is. Nothing reaches the cluster until ${label} is published and applied.`,
      ],
      ...(before.isPublished && before.publishedPacks ? { warnings: [`${plan.name} ${label} is already published: writing its draft changes a published version (another cluster may use it).`] } : {}),
    };
  }
  const projectUid = ctx.site?.palette.projectUid ?? '';
  const uid = pendingUid(plan.name, label);
  return {
    ...base,
    uid,
    before: asClone(source, uid, label),
    how: 'clone',
    lines: [
      `Palette keeps each version as its own object: ${plan.name} ${sourceVersion} (uid ${source.uid}) is cloned to a new version ${label}, and the draft is written on the clone.`,
      `${sourceVersion} stays untouched (the way back). Nothing reaches the cluster until ${label} is published and applied.`,
    ],
    clone: {
      request: cloneRequest(source.uid, { name: plan.name, version: label, projectUid }, `clone ${plan.name} ${sourceVersion} to ${label}`),
      // A clone whose answer was lost is found by name and label: never a second copy.
      settle: async () => ((await findVersion(ctx, plan.name, label, source.uid)) ? 'done' : 'not-done'),
    },
  };
}

export async function inPlaceTarget(ctx: HopContext, plan: PlannedProfile): Promise<DraftTarget> {
  const before = await ctx.effects.palette.getProfile(plan.uid, { signal: ctx.signal });
  const label = before.publishedVersion ?? before.version;
  return {
    uid: plan.uid,
    before,
    label,
    source: { uid: plan.uid, version: label },
    how: 'in-place',
    lines: [`${plan.name} ${label} (uid ${plan.uid}) is edited in place: its label stays ${label}.`, 'This writes a draft only: nothing changes on the cluster until it is published and the update is applied.'],
    warnings: [`In place, publishing overwrites the version the cluster runs now: Palette keeps no copy of ${label} as it is (palette.versioning: clone keeps one).`],
  };
}

/** The draft step's note holding the uid of the version its clone made (the clone's 201 answer, `v1Uid`). */
export const clonedUidNote = 'cloned-uid';

function notedCloneUid(ctx: HopContext): string | undefined {
  const value = (findStep(ctx.state(), ctx.step.id)?.notes ?? ctx.step.notes)[clonedUidNote];
  return typeof value === 'string' ? value : undefined;
}

/**
 * After the clone was sent (or found sent): the new version object, read with its manifests. Its uid
 * is the one the clone answered with; when that answer was lost (a time-out, a crash), the version is
 * found by name and label next to its source (`spec.versions`) or in the dashboard list.
 */
export async function resolveClone(ctx: HopContext, target: DraftTarget, name: string): Promise<{ uid: string; before: ProfileDoc }> {
  if (!target.clone || ctx.dryRun) return { uid: target.uid, before: target.before };
  const answered = notedCloneUid(ctx);
  if (answered) {
    const before = await ctx.effects.palette.getProfile(answered, { signal: ctx.signal });
    if (before.name === name && (before.publishedVersion ?? before.version) === target.label) return { uid: answered, before };
  }
  const found = await findVersion(ctx, name, target.label, target.source.uid);
  if (!found) {
    throw new StepFailedError('draft.clone-missing', `The clone of ${name} ${target.source.version} to ${target.label} was accepted, but no version ${target.label} of ${name} can be found.`, {
      hint: 'Check the profile versions in Palette; resume to look again (the clone is not sent twice).',
    });
  }
  return { uid: found.uid, before: await ctx.effects.palette.getProfile(found.uid, { signal: ctx.signal }) };
}
