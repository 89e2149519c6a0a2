/** A failed call as a red item: what happened, what to do, and whether it is the environment (exit 4). */
import { PilotError } from '../../errors.js';
import { red, type PreflightItem } from './types.js';

/** A missing profile or cluster is a wrong uid in the params, not an unreachable environment. */
const notEnvironment = new Set(['palette.not-found', 'kube.not-found']);

export function failedItem(id: string, title: string, err: unknown): PreflightItem {
  if (err instanceof PilotError) {
    const failure = notEnvironment.has(err.code) || err.kind === 'input' ? 'input' : err.kind === 'environment' ? 'environment' : 'failed';
    return red(id, title, err.message, failure, err.hint);
  }
  return red(id, title, err instanceof Error ? err.message : String(err), 'failed');
}

/** Runs a probe and times it; a throw becomes a red item. */
export async function timed(id: string, title: string, probe: () => Promise<PreflightItem>): Promise<PreflightItem> {
  const started = performance.now();
  let item: PreflightItem;
  try {
    item = await probe();
  } catch (err) {
    item = failedItem(id, title, err);
  }
  return { ...item, ms: Math.round(performance.now() - started) };
}
