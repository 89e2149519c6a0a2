/**
 * The whole hop's payloads, checked before the hop's first write: every profile of the hop whose
 * draft is not written yet is read and its draft body built and put through the draft guard
 * (duplicate packs, dropped packs, `spec.packs`, a label the flavor does not allow), its changed
 * packs' registry uids read (a real Palette: a tag the registry does not hold is refused here). One
 * bad profile stops the hop before anything of it is sent - not after the other profile was already
 * cloned or written. Reads only.
 */
import { InputError } from '../../errors.js';
import { buildDraftBody, draftProblems } from '../../palette/draft-body.js';
import type { ProfileRole } from '../../engine/params.js';
import { currentHop } from '../contracts.js';
import { draftChanges, writtenDrafts } from './draft-changes.js';
import { withPackUids } from './pack-uids.js';
import type { DraftTarget, HopContext, HopFlavor } from './flavors/types.js';

export async function checkHopDrafts(ctx: HopContext, hop: HopFlavor): Promise<Map<ProfileRole, DraftTarget>> {
  const done = new Set(writtenDrafts(ctx).map((d) => d.role));
  const targets = new Map<ProfileRole, DraftTarget>();
  const problems: string[] = [];
  for (const planned of currentHop(ctx)?.profiles ?? []) {
    if (done.has(planned.role)) continue;
    const mine = draftChanges(ctx, planned.role);
    if (!mine) continue;
    const target = await hop.draftTarget(ctx, planned);
    targets.set(planned.role, target);
    const which = `profile ${planned.name} ${target.source.version} (uid ${target.source.uid})`;
    try {
      // Building can refuse too (a pack given twice in the changes, a manifest read without content),
      // and so can the registry (a tag it does not hold).
      const changes = await withPackUids(ctx, target.before, mine.changes);
      const found = draftProblems(target.before, buildDraftBody(target.before, { version: target.label, packs: changes }), hop.labelRule);
      if (found.length) problems.push(`${which}: ${found.join('; ')}`);
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      problems.push(`${which}: ${err.message.replace(/\.$/, '')}`);
    }
  }
  if (problems.length > 0) {
    const which = ctx.step.hop ? `hop ${ctx.step.hop.index}` : 'the hop';
    throw new InputError('palette.unsafe-hop', `Refusing to write ${which}: ${problems.join('; ')}.`, {
      hint: 'Nothing of this hop was sent. Fix the profile in Palette (each pack once, every pack kept), or the plan, then resume.',
    });
  }
  return targets;
}
