/**
 * The `draft` step (spec 4 "Update workflow" 1-2): read the profile, build the PUT body with the
 * hop's new pack tags and the customized values, refuse anything unsafe before sending, ask, write
 * the draft, then read it back: a draft that does not hold what was sent is the spec's silent no-op.
 */
import { z } from 'zod';
import { InterruptedError, StepFailedError } from '../../errors.js';
import { approveOrDecline } from '../../engine/gate.js';
import { ProfileRole } from '../../engine/params.js';
import { defineStepKind, failed, skipped, succeeded } from '../../engine/step-kind.js';
import { assertSafeDraft, buildDraftBody } from '../../palette/draft-body.js';
import { putProfileRequest } from '../../palette/mutations.js';
import type { PackChange } from '../../palette/types.js';
import { customizedProfile, latestPlan, plannedProfile } from '../contracts.js';
import { valuesDiff, type ValuesDiff } from './payload-diff.js';
import { outstandingWarning } from './outstanding.js';

export interface DraftPackSummary {
  name: string;
  from: string;
  to: string;
  carried: number;
  diff: ValuesDiff;
  manifests: string[];
}

export interface DraftOutput {
  role: ProfileRole;
  uid: string;
  name: string;
  fromVersion: string;
  toVersion: string;
  packs: DraftPackSummary[];
  /** `matched` after the read-back; `rehearsal` when nothing was sent; `not-applied`: the silent no-op. */
  readBack: 'matched' | 'rehearsal' | 'not-applied';
  notApplied?: string[];
}

export interface DraftLive {
  headline: string;
  draft?: Omit<DraftOutput, 'readBack'>;
  /** The read-back found the draft different from what was sent. */
  notApplied?: string[];
}

export const draftStep = defineStepKind({
  kind: 'draft',
  title: 'Write the profile draft',
  description: 'Builds and writes the draft of one profile for this hop, then reads it back',
  gate: 'draft',
  params: z.strictObject({ profile: ProfileRole }),
  async run(ctx) {
    const role = ctx.params.profile;
    const plan = plannedProfile(ctx, role);
    if (!plan) return skipped(`the plan has no ${role} profile change in this hop`);
    const custom = customizedProfile(ctx, role);
    const changes: PackChange[] = plan.packs.map((p) => {
      const c = custom?.packs.find((x) => x.name === p.name);
      return { name: p.name, tag: p.to, ...(c ? { values: c.values, ...(c.manifests ? { manifests: c.manifests } : {}) } : {}) };
    });
    // Customization may also change packs whose tag stays (a lost setting restored).
    for (const c of custom?.packs ?? []) {
      if (!changes.some((x) => x.name === c.name)) changes.push({ name: c.name, tag: c.tag, values: c.values, ...(c.manifests ? { manifests: c.manifests } : {}) });
    }
    const red = (custom?.rules ?? []).filter((r) => r.status === 'fail');
    if (red.length) {
      return failed(
        new StepFailedError('draft.rules-red', `${red.length} customization rule(s) fail on the draft of ${plan.name}: ${red.map((r) => r.title).join('; ')}.`, {
          hint: `${red[0]!.message} Fix the values in the customization step, then resume.`,
        }),
      );
    }

    const palette = ctx.effects.palette;
    const profile = await palette.getProfile(plan.uid, { signal: ctx.signal });
    const body = buildDraftBody(profile, { version: plan.toVersion, packs: changes });
    assertSafeDraft(profile, body);

    const packs: DraftPackSummary[] = changes.map((c) => {
      const before = profile.packs.find((p) => p.name === c.name);
      const after = body.spec.template.packs.find((p) => p.name === c.name);
      return {
        name: c.name,
        from: before?.tag ?? '(new)',
        to: c.tag,
        carried: custom?.packs.find((x) => x.name === c.name)?.carried ?? 0,
        diff: valuesDiff(before?.values ?? '', after?.values ?? ''),
        manifests: (after?.manifests ?? []).map((m) => m.name),
      };
    });
    const summary = { role, uid: plan.uid, name: plan.name, fromVersion: profile.version, toVersion: plan.toVersion, packs };
    ctx.progress({ headline: `Draft of ${plan.name}: ${profile.version} → ${plan.toVersion}`, draft: summary } satisfies DraftLive);

    const gateKey = `${ctx.step.id}/draft`;
    const warning = outstandingWarning(ctx);
    const decision = await ctx.confirm({
      gate: 'draft',
      key: gateKey,
      title: `Write the draft of ${plan.name} ${plan.toVersion}`,
      lines: [
        `Profile ${plan.name} (${plan.uid}): version label ${profile.version} → ${plan.toVersion}.`,
        'This writes a draft only: no cluster changes until it is published.',
      ],
      items: packs.map((p) => `${p.name} ${p.from} → ${p.to}: values +${p.diff.added} −${p.diff.removed}${p.carried ? `, ${p.carried} site value(s) carried` : ''}`),
      ...(warning ? { warnings: [warning] } : {}),
      options: approveOrDecline('Write draft'),
      safeChoice: 'abort',
    });
    if (decision.choice !== 'approve') throw new InterruptedError(`Not approved: the draft of ${plan.name} was not written.`, 'Resume when ready; you will be asked again.');

    await ctx.mutate({
      key: `${ctx.step.id}/put`,
      request: putProfileRequest(plan.uid, body, `write the draft of ${plan.name} ${plan.toVersion}`),
      approvedBy: gateKey,
      settle: async () => ((await palette.draftMatches(plan.uid, body, { signal: ctx.signal })).matches ? 'done' : 'not-done'),
    });
    if (ctx.dryRun) return succeeded<DraftOutput>({ ...summary, readBack: 'rehearsal' }, `would write ${plan.name} ${plan.toVersion} (rehearsal)`);

    const check = await palette.draftMatches(plan.uid, body, { signal: ctx.signal });
    if (!check.matches) {
      ctx.progress({ headline: 'The API accepted the change but did not apply it', draft: summary, notApplied: check.differences } satisfies DraftLive);
      return failed(
        new StepFailedError('draft.not-applied', `The API accepted the draft of ${plan.name} but did not apply it: ${check.differences.slice(0, 3).join('; ')}.`, {
          hint: 'This is the silent no-op of spec 7 (e.g. packs sent outside spec.template.packs, or the API ignoring the write). Nothing was published; check the profile in Palette, then resume to write the draft again.',
        }),
        { ...summary, readBack: 'not-applied' as const, notApplied: check.differences },
      );
    }
    return succeeded<DraftOutput>({ ...summary, readBack: 'matched' }, `draft ${plan.name} ${plan.toVersion} written and read back`);
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
