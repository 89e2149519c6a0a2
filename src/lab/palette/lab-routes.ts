/**
 * Lab-only control routes built into the double: the audit log (`GET /_lab/audit`) and the fault
 * plan (`GET|POST /_lab/faults`). The lab assembly adds its own (`/_lab/token`, `/_lab/clock`).
 */
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import type { AuditEntry, AuditLog } from '../audit.js';
import type { FaultPlan } from '../faults.js';
import { describeIssues } from '../../palette/issues.js';
import type { LabRouteHandler, LabRouteResult } from './types.js';

const RouteFaults = z.strictObject({
  latencyMs: z.number().nonnegative().optional(),
  errorRate: z.number().min(0).max(1).optional(),
  rateLimit: z.strictObject({ burst: z.number().int().positive(), every: z.number().int().positive(), retryAfterSeconds: z.number().nonnegative(), status: z.union([z.literal(429), z.literal(503)]).optional() }).optional(),
  dropRate: z.number().min(0).max(1).optional(),
  ignorePut: z.boolean().optional(),
  hang: z.boolean().optional(),
  loseAnswer: z.boolean().optional(),
  unserved: z.union([z.literal(404), z.literal(405)]).optional(),
});
const Rules = z.array(z.strictObject({ route: z.string().min(1), faults: RouteFaults }));
/** Either the rules alone, or `{rules, seed}` to make a run's fault sequence repeatable. */
const FaultsBody = z.union([Rules, z.strictObject({ rules: Rules, seed: z.number().int().optional() })]);

const bad = (message: string): LabRouteResult => ({ status: 400, body: { code: 'BadRequest', message } });

export function builtInLabRoutes(audit: AuditLog, faults: FaultPlan): Record<string, LabRouteHandler> {
  return {
    'GET /_lab/audit': (req: IncomingMessage) => {
      const query = new URL(req.url ?? '/', 'http://lab').searchParams;
      const filter: Partial<Pick<AuditEntry, 'api' | 'method' | 'effect'>> = {};
      const api = query.get('api');
      const method = query.get('method');
      const effect = query.get('effect');
      if (api === 'palette' || api === 'kube') filter.api = api;
      if (method) filter.method = method.toUpperCase();
      if (effect === 'applied' || effect === 'ignored' || effect === 'rejected' || effect === 'dropped') filter.effect = effect;
      return { status: 200, body: audit.entries(filter) };
    },
    'GET /_lab/faults': () => ({ status: 200, body: faults.list() }),
    'POST /_lab/faults': (_req, body) => {
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        return bad('The request body is not valid JSON');
      }
      const parsed = FaultsBody.safeParse(json);
      if (!parsed.success) return bad(describeIssues(parsed.error.issues));
      const { rules, seed } = Array.isArray(parsed.data) ? { rules: parsed.data, seed: undefined } : parsed.data;
      faults.set(rules, seed);
      return { status: 200, body: faults.list() };
    },
  };
}
