/**
 * What a recovery step did, read from what it journaled rather than from its output, so the report
 * is right even when the run stopped inside the step (at a restart gate, or killed): restarts sent
 * (the journal's mutations), skips and timings (its notes), restarts still awaiting approval (its
 * pending decisions). The journal keys are this module's business (see recover-context).
 */
import type { MutationRecord } from '../../engine/mutation.js';
import type { StepState } from '../../engine/state.js';
import { restartKeys } from './recover-context.js';
import type { RestartTiming } from './types.js';

export interface RecoverFacts {
  /** Restarts sent (or found sent after a crash), with when the request went out (wall clock). */
  restarted: Array<{ vm: string; sentAt: string }>;
  /** Rehearsal: restarts recorded, not sent. */
  wouldRestart: string[];
  skipped: string[];
  /** Plain mode stopped before these were approved. */
  awaiting: string[];
  timings: Map<string, RestartTiming>;
}

const suffix = (key: string, prefix: string, end = ''): string | undefined =>
  key.startsWith(prefix) && key.endsWith(end) && key.length > prefix.length + end.length ? key.slice(prefix.length, key.length - end.length) : undefined;

export function recoverFacts(step: StepState, mutations: Record<string, MutationRecord>): RecoverFacts {
  // The keys of a VM named "" give the prefixes every VM's keys share.
  const k = restartKeys(step.id, '');
  const facts: RecoverFacts = { restarted: [], wouldRestart: [], skipped: [], awaiting: [], timings: new Map() };
  for (const m of Object.values(mutations)) {
    if (m.stepId !== step.id) continue;
    const vm = suffix(m.key, k.gate, '/send');
    if (!vm || !m.outcome || m.outcome === 'failed') continue;
    if (m.outcome === 'recorded') facts.wouldRestart.push(vm);
    else facts.restarted.push({ vm, sentAt: m.intentAt });
  }
  for (const [key, value] of Object.entries(step.notes)) {
    const skipped = suffix(key, k.skipped);
    if (skipped) facts.skipped.push(skipped);
    const timed = suffix(key, k.timing);
    if (timed) facts.timings.set(timed, value as RestartTiming);
  }
  for (const [key, d] of Object.entries(step.decisions)) {
    const vm = suffix(key, k.gate);
    if (vm && d.choice === 'pending') facts.awaiting.push(vm);
  }
  return facts;
}
