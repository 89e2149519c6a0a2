/**
 * What a hop's draft of one profile changes: the plan's new pack tags with the values customization
 * computed, plus packs whose tag stays but whose values customization restored. Shared by the draft
 * step and the whole-hop check that runs before the hop's first write.
 */
import type { StepContext } from '../../engine/context.js';
import type { ProfileRole } from '../../engine/params.js';
import type { PackChange } from '../../palette/types.js';
import { customizedProfile, hopOutputs, plannedProfile, type CustomizeContract } from '../contracts.js';
import type { PlannedProfile } from '../../domain/plan/planned-hop.js';
import type { DraftOutput } from './types.js';

export interface ProfileChanges {
  plan: PlannedProfile;
  custom: CustomizeContract['byHop'][number]['profiles'][number] | undefined;
  changes: PackChange[];
}

export function draftChanges(ctx: StepContext<unknown>, role: ProfileRole): ProfileChanges | undefined {
  const plan = plannedProfile(ctx, role);
  if (!plan) return undefined;
  const custom = customizedProfile(ctx, role);
  const changes: PackChange[] = plan.packs.map((p) => {
    const c = custom?.packs.find((x) => x.name === p.name);
    return { name: p.name, tag: p.to, ...(c ? { values: c.values, ...(c.manifests ? { manifests: c.manifests } : {}) } : {}) };
  });
  // Customization may also change packs whose tag stays (a lost setting restored).
  for (const c of custom?.packs ?? []) {
    if (!changes.some((x) => x.name === c.name)) changes.push({ name: c.name, tag: c.tag, values: c.values, ...(c.manifests ? { manifests: c.manifests } : {}) });
  }
  return { plan, custom, changes };
}

/** Drafts of this hop that were written and read back (or recorded, in a rehearsal). */
export function writtenDrafts(ctx: StepContext<unknown>): DraftOutput[] {
  return hopOutputs<DraftOutput>(ctx, 'draft').filter((d) => d.readBack === 'matched' || d.readBack === 'rehearsal');
}

/** The version object an earlier hop of this session wrote for a profile (where the next hop starts from). */
export function earlierVersion(ctx: StepContext<unknown>, role: ProfileRole): DraftOutput | undefined {
  const hop = ctx.step.hop?.index ?? 0;
  return ctx
    .outputsOfKind<DraftOutput & { hop?: number }>('draft')
    .filter((d) => d.role === role && (d.readBack === 'matched' || d.readBack === 'rehearsal') && (d.hop ?? 0) < hop)
    .at(-1);
}
