/**
 * `fleet status`: where every stage and cluster stands, the run's approvals, and what to do next,
 * with an exit code a script can act on: 0 every stage done; 1 a stage or a cluster failed; 3 not
 * finished (waiting at a gate, stopped, unwatched, still to run, or running now). Pure.
 */
import { ExitCode } from '../errors.js';
import { approvalsText, stagePolicyText } from './approvals.js';
import { isSettled } from './state.js';
import type { ClusterState, FleetState, StageState } from './types.js';

export interface StatusContext {
  /** `--fleet FILE [--state-dir DIR]`, as it works when pasted. */
  fleetFlags: string;
  /** A coordinator running the fleet now (it holds the fleet's lock). */
  running?: { pid: number; host: string; since: string };
}

export interface FleetStatus {
  lines: string[];
  code: ExitCode;
  /** The command to run next, whole (also the last line). */
  next: string;
}

const hhmm = (iso: string) => `${iso.slice(11, 16)} UTC`;
const up = (words: string) => `upgrade-pilot fleet ${words}`;

function stageWords(st: StageState, waiting: boolean): string {
  if (waiting) return 'waits for its approval (the gate `stage`)';
  if (st.halting && st.status === 'running') return `halting (${st.halting.why}): nothing new starts${st.halting.carrying.length ? `; ${st.halting.carrying.join(', ')} watched to a safe point` : ''}`;
  if (st.soak && st.status !== 'stopped') return `soaking until ${hhmm(st.soak.untilWall)}`;
  if (st.soak) return `stopped in its soak (until ${hhmm(st.soak.untilWall)}; resume soaks what is left)`;
  return st.status;
}

function clusterLine(c: ClusterState): string {
  const what = c.unwatched
    ? `: applied (hop ${c.unwatched.hop} of ${c.unwatched.of}, ${c.unwatched.versions}), rollout continues unwatched since ${hhmm(c.unwatched.since)}`
    : c.skipReason
      ? ` skipped: ${c.skipReason}`
      : c.message
        ? `: ${c.message}`
        : '';
  const flags = c.status === 'gate' && c.gateFlags?.length ? ` (answered by ${c.gateFlags.join(' ')})` : '';
  return `    ${c.name.padEnd(16)} ${c.status.padEnd(9)}${c.session ? ` session ${c.session}` : ''}${what}${flags}${c.unhealthy ? `; unhealthy in the soak: ${c.unhealthy.join('; ')}` : ''}`;
}

/** The stage whose own gate waits: the first stage not done, not started, that asks for approval it has not had. */
function stageAwaitingApproval(s: FleetState): StageState | undefined {
  const next = s.stages.find((st) => st.status !== 'done');
  return next && next.status === 'pending' && next.approval && !next.approvedBy ? next : undefined;
}

function approvalLines(s: FleetState): string[] {
  if (!s.approvals) return ['  approvals: not recorded (a journal from before they were kept): each resume uses its own flags'];
  const start = s.runs[0];
  const lines = [`  approvals of the run: ${approvalsText(s.approvals)}${start ? ` (start by ${start.by} at ${hhmm(start.at)}${s.runs.length > 1 ? `, ${s.runs.length - 1} run(s) since` : ''})` : ''}`];
  for (const r of s.runs.slice(1)) {
    if (r.added.length || r.revoked.length) lines.push(`    ${r.command} by ${r.by} at ${hhmm(r.at)}:${r.added.length ? ` added ${r.added.join(' ')}` : ''}${r.revoked.length ? ` revoked ${r.revoked.join(', ')}` : ''}`);
  }
  return lines;
}

/** What to run next, and the exit code that goes with where the fleet stands. */
function nextStep(s: FleetState, ctx: StatusContext): { code: ExitCode; next: string } {
  const flags = ctx.fleetFlags;
  if (ctx.running) {
    const failed = s.clusters.some((c) => c.status === 'failed') || s.stages.some((st) => st.status === 'failed');
    return { code: failed ? ExitCode.failed : ExitCode.gate, next: `it runs now (pid ${ctx.running.pid} on ${ctx.running.host} since ${hhmm(ctx.running.since)}): \`${up(`status ${flags}`)}\` again, or \`${up(`stop ${flags}`)}\` to halt it` };
  }
  const failed = s.clusters.filter((c) => c.status === 'failed');
  const failedStage = s.stages.find((st) => st.status === 'failed');
  if (failed.length || failedStage) {
    const names = failed.map((c) => c.name);
    const unhealthy = s.clusters.filter((c) => c.unhealthy?.length).map((c) => c.name);
    const next = names.length
      ? `\`${up(`retry ${names[0]} ${flags}`)}\` (once its cause is fixed) or \`${up(`skip ${names[0]} --reason TEXT ${flags}`)}\`${names.length > 1 ? ` (and ${names.slice(1).join(', ')})` : ''}, then \`${up(`resume ${flags}`)}\``
      : unhealthy.length
        ? `fix ${unhealthy.join(', ')}, then \`${up(`resume ${flags}`)}\` soaks the stage again`
        : `\`${up(`resume ${flags}`)}\``;
    return { code: ExitCode.failed, next };
  }
  if (s.stages.every((st) => st.status === 'done') && s.clusters.every(isSettled)) return { code: ExitCode.ok, next: `\`${up(`report ${flags}`)}\` writes the fleet report` };
  const gateFlags = [...new Set(s.clusters.filter((c) => c.status === 'gate').flatMap((c) => c.gateFlags ?? []))];
  const stage = stageAwaitingApproval(s);
  const extra = [...(stage ? ['--approve stage'] : []), ...gateFlags];
  const unwatched = s.clusters.filter((c) => c.status === 'unwatched').map((c) => c.name);
  const why = unwatched.length ? ` (it watches ${unwatched.join(', ')} again first)` : extra.length ? ' (after reading what each gate asks)' : '';
  return { code: ExitCode.gate, next: `\`${up(`resume ${flags}${extra.length ? ` ${extra.join(' ')}` : ''}`)}\`${why}` };
}

export function fleetStatus(s: FleetState, ctx: StatusContext): FleetStatus {
  const lines = [`fleet ${s.fleet} to ${s.target}${s.stopped ? ` · stopped ${hhmm(s.stopped.at)} (${s.stopped.reason}${s.stopped.by ? `, ${s.stopped.by}` : ''})` : ''}`];
  lines.push(...approvalLines(s));
  const awaiting = stageAwaitingApproval(s);
  for (const st of s.stages) {
    lines.push(`  stage ${st.name}: ${stageWords(st, st === awaiting)}${st.message ? ` (${st.message})` : ''}`);
    lines.push(`    policy: ${stagePolicyText(st, s.approvals?.revoked ?? [])}${st.approvedBy ? `; approved by ${st.approvedBy}` : ''}`);
    for (const c of s.clusters.filter((x) => x.stage === st.name)) lines.push(clusterLine(c));
  }
  for (const l of s.leftOut) lines.push(`  left out: ${l.name}: ${l.reason}`);
  const { code, next } = nextStep(s, ctx);
  lines.push(`next: ${next}`);
  return { lines, code, next };
}
