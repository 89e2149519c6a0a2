/**
 * What the double's route handlers answer with: a refusal as a real Palette words it, and a JSON
 * body read against the route's schema (400 naming the field when it does not fit).
 */
import type { z } from 'zod';
import { describeIssues } from '../../palette/issues.js';
import type { ApiContext, ApiResult } from './route-types.js';
import { errorBody } from './http.js';

export const rejected = (ctx: ApiContext, status: number, code: string, message: string): ApiResult => ({ status, body: errorBody(code, message, ctx.ref), effect: 'rejected', note: message });

export function parseBody<S extends z.ZodType>(ctx: ApiContext, body: string, schema: S): { data: z.output<S> } | { error: ApiResult } {
  let json: unknown;
  try {
    json = JSON.parse(body || 'null');
  } catch {
    return { error: rejected(ctx, 400, 'BadRequest', 'The request body is not valid JSON') };
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? { data: parsed.data } : { error: rejected(ctx, 400, 'BadRequest', describeIssues(parsed.error.issues)) };
}
