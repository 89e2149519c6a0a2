import { z } from 'zod';
import { MAX_TIMER_MS, parseDuration } from './duration.js';

/**
 * A zod schema for durations written as `30s`, `5m`, `4h` or seconds; the output is milliseconds.
 * Every duration here is a time-out, an interval or a budget: zero (an instant time-out, a busy
 * poll) and anything beyond a timer's reach are refused with the field named.
 */
export const Duration = z
  .union([z.string(), z.number()])
  .transform((v, ctx) => {
    const ms = parseDuration(v);
    const shown = JSON.stringify(v).slice(0, 40);
    if (ms === undefined) {
      ctx.addIssue({ code: 'custom', message: `expected a duration such as 30s, 5m or 4h, got ${shown}` });
      return z.NEVER;
    }
    if (ms < 1) {
      ctx.addIssue({ code: 'custom', message: `expected a duration above zero (such as 30s, 5m or 4h), got ${shown}` });
      return z.NEVER;
    }
    if (ms > MAX_TIMER_MS) {
      ctx.addIssue({ code: 'custom', message: `expected a duration of at most 596h (about 24.8 days, the longest a timer can wait), got ${shown}` });
      return z.NEVER;
    }
    return Math.round(ms);
  });
