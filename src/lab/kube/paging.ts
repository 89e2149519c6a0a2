/**
 * `limit` / `continue` paging. The continue token is opaque to clients, like the apiserver's: here
 * base64url JSON naming the resource and the last key served, so the next page starts after it even
 * when objects were added or removed in between (the order is the stable etcd-style key order).
 */
import { KubeStatusException, badRequest } from './status.js';

interface ContinueState {
  v: 1;
  /** The resource and scope the token was issued for; a token is refused elsewhere. */
  r: string;
  /** Last key served. */
  k: string;
}

export interface Page<T> {
  items: T[];
  /** Token for the next page; absent on the last page. */
  continue?: string;
  /** Items after this page. */
  remaining?: number;
}

export function encodeContinue(scope: string, lastKey: string): string {
  const state: ContinueState = { v: 1, r: scope, k: lastKey };
  return Buffer.from(JSON.stringify(state)).toString('base64url');
}

export function decodeContinue(token: string, scope: string): string {
  let state: Partial<ContinueState>;
  try {
    state = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Partial<ContinueState>;
  } catch {
    throw new KubeStatusException(badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)'));
  }
  if (state?.v !== 1 || typeof state.k !== 'string') throw new KubeStatusException(badRequest('continue key is not valid: unrecognized continue token'));
  if (state.r !== scope) throw new KubeStatusException(badRequest('continue key is not valid: the token was issued for a different request'));
  return state.k;
}

/** Index of the first item whose key is greater than `key` (items are in key order). */
function firstAfter<T extends { key: string }>(items: readonly T[], key: string): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (items[mid]!.key <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface PageRequest {
  /** Identifies the list being paged (resource, namespace and selectors). */
  scope: string;
  limit?: number;
  continueToken?: string;
}

export function paginate<T extends { key: string }>(sortedItems: readonly T[], req: PageRequest): Page<T> {
  const start = req.continueToken ? firstAfter(sortedItems, decodeContinue(req.continueToken, req.scope)) : 0;
  const limit = req.limit !== undefined && req.limit > 0 ? req.limit : Infinity;
  const end = Math.min(sortedItems.length, start + limit);
  const items = sortedItems.slice(start, end);
  if (end >= sortedItems.length || items.length === 0) return { items };
  return { items, continue: encodeContinue(req.scope, items[items.length - 1]!.key), remaining: sortedItems.length - end };
}

/** Parses `limit`; the apiserver treats garbage as 400 and a non-positive limit as "no limit". */
export function parseLimit(raw: string | null): number | undefined {
  if (raw === null || raw === '') return undefined;
  if (!/^-?\d+$/.test(raw)) throw new KubeStatusException(badRequest(`limit: Invalid value: "${raw}": must be an integer`));
  const n = Number(raw);
  return n > 0 ? n : undefined;
}
