/**
 * Where a cluster's session stands against what it sent. Before its hop's change reaches the
 * cluster nothing moves there that the session did not ask for, and a stop leaves it as it was.
 * Once the change is applied (a real Palette: the apply that attaches the new versions; the spec's
 * service: a publish, which its clusters pick up by themselves) Palette rolls the packs out, KubeVirt
 * migrates the VMs and some wait for a restart: the hop is in motion until its own watch steps
 * (reconcile, migrations, diagnosis, recovery) have run. A fleet that halts carries such a cluster
 * to that point instead of leaving it mid-rollout, and says so when it is made to leave it. Pure.
 */
import { isPlaceholder, steps, type Entry, type SessionState, type StepState } from '../engine/state.js';

export interface Motion {
  /** The hop in motion (1-based) and how many the cluster climbs. */
  hop: number;
  of: number;
  /** `from → to` of that hop. */
  versions: string;
  /** When the change was applied (the step that applied it ended), wall clock. */
  appliedAt: string;
  /** Every step of that hop has run (the restarts too): the cluster is at a safe point. */
  settled: boolean;
  /** The rollout is still being watched: its reconcile or migration watch has not finished. Left now, it goes on unwatched. */
  rolling: boolean;
}

/** The steps that watch a change roll out (Palette's reconcile, KubeVirt's migrations): what is unwatched when left. */
const WATCHES = new Set(['reconcile', 'migrations']);

const finished = (s: StepState) => s.status === 'succeeded' || s.status === 'skipped';

function flavorOf(state: SessionState): string | undefined {
  const preflight = steps(state).find((s) => s.kind === 'preflight');
  return (preflight?.output as { flavor?: { flavor?: string } } | undefined)?.flavor?.flavor;
}

/** Whether this step, as it stands, put its hop's change on the cluster (or may have: an apply sent but not read back). */
function applied(state: SessionState, s: StepState, spec: boolean): boolean {
  if (state.meta.mode === 'rehearsal') return false;
  if (s.kind === 'apply') {
    const confirmed = (s.output as { confirmed?: string } | undefined)?.confirmed;
    if (s.status === 'succeeded') return confirmed !== 'rehearsal';
    // Sent and not read back (a crash or a stop in the middle): it may have reached Palette.
    return Object.values(state.mutations).some((m) => m.stepId === s.id);
  }
  if (s.kind === 'publish' && spec) return s.status === 'succeeded' && (s.output as { confirmed?: string } | undefined)?.confirmed === 'published';
  return false;
}

/** The latest hop whose change reached the cluster, and whether its watch has run; undefined when nothing was applied. */
export function motionOf(state: SessionState): Motion | undefined {
  const all = steps(state);
  const spec = flavorOf(state) === 'spec';
  const moving = all.filter((s) => s.hop && applied(state, s, spec)).at(-1);
  if (!moving?.hop) return undefined;
  const hop = moving.hop;
  const rest = all.filter((s) => s.hop?.index === hop.index && s.group === moving.group && all.indexOf(s) > all.indexOf(moving));
  return {
    hop: hop.index,
    of: hop.count,
    versions: `${hop.from} → ${hop.to}`,
    appliedAt: moving.endedAt ?? moving.startedAt ?? state.run.updatedAt,
    settled: finished(moving) && rest.every(finished),
    rolling: !finished(moving) || rest.some((s) => WATCHES.has(s.kind) && !finished(s)),
  };
}

/**
 * For a halting fleet (RunnerOptions.carry): whether the session still runs `next`. The steps of the
 * hop in motion run to their end (the rollout watched until reconciled, the migrations watched,
 * the restarts asked); once the whole ladder is climbed, what follows it runs too (verification and
 * the report), so the cluster ends done or failed with why. Nothing that starts a new change runs:
 * not the next hop, not a cluster whose change was never applied.
 */
export function carries(state: SessionState, next: Entry): boolean {
  if (isPlaceholder(next)) return false;
  const motion = motionOf(state);
  if (!motion) return false;
  if (next.hop) return next.hop.index === motion.hop && next.group !== undefined;
  // Past every hop: only when the last one is the one in motion and every hop step has run.
  const hopSteps = steps(state).filter((s) => s.hop);
  return motion.hop === motion.of && hopSteps.every(finished);
}

/** The flags that answer the gates the session waits at (plain mode records them with the stop: `Restart VM ns/x  (--approve-restart ns/x)`). */
export function waitingFlags(state: SessionState): string[] {
  const lines = steps(state).filter((s) => s.status === 'awaitingApproval').flatMap((s) => s.gate?.lines ?? []);
  return [...new Set(lines.flatMap((l) => /\((--[a-z-]+(?: [^()\s]+)?)\)\s*$/.exec(l)?.[1] ?? []))];
}
