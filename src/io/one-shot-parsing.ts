/**
 * zod 4 compiles a fast path for each object schema the first time it parses with it (code made
 * with `new Function`, then run). That pays from the second parse on: a session or a fleet parses
 * the same answers at every poll. A read-only command (verify, plan, diff) parses each schema about
 * once (its params, its runbook, a few profile API answers; the cluster's lists go through
 * fast-schema.ts, not zod), so the compiling is all cost: 10-20 ms of verify's start-up. Such a
 * command turns it off for its process; what is parsed, and every message, stays the same.
 */
import { z } from 'zod';

export function parseEachSchemaOnce(): void {
  z.config({ jitless: true });
}
