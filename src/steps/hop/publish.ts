/**
 * The `publish` step (spec 4 step 3, spec 3): after the operator's yes, PATCH the publish path once,
 * then read the profile to confirm. An ambiguous failure is settled by reading, never by resending.
 * What a publish means for the cluster is the flavor's to say (on a real Palette: nothing yet).
 */
import { StepFailedError, StoppedError } from '../../errors.js';
import { healthRestated } from './health-restated.js';
import { approveOrDecline } from '../../engine/gate.js';
import { defineStepKind, failed, skipped, succeeded } from '../../engine/step-kind.js';
import { publishRequest } from '../../palette/mutations.js';
import type { DraftOutput } from './types.js';
import { writtenDrafts } from './draft-changes.js';
import { hopFlavor } from './flavors/index.js';
import { currentHop, latestPlan } from '../contracts.js';
import { windowGateLines } from '../../domain/window/gate-lines.js';
import type { PublishOutput } from './types.js';
import { publishCard } from '../cards.js';
export type { PublishOutput } from './types.js';

export const publishStep = defineStepKind({
  ...publishCard,
  async run(ctx) {
    const role = ctx.params.profile;
    const draft: DraftOutput | undefined = writtenDrafts(ctx).find((o) => o.role === role);
    if (!draft) return skipped(`no draft of the ${role} profile was written in this hop`);
    const base = { role, uid: draft.uid, name: draft.name, version: draft.toVersion };
    // Published already (a version shared with other clusters): nothing to send, nothing to ask.
    if (draft.shared && (await ctx.effects.palette.isPublished(draft.uid, draft.toVersion, { signal: ctx.signal }))) {
      return succeeded<PublishOutput>({ ...base, confirmed: 'published' }, `${draft.name} ${draft.toVersion} is published already (shared): nothing sent`);
    }
    const clusterName = ctx.site?.cluster.name ?? ctx.site?.cluster.uid ?? 'the cluster';
    const hop = await hopFlavor(ctx);
    const gateKey = `${ctx.step.id}/publish`;
    // On the spec's service a publish reaches the cluster by itself: this gate is where it is applied.
    const health = hop.choice.flavor === 'spec' ? await healthRestated(ctx) : [];
    const decision = await ctx.confirm({
      gate: 'publish',
      key: gateKey,
      title: `Publish ${draft.name} ${draft.toVersion}`,
      // On the spec's service the publish itself sets the hop in motion: say how long it takes.
      lines: [...hop.publishLines(draft, clusterName), ...(hop.choice.flavor === 'spec' && draft.packs.some((p) => p.name === ctx.site?.packs.orchestration) ? windowGateLines(currentHop(ctx), latestPlan(ctx)?.impact, ctx.site?.window) : [])],
      items: draft.packs.map((p) => `${p.name} ${p.from} → ${p.to}`),
      ...(health.length ? { warnings: health } : {}),
      options: approveOrDecline('Publish'),
      safeChoice: 'abort',
      ifStopped: `the draft of ${draft.name} ${draft.toVersion} stays a draft (kept for the resume, which asks again) and ${clusterName} keeps running what it runs now; nothing reaches it.`,
    });
    if (decision.choice !== 'approve') throw new StoppedError(`Declined: ${draft.name} ${draft.toVersion} was not published.`, { next: 'Resume when ready; the draft is kept and you will be asked again.' }, 'stopped.publish');

    const palette = ctx.effects.palette;
    await ctx.mutate({
      key: `${ctx.step.id}/publish`,
      request: publishRequest(draft.uid, `publish ${draft.name} ${draft.toVersion}`),
      approvedBy: gateKey,
      settle: async () => ((await palette.isPublished(draft.uid, draft.toVersion, { signal: ctx.signal })) ? 'done' : 'not-done'),
    });
    if (ctx.dryRun) return succeeded<PublishOutput>({ ...base, confirmed: 'rehearsal' }, `would publish ${draft.name} ${draft.toVersion} (rehearsal)`);
    if (!(await palette.isPublished(draft.uid, draft.toVersion, { signal: ctx.signal }))) {
      return failed(
        new StepFailedError('publish.not-confirmed', `The publish of ${draft.name} ${draft.toVersion} was accepted, but the profile does not show it published.`, {
          hint: 'Check the profile in Palette; resume to read it again (the publish is not sent twice).',
        }),
      );
    }
    return succeeded<PublishOutput>({ ...base, confirmed: 'published' }, `${draft.name} ${draft.toVersion} published`);
  },
});
