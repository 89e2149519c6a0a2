/**
 * A real Palette's wait: the cluster object says how far the change has got. Done, as the terraform
 * provider decides it: every new version attached (found by its uid) with the planned pack tags, every pack of each
 * new version `Ready`/True, every cluster condition True. A pack in `Error` stops the step with the
 * pack and Palette's message; a node rebuild that waits for approval is asked for here too. The
 * latest events go to the live panel.
 */
import { StepFailedError } from '../../errors.js';
import { failed, skipped, succeeded, type StepResult } from '../../engine/step-kind.js';
import { packState, type ClusterDoc, type ClusterEvent } from '../../palette/cluster-types.js';
import { sanitizeText } from '../../text/sanitize.js';
import { currentHop } from '../contracts.js';
import type { PlannedProfile } from '../../domain/plan/planned-hop.js';
import type { DraftOutput } from './types.js';
import { writtenDrafts } from './draft-changes.js';
import type { HopContext } from './flavors/types.js';
import type { ClusterPanel, ReconcileLive, ReconcileOutput, ReconcileRow } from './types.js';
import { askRepave, repaveApproveKey } from './repave-gate.js';
import { wayBackHint } from './way-back-hint.js';
import { formatDuration } from '../../text/duration.js';

const EVENTS = 8;
const clean = (s: string | undefined, max = 300) => sanitizeText(s ?? '', { max });

interface Expected {
  plan: PlannedProfile;
  uid: string;
}

export function clusterRows(expected: Expected[], cluster: ClusterDoc): ReconcileRow[] {
  return expected.map(({ plan, uid }) => {
    const attached = cluster.profiles.find((p) => p.uid === uid);
    const byName = cluster.profiles.find((p) => p.name === plan.name);
    const base = { profile: plan.name, expected: `${plan.toVersion}: ${plan.packs.map((p) => `${p.name} ${p.to}`).join(', ') || 'no pack changes'}` };
    if (!attached) {
      return { ...base, deployed: byName?.version ?? 'not deployed', state: 'not-attached' as const, differences: [`${plan.toVersion} (uid ${uid}) is not attached to the cluster${byName ? `: it runs ${byName.version} (uid ${byName.uid})` : ''}`] };
    }
    const differences: string[] = [];
    // Matched by uid: that object is the new version. Its label (the cluster's, or the object's own
    // when the cluster leaves it empty) only says something when it is known and another.
    if (attached.version && attached.version !== plan.toVersion) differences.push(`version ${attached.version} (expected ${plan.toVersion})`);
    for (const p of plan.packs) {
      const have = attached.packs.find((k) => k.name === p.name);
      if (have?.tag !== p.to) differences.push(`${p.name} ${have?.tag ?? 'missing'} (expected ${p.to})`);
    }
    const packs = cluster.packs.filter((p) => p.profileUid === uid);
    if (packs.length === 0) differences.push('no pack reported yet');
    const errors = packs.filter((p) => packState(p.condition) === 'error');
    for (const p of errors) differences.push(`${p.name} ${p.version}: Error: ${clean(p.condition?.message || p.condition?.reason)}`);
    // Packs still going are the panel's to show, one line each; the row counts them.
    const going = packs.filter((x) => packState(x.condition) === 'progressing').length;
    if (going) differences.push(`${going} of ${packs.length} pack(s) still rolling out`);
    return { ...base, deployed: attached.version, state: errors.length ? ('error' as const) : differences.length ? ('waiting' as const) : ('matches' as const), differences };
  });
}

export function clusterPanel(cluster: ClusterDoc, expected: Expected[], events: ClusterEvent[], name: string): ClusterPanel {
  const names = new Map(expected.map((e) => [e.uid, e.plan]));
  return {
    cluster: name,
    state: clean(cluster.state, 40),
    packs: cluster.packs
      .filter((p) => names.has(p.profileUid))
      .map((p) => {
        const plan = names.get(p.profileUid)!;
        return { profile: plan.name, version: plan.toVersion, pack: clean(p.name, 80), tag: clean(p.version, 40), state: packState(p.condition), detail: clean([p.condition?.reason, p.condition?.message].filter(Boolean).join(': '), 200) };
      }),
    conditions: cluster.conditions.map((c) => ({ type: clean(c.type, 60), status: clean(c.status, 20), detail: clean([c.reason, c.message].filter(Boolean).join(': '), 200) })),
    events: events.map((e) => ({ at: clean(e.at, 40), severity: clean(e.severity, 20), reason: clean(e.reason, 60), message: clean(e.message, 300) })),
    ...(cluster.repave ? { repave: clean(cluster.repave, 20) } : {}),
  };
}

/** What holds the rollout back, as the cluster says it: each condition that is not True, with its reason. */
export function blockers(panel: Pick<ClusterPanel, 'conditions'>): string[] {
  return panel.conditions.filter((c) => c.status !== 'True').map((c) => `${c.type} ${c.status}${c.detail ? ` (${c.detail})` : ''}`);
}

/**
 * Says each blocker and event once, as it comes (plain mode prints the log; the TUI shows the panel):
 * an operator learns within one poll what holds the cluster, not at the time limit.
 */
export function newsOf(panel: ClusterPanel, said: Set<string>): Array<{ text: string; level: 'warn' | 'info' }> {
  const news: Array<{ text: string; level: 'warn' | 'info' }> = [];
  for (const b of blockers(panel)) {
    if (said.has(`c:${b}`)) continue;
    said.add(`c:${b}`);
    news.push({ text: `Held back: the cluster's condition ${b}`, level: 'warn' });
  }
  // Oldest first, so the log reads in the order things happened.
  for (const e of [...panel.events].reverse()) {
    const key = `e:${e.at}|${e.reason}|${e.message}`;
    if (said.has(key)) continue;
    said.add(key);
    news.push({ text: `Event ${e.at} ${e.severity} ${e.reason}: ${e.message}`, level: /warn|error/i.test(e.severity) ? 'warn' : 'info' });
  }
  return news;
}

/** The new version of each of the hop's profiles: the uid its draft was written to. */
function expectedOf(plans: PlannedProfile[], drafts: DraftOutput[]): Expected[] {
  return plans.map((plan) => ({ plan, uid: drafts.find((d) => d.role === plan.role)?.uid ?? plan.uid }));
}

export async function watchPaletteCluster(ctx: HopContext, params: { interval: number; timeout: number }): Promise<StepResult<ReconcileOutput>> {
  const hop = currentHop(ctx);
  if (!hop || hop.profiles.length === 0) return skipped('no profile changes in this hop');
  const site = ctx.site;
  if (!site) return skipped('no site parameters: the cluster is unknown');
  const expected = expectedOf(hop.profiles, writtenDrafts(ctx));
  const name = site.cluster.name ?? site.cluster.uid;
  if (ctx.dryRun) {
    const wouldWaitFor = expected.map((e) => `every pack of ${e.plan.name} ${e.plan.toVersion} (uid ${e.uid}) Ready on ${name}: ${e.plan.packs.map((k) => `${k.name} ${k.to}`).join(', ')}`);
    return succeeded<ReconcileOutput>({ rows: [], elapsedMs: 0, polls: 0, rehearsal: { wouldWaitFor } }, `would watch ${name} (up to ${formatDuration(params.timeout)}, every ${formatDuration(params.interval)}) until ${wouldWaitFor.join('; ')}`);
  }
  const { clock, palette } = ctx.effects;
  const back = () => wayBackHint(ctx);
  const started = clock.now();
  const said = new Set<string>();
  for (let polls = 1; ; polls++) {
    const cluster = await palette.getCluster(site.cluster.uid, { signal: ctx.signal });
    // Asked once per watch: after the approval, a rebuild still shown Pending is just waited for.
    if (cluster.repave === 'Pending' && !ctx.mutationDone(repaveApproveKey(ctx.step.id))) {
      await askRepave(ctx, cluster, ctx.step.id);
      continue;
    }
    // Events only inform the panel: a failed read of them never stops the watch.
    const events = await palette.listClusterEvents(site.cluster.uid, { limit: EVENTS, signal: ctx.signal }).catch(() => [] as ClusterEvent[]);
    const rows = clusterRows(expected, cluster);
    const panel = clusterPanel(cluster, expected, events, name);
    const elapsedMs = clock.now() - started;
    const out = { rows, elapsedMs, polls, cluster: panel };
    for (const n of newsOf(panel, said)) ctx.log(n.text, n.level);
    const broken = panel.packs.filter((p) => p.state === 'error');
    if (broken.length) {
      ctx.progress({ headline: `A pack failed on ${name}`, ...out, nextPollInMs: 0 } satisfies ReconcileLive);
      const first = broken[0]!;
      return failed(
        new StepFailedError('reconcile.pack-error', `${first.pack} ${first.tag} of ${first.profile} ${first.version} failed on ${name}: ${first.detail || 'Error (no message)'}.`, {
          hint: `Palette reports the pack in Error; look at the cluster's events in Palette, fix the cause, then resume to keep watching.${back() ? ` ${back()}` : ''}`,
        }),
        out,
      );
    }
    const conditionsTrue = cluster.conditions.every((c) => c.status === 'True');
    if (rows.every((r) => r.state === 'matches') && conditionsTrue) {
      ctx.progress({ headline: `${name} runs the new versions: every pack Ready`, ...out, nextPollInMs: 0 } satisfies ReconcileLive);
      return succeeded<ReconcileOutput>(out, `every pack of ${expected.map((e) => `${e.plan.name} ${e.plan.toVersion}`).join(' and ')} Ready after ${formatDuration(elapsedMs)} (${polls} poll(s))`);
    }
    const detached = rows.filter((r) => r.state === 'not-attached');
    if (detached.length) {
      return failed(
        new StepFailedError('reconcile.not-attached', `${detached.map((r) => r.differences[0]).join('; ')}: the cluster will never run it.`, {
          hint: 'Apply it (resume: the apply step asks again if it did not send), or check whether someone changed the cluster\'s profiles in Palette.',
        }),
        out,
      );
    }
    if (elapsedMs >= params.timeout) {
      const open = [...rows.flatMap((r) => r.differences.map((d) => `${r.profile}: ${d}`)), ...cluster.conditions.filter((c) => c.status !== 'True').map((c) => `condition ${clean(c.type, 60)} is ${clean(c.status, 20)}`)];
      return failed(
        new StepFailedError('reconcile.timeout', `After ${formatDuration(elapsedMs)} ${name} is still rolling out: ${open.slice(0, 5).join('; ')}.`, {
          hint: `Look at the latest events (on screen, or in Palette) and the platform agent; resume to keep watching.${back() ? ` ${back()}` : ''}`,
        }),
        out,
      );
    }
    const wait = Math.min(params.interval, params.timeout - elapsedMs);
    const ready = panel.packs.filter((p) => p.state === 'ready').length;
    const held = blockers(panel);
    ctx.progress({
      headline: `Applied; ${name} rolls out: ${ready}/${panel.packs.length} pack(s) Ready${held.length ? `, held back by ${held.join('; ')}` : ''} (${formatDuration(elapsedMs)} so far)`,
      ...out,
      nextPollInMs: wait,
    } satisfies ReconcileLive);
    await clock.sleep(wait, ctx.signal);
  }
}
