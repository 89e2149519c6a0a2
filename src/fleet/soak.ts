/**
 * A stage's soak: after its clusters are done, the fleet waits `soak` before the next stage starts,
 * re-reading each cluster's health at the start, every SOAK_CHECK_EVERY_MS and at the end (GKE's
 * rollout sequencing soaks a fleet before the next; Azure Fleet waits after a stage). A cluster that
 * turns unhealthy fails the stage at once, named with its evidence. The end is a time of the fleet's
 * clock (the lab's accelerated one against the lab), journaled when the soak starts, so a resume
 * after a crash soaks only what is left.
 */
import type { Clock } from '../engine/clock.js';
import { InterruptedError } from '../errors.js';

export interface SoakHealthResult {
  healthy: boolean;
  /** One line per problem, with its evidence. */
  evidence: string[];
  /** Areas that could not be read (said, not judged). */
  unread?: string[];
}

/** Reads one cluster's health now. */
export type SoakHealth = (cluster: { name: string; paramsFile: string }, signal: AbortSignal) => Promise<SoakHealthResult>;

/** How often each cluster's health is read during a soak ("every few minutes"), in the fleet clock's time. */
export const SOAK_CHECK_EVERY_MS = 5 * 60_000;

export interface SoakRequest {
  clusters: ReadonlyArray<{ name: string; paramsFile: string }>;
  /** When the soak ends, in `clock`'s time. */
  until: number;
  clock: Clock;
  signal: AbortSignal;
  health: SoakHealth;
  every?: number;
  onCheck?(cluster: string, result: SoakHealthResult): void;
}

export type SoakOutcome = { kind: 'done'; checks: number } | { kind: 'unhealthy'; cluster: string; evidence: string[] } | { kind: 'interrupted' };

export async function soak(req: SoakRequest): Promise<SoakOutcome> {
  const every = req.every ?? SOAK_CHECK_EVERY_MS;
  let checks = 0;
  try {
    for (;;) {
      // One cluster at a time: a soak is long, and its reads should not crowd the clusters still upgrading.
      for (const c of req.clusters) {
        let result: SoakHealthResult;
        try {
          result = await req.health(c, req.signal);
        } catch (err) {
          if (req.signal.aborted) throw new InterruptedError();
          result = { healthy: false, evidence: [`its health could not be read: ${err instanceof Error ? err.message : String(err)}`] };
        }
        req.onCheck?.(c.name, result);
        if (!result.healthy) return { kind: 'unhealthy', cluster: c.name, evidence: result.evidence };
      }
      checks += 1;
      const left = req.until - req.clock.now();
      if (left <= 0) return { kind: 'done', checks };
      await req.clock.sleep(Math.min(every, left), req.signal);
    }
  } catch (err) {
    if (err instanceof InterruptedError || req.signal.aborted) return { kind: 'interrupted' };
    throw err;
  }
}
