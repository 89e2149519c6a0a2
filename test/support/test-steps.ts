/**
 * A test-only set of step kinds that exercises the engine without any API: plain steps, a step that
 * emits hops, gated mutations, VM-restart style per-item gates, failures and slow steps.
 */
import { z } from 'zod';
import { EnvironmentError, StepFailedError, StoppedError } from '../../src/errors.js';
import { defineStepKind, failed, skipped, StepRegistry, succeeded } from '../../src/engine/step-kind.js';
import { approveOrDecline, restartOptions } from '../../src/engine/gate.js';

const noop = defineStepKind({
  kind: 'noop',
  title: 'Do nothing',
  description: 'Succeeds with a counter output',
  params: z.strictObject({ value: z.number().default(1), skip: z.string().optional() }),
  async run(ctx) {
    if (ctx.params.skip) return skipped(ctx.params.skip);
    return succeeded({ value: ctx.params.value, hop: ctx.step.hop?.index ?? null }, `value ${ctx.params.value}`);
  },
  async precondition(ctx) {
    const drift = (ctx.site?.extra as { drift?: string } | undefined)?.drift;
    return drift ? [drift] : [];
  },
});

const emitHops = defineStepKind({
  kind: 'emit-hops',
  title: 'Plan hops',
  description: 'Outputs the hops given in params',
  params: z.strictObject({ hops: z.array(z.strictObject({ from: z.string(), to: z.string() })).default([]) }),
  async run(ctx) {
    return succeeded({ hops: ctx.params.hops }, `${ctx.params.hops.length} hop(s)`);
  },
});

const gatedWrite = defineStepKind({
  kind: 'gated-write',
  title: 'Write something',
  description: 'Asks at the `draft` gate, then sends one palette mutation',
  gate: 'draft',
  params: z.strictObject({ path: z.string().default('/v1/clusterprofiles/p1'), confirmText: z.string().optional(), wantAnswer: z.boolean().default(false) }),
  async run(ctx) {
    const decision = await ctx.confirm({
      gate: 'draft',
      title: `Write draft ${ctx.params.path}`,
      lines: ['Writes a draft of the profile. Clusters are not affected until it is published.'],
      options: approveOrDecline('Write draft'),
      safeChoice: 'abort',
      ...(ctx.params.confirmText ? { confirmText: ctx.params.confirmText } : {}),
    });
    if (decision.choice !== 'approve') throw new StepFailedError('test.declined', 'declined by the operator');
    const key = `${ctx.step.id}/put`;
    const answers: unknown[] = [];
    const outcome = await ctx.mutate({
      key,
      request: { target: 'palette', method: 'PUT', path: ctx.params.path, body: { spec: { version: '1.2.3' } }, summary: `write ${ctx.params.path}` },
      approvedBy: `${ctx.step.id}/draft`,
      settle: async () => ((ctx.effects.palette as unknown as { applied?: Set<string> }).applied?.has(ctx.params.path) ? 'done' : 'not-done'),
      ...(ctx.params.wantAnswer ? { onAnswer: (answer: unknown) => answers.push(answer) } : {}),
    });
    return succeeded({ outcome, ...(ctx.params.wantAnswer ? { answers } : {}) }, `draft written (${outcome})`);
  },
});

const restartEach = defineStepKind({
  kind: 'restart-each',
  title: 'Restart VMs',
  description: 'One restart gate per VM; approved ones are restarted, pending ones stop the run',
  params: z.strictObject({ vms: z.array(z.string()).default([]) }),
  async run(ctx) {
    const restarted: string[] = [];
    const skippedVms: string[] = [];
    const pending: Array<{ gate: string; title: string; flag: string }> = [];
    for (const vm of ctx.params.vms) {
      const key = `${ctx.step.id}/restart/${vm}`;
      if (ctx.mutationDone(key)) {
        restarted.push(vm);
        continue;
      }
      const [namespace, name] = vm.split('/') as [string, string];
      const d = await ctx.confirm(
        { gate: 'restart', key: `${key}/gate`, title: `Restart VM ${vm}`, lines: ['The VM is unavailable while it restarts.'], options: restartOptions, safeChoice: 'skip', subject: { namespace, name } },
        { deferIfPending: true },
      );
      if (d.choice === 'pending') {
        pending.push({ gate: 'restart', title: `restart ${vm}`, flag: `--approve-restart ${vm}` });
        continue;
      }
      if (d.choice === 'abort') return failed(new StepFailedError('test.aborted', 'recovery aborted'), { restarted, skipped: skippedVms });
      if (d.choice === 'skip') {
        skippedVms.push(vm);
        ctx.note(`skipped/${vm}`, true);
        continue;
      }
      await ctx.mutate({ key, request: { target: 'kube', program: 'kubectl', argv: ['replace', '--raw', `/restart/${vm}`, '-f', '-'], stdin: '{}', summary: `restart ${vm}` }, approvedBy: `${key}/gate` });
      restarted.push(vm);
    }
    if (pending.length) {
      const { GateStopError } = await import('../../src/errors.js');
      throw new GateStopError(pending, ctx.sessionId);
    }
    return succeeded({ restarted, skipped: skippedVms });
  },
});

const failing = defineStepKind({
  kind: 'fail',
  title: 'Fail',
  description: 'Always fails (`environment`: as an unreachable API does)',
  params: z.strictObject({ message: z.string().default('it failed'), environment: z.boolean().default(false) }),
  async run(ctx) {
    if (ctx.params.environment) throw new EnvironmentError('test.unreachable', ctx.params.message, { hint: 'check the network and resume' });
    throw new StepFailedError('test.failed', ctx.params.message, { hint: 'fix it and resume' });
  },
});

/** The health gate's shape: approving goes on despite a problem, so a stop there says what to fix first; declining stops the run (the operator's stop). */
const unwell = defineStepKind({
  kind: 'unwell',
  title: 'Check health',
  description: 'Asks at the `health` gate; declined, the run stops',
  gate: 'health',
  params: z.strictObject({}),
  async run(ctx) {
    const fix = 'Fix the red checks, then start again.';
    const decision = await ctx.confirm({ gate: 'health', title: 'cluster-1 is not healthy: upgrade it anyway?', lines: ['Preflight found 1 problem(s) in 1 red check(s).'], options: approveOrDecline('Upgrade anyway'), safeChoice: 'abort', fix });
    if (decision.choice !== 'approve') throw new StoppedError('Stopped before any change: the upgrade of cluster-1 while it is not healthy was declined (Nodes).', { fix, next: 'Or resume and approve the health gate.' }, 'stopped.health');
    return succeeded({ healthy: false }, 'went on knowingly');
  },
});

/** The customizations review's answer: an informational gate whose "Stop here" stops the run (boxed here: the review's own screen is the customize step's). */
const review = defineStepKind({
  kind: 'review',
  title: 'Review',
  description: 'An informational gate: continue, or stop here',
  params: z.strictObject({}),
  async run(ctx) {
    const answer = await ctx.confirm({
      gate: 'customize',
      title: 'Review the values',
      lines: ['Nothing is approved by answering.'],
      options: [
        { choice: 'approve', label: 'Continue with these values', key: 'c' },
        { choice: 'abort', label: 'Stop here (session saved)', key: 's' },
      ],
      safeChoice: 'approve',
      informational: true,
    });
    if (answer.choice === 'abort') throw new StoppedError('Stopped at the review ("Stop here").', { next: 'Resume to review again.' }, 'stopped.review');
    return succeeded({ reviewed: true });
  },
});

const slow = defineStepKind({
  kind: 'slow',
  title: 'Wait',
  description: 'Waits, publishing progress',
  params: z.strictObject({ ms: z.number().default(50), ticks: z.number().default(3) }),
  async run(ctx) {
    for (let i = 1; i <= ctx.params.ticks; i++) {
      ctx.progress({ headline: `tick ${i}/${ctx.params.ticks}` });
      await ctx.effects.clock.sleep(ctx.params.ms, ctx.signal);
    }
    return succeeded({ ticks: ctx.params.ticks });
  },
});

/** `slow` as a step that only polls (the reconcile wait): a stop-after-step request ends it at its next poll. */
const watch = defineStepKind({ ...slow, kind: 'watch', title: 'Watch', description: 'Polls, publishing progress; sends nothing', pollsOnly: true });

export function testSteps(): StepRegistry {
  return new StepRegistry().register(noop, emitHops, gatedWrite, restartEach, failing, slow, watch, unwell, review);
}
