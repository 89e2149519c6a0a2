/**
 * Sending a mutation that the API may defer. A 429 (or a 503 with Retry-After) means "not now":
 * the request was not applied. The gateway then waits as asked, reads the real state back through
 * the step's `settle` (so a change that did land after all is never sent twice), and sends again,
 * within a budget of sends and of waiting. Any other failure - above all an ambiguous one, a lost
 * answer - is not retried here: the journal keeps the intent, and resume settles it by reading.
 * Works for every mutation kind, whatever the executor, as long as its error carries
 * `retryAfterMs` and the step gave a `settle`.
 */
import { EnvironmentError, PilotError } from '../errors.js';
import type { Clock } from './clock.js';
import { formatDuration } from '../text/duration.js';

export interface DeferredBudget {
  /** Sends in all, the first included. */
  sends: number;
  /** Waiting in all, across the deferrals. */
  maxWaitMs: number;
}

export const DEFAULT_DEFERRED_BUDGET: DeferredBudget = { sends: 5, maxWaitMs: 120_000 };

/** How long the API asked to wait, when `err` says the request was deferred and not applied. */
export function deferredFor(err: unknown): number | undefined {
  if (!(err instanceof PilotError)) return undefined;
  const { retryAfterMs, mayHaveApplied } = err as PilotError & { retryAfterMs?: unknown; mayHaveApplied?: unknown };
  return typeof retryAfterMs === 'number' && Number.isFinite(retryAfterMs) && retryAfterMs >= 0 && mayHaveApplied !== true ? retryAfterMs : undefined;
}

export interface DeferredSend {
  summary: string;
  send: () => Promise<void>;
  settle: (() => Promise<'done' | 'not-done'>) | undefined;
  clock: Clock;
  signal: AbortSignal;
  budget?: DeferredBudget;
  /** Each deferral, before the wait (for the session log); `reason`: `429 Too Many Requests`. */
  onDeferred?: (info: { send: number; of: number; waitMs: number; reason: string }) => void;
}

/** Sends, resending after deferrals; `settled` when a read-back found the change already applied. */
export async function sendWithDeferrals(opts: DeferredSend): Promise<'sent' | 'settled'> {
  const budget = opts.budget ?? DEFAULT_DEFERRED_BUDGET;
  let waited = 0;
  for (let send = 1; ; send++) {
    try {
      await opts.send();
      return 'sent';
    } catch (err) {
      const waitMs = deferredFor(err);
      if (waitMs === undefined || !opts.settle) throw err;
      const status = (err as { status?: unknown }).status;
      const reason = typeof status === 'number' ? `${status}${status === 429 ? ' Too Many Requests' : status === 503 ? ' Service Unavailable' : ''}` : (err as PilotError).code;
      if (send >= budget.sends || waited + waitMs > budget.maxWaitMs) {
        if (send === 1) throw err;
        const e = err as PilotError;
        throw new EnvironmentError(e.code, `"${opts.summary}" was not applied: the API deferred it ${send} times in ${formatDuration(waited)} (last: ${e.message.replace(/\.$/, '')}).`, {
          hint: 'Nothing was applied. Resume later: the change is read back before it is sent again. If it persists, the API is rate limiting this key.',
          ...(e.where ? { where: e.where } : {}),
        });
      }
      opts.onDeferred?.({ send, of: budget.sends, waitMs, reason });
      await opts.clock.sleep(waitMs, opts.signal);
      waited += waitMs;
      if ((await opts.settle()) === 'done') return 'settled';
    }
  }
}
