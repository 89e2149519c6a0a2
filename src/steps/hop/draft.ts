/**
 * The `draft` step (spec 4 "Update workflow" 1-2): read the profile, build the PUT body with the
 * hop's new pack tags and the customized values, refuse anything unsafe before sending, ask, write
 * the draft, then read it back: a draft that does not hold what was sent is the spec's silent no-op.
 * Where the draft goes is the flavor's: the deployed profile under a new label (the spec's
 * service), or a new version object cloned from the deployed one (a real Palette).
 */
import { StepFailedError, StoppedError } from '../../errors.js';
import { approveOrDecline } from '../../engine/gate.js';
import { defineStepKind, failed, skipped, succeeded } from '../../engine/step-kind.js';
import { assertSafeDraft, buildDraftBody } from '../../palette/draft-body.js';
import { compareDraft } from '../../palette/draft-check.js';
import { clonedUidOf, putProfileRequest } from '../../palette/mutations.js';
import { latestPlan } from '../contracts.js';
import { draftChanges } from './draft-changes.js';
import { hopFlavor } from './flavors/index.js';
import { clonedUidNote } from './flavors/palette-draft.js';
import { checkHopDrafts } from './hop-check.js';
import { confirmOfferingRestarts } from './outstanding.js';
import { withPackUids } from './pack-uids.js';
import { valuesDiff } from './payload-diff.js';
import { declareVariables, hopVariables, requireValues, variableGate } from './variables.js';
import { rebuildingLayers } from '../../domain/room/cluster-room.js';
import type { DraftPackSummary, DraftOutput, DraftLive } from './types.js';
import { draftCard } from '../cards.js';
export type { DraftPackSummary, DraftOutput, DraftLive } from './types.js';


export const draftStep = defineStepKind({
  ...draftCard,
  async run(ctx) {
    const role = ctx.params.profile;
    const mine = draftChanges(ctx, role);
    if (!mine) return skipped(`the plan has no ${role} profile change in this hop`);
    const { plan, custom } = mine;
    const red = (custom?.rules ?? []).filter((r) => r.status === 'fail');
    if (red.length) {
      return failed(
        new StepFailedError('draft.rules-red', `${red.length} customization rule(s) fail on the draft of ${plan.name}: ${red.map((r) => r.title).join('; ')}.`, {
          hint: `${red[0]!.message} Fix the values in the customization step, then resume.`,
        }),
      );
    }

    const hop = await hopFlavor(ctx);
    const vars = hopVariables(ctx, role);
    const asked = variableGate(ctx, vars, hop.choice, 'draft');
    // Every profile of the hop not written yet is read and checked before this hop's first write.
    const target = (await checkHopDrafts(ctx, hop)).get(role)!;
    // A real Palette's changed packs carry their registry uids (read during the check: no new request).
    const changes = await withPackUids(ctx, target.before, mine.changes);
    const preview = buildDraftBody(target.before, { version: target.label, packs: changes });

    const packs: DraftPackSummary[] = changes.map((c) => {
      const before = target.before.packs.find((p) => p.name === c.name);
      const after = preview.spec.template.packs.find((p) => p.name === c.name);
      return {
        name: c.name,
        from: before?.tag ?? '(new)',
        to: c.tag,
        carried: custom?.packs.find((x) => x.name === c.name)?.carried ?? 0,
        diff: valuesDiff(before?.values ?? '', after?.values ?? ''),
        manifests: (after?.manifests ?? []).map((m) => m.name),
      };
    });
    const rebuilds = packs.filter((p) => p.from !== p.to && rebuildingLayers.has(target.before.packs.find((x) => x.name === p.name)?.layer ?? '')).map((p) => p.name);
    const summary = {
      role,
      ...(ctx.step.hop ? { hop: ctx.step.hop.index } : {}),
      uid: target.uid,
      name: plan.name,
      fromVersion: target.source.version,
      toVersion: target.label,
      source: target.source,
      how: target.how,
      ...(rebuilds.length ? { rebuilds } : {}),
      packs,
    };
    const headline = `Draft of ${plan.name}: ${target.source.version} → ${target.label}`;
    ctx.progress({ headline, draft: summary } satisfies DraftLive);

    // A shared profile gets one version per hop: the cluster that needed it first wrote and published
    // it; every other cluster of the profile attaches that same version, and sends nothing here.
    // A version this session cloned (its answer lost, found again on resume) holds the source's
    // content until this step writes its draft: it is this cluster's to write, not a shared one.
    const published = target.before.publishedPacks;
    const clonedHere = ctx.state().mutations[`${ctx.step.id}/clone`] !== undefined;
    if (!ctx.dryRun && !clonedHere && target.how === 'existing' && target.before.isPublished && target.before.draftVersion === undefined && published) {
      // The published content compared as a draft would be: the same packs, tags, values and manifests.
      const same = compareDraft({ ...target.before, draftPacks: published, draftVersion: target.before.publishedVersion ?? target.before.version }, preview);
      if (same.matches) {
        return succeeded<DraftOutput>({ ...summary, readBack: 'matched', shared: true }, `${plan.name} ${target.label} exists already, published with this hop's content (uid ${target.uid}): nothing written`);
      }
      // Published with other content: clusters may run it, and a version in use is not rewritten.
      return failed(
        new StepFailedError('draft.version-taken', `${plan.name} ${target.label} exists already (uid ${target.uid}), published with other content than this hop's: ${same.differences.slice(0, 3).join('; ')}.`, {
          hint: `A published version other clusters may run is never rewritten. Name another label for this hop (references[].labels in the params), or make this cluster's values match the version's (profile variables for what differs per cluster), then resume.`,
        }),
      );
    }

    const { decision, key: gateKey } = await confirmOfferingRestarts(
      ctx,
      `${ctx.step.id}/draft`,
      (outstanding) => {
        const warnings = [...target.warnings, ...asked.warnings, ...(outstanding.warning ? [outstanding.warning] : [])];
        return {
          gate: 'draft',
          title: target.how === 'clone' ? `Create ${plan.name} ${target.label} (clone) and write its draft` : `Write the draft of ${plan.name} ${target.label}`,
          lines: [...target.lines, ...asked.lines],
          ...(asked.secretInputs ? { secretInputs: asked.secretInputs } : {}),
          items: packs.map((p) => `${p.name} ${p.from} → ${p.to}: values +${p.diff.added} −${p.diff.removed}${p.carried ? `, ${p.carried} site value(s) carried` : ''}`),
          ...(warnings.length ? { warnings } : {}),
          options: [...approveOrDecline(target.how === 'clone' ? 'Clone and write draft' : 'Write draft'), ...(outstanding.option ? [outstanding.option] : [])],
          safeChoice: 'abort',
          ifStopped: `nothing is ${target.how === 'clone' ? 'cloned or ' : ''}written: ${plan.name} ${plan.fromVersion} and the cluster stay as they are; a resume asks again.`,
        };
      },
      (live) => ctx.progress({ headline: `${headline} · restarting outstanding VMs first: ${live.headline}`, draft: summary } satisfies DraftLive),
    );
    if (decision.choice !== 'approve') throw new StoppedError(`Declined: the draft of ${plan.name} was not written.`, { next: 'Resume when ready; you will be asked again.' }, 'stopped.draft');
    requireValues(ctx, vars, hop.choice);

    const palette = ctx.effects.palette;
    const cloneKey = `${ctx.step.id}/clone`;
    const interrupted = ctx.state().mutations[cloneKey];
    if (target.clone) {
      // The clone's answer names the new version: kept in the journal, so the PUT goes to it without a lookup.
      const onAnswer = (answer: unknown) => {
        const uid = clonedUidOf(answer);
        if (uid) ctx.note(clonedUidNote, uid);
      };
      await ctx.mutate({ key: cloneKey, request: target.clone.request, approvedBy: gateKey, settle: target.clone.settle, onAnswer });
    } else if (interrupted && !ctx.mutationDone(cloneKey)) {
      // A clone whose answer was lost, and the version it made is here: record it as settled, send nothing.
      await ctx.mutate({ key: cloneKey, request: interrupted.request, approvedBy: gateKey, settle: async () => 'done' });
    }
    const written = await hop.resolveTarget(ctx, target, plan.name);
    await declareVariables(ctx, { uid: written.uid, sourceUid: target.source.uid, deployedUid: plan.uid, name: plan.name, label: target.label }, vars, hop.choice, gateKey);
    const body = buildDraftBody(written.before, { version: target.label, packs: changes });
    assertSafeDraft(written.before, body, hop.labelRule);
    const output = { ...summary, uid: written.uid };

    await ctx.mutate({
      key: `${ctx.step.id}/put`,
      request: putProfileRequest(written.uid, body, `write the draft of ${plan.name} ${target.label}`),
      approvedBy: gateKey,
      settle: async () => ((await palette.draftMatches(written.uid, body, { signal: ctx.signal })).matches ? 'done' : 'not-done'),
    });
    if (ctx.dryRun) return succeeded<DraftOutput>({ ...output, readBack: 'rehearsal' }, `would write ${plan.name} ${target.label} (rehearsal)`);

    const check = await palette.draftMatches(written.uid, body, { signal: ctx.signal });
    if (!check.matches) {
      ctx.progress({ headline: 'The API accepted the change but did not apply it', draft: output, notApplied: check.differences } satisfies DraftLive);
      return failed(
        new StepFailedError('draft.not-applied', `The API accepted the draft of ${plan.name} but did not apply it: ${check.differences.slice(0, 3).join('; ')}.`, {
          hint: 'This is the silent no-op of spec 7 (e.g. packs sent outside spec.template.packs, or the API ignoring the write). Nothing was published; check the profile in Palette, then resume to write the draft again.',
        }),
        { ...output, readBack: 'not-applied' as const, notApplied: check.differences },
      );
    }
    return succeeded<DraftOutput>({ ...output, readBack: 'matched' }, `draft ${plan.name} ${target.label} written${target.how === 'clone' ? ` on a new version (uid ${written.uid})` : ''} and read back`);
  },
  async precondition(ctx, output: DraftOutput) {
    if (ctx.dryRun) return [];
    const profile = await ctx.effects.palette.getProfile(output.uid, { manifests: false, signal: ctx.signal });
    const published = profile.publishedVersion ?? (profile.isPublished ? profile.version : undefined);
    // A later hop of this session moves the same profile on: that is the plan going ahead, not drift.
    const hop = ctx.step.hop?.index ?? Number.POSITIVE_INFINITY;
    const later = (latestPlan(ctx)?.hops ?? []).filter((h) => h.index > hop).flatMap((h) => h.profiles.filter((p) => p.uid === output.uid).map((p) => p.toVersion));
    const ours = new Set([output.toVersion, ...later]);
    if (!ours.has(profile.version) && !(published !== undefined && ours.has(published))) return [`profile ${output.name} is now at ${profile.version}, not the draft ${output.toVersion} written by this session`];
    return [];
  },
});
