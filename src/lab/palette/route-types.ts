/**
 * What the lab Palette's route modules share: the context a handler gets, what it answers, a route.
 * Here so the route modules and the dispatcher (api-routes.ts) do not import each other.
 */
import type { AuditEntry } from '../audit.js';
import type { ProfileStore } from './store.js';
import type { ClusterShape, LabRegistry, PaletteDialect, PaletteLabHooks } from './types.js';

export interface ApiContext {
  store: ProfileStore;
  hooks: PaletteLabHooks;
  dialect: PaletteDialect;
  ref: string;
  /** The `ignorePut` fault: accept the PUT, store nothing. */
  ignorePut: boolean;
  /** The pack registries the double serves (a real Palette checks a changed pack's version against them). */
  registries: readonly LabRegistry[];
  /** How the cluster object is rendered (a scenario's quirk of a real Palette). */
  clusterShape?: ClusterShape;
}

export interface ApiResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  effect: AuditEntry['effect'];
  note?: string;
  /** Set by `dispatch`: the route only reads (a POST search), so the audit of mutations leaves it out. */
  read?: boolean;
  /** Set by `dispatch`: no route has this path (404) or this method on it (405): a call the API does not have. */
  unknownRoute?: boolean;
}

export type Handler = (ctx: ApiContext, params: string[], body: string, query: URLSearchParams) => ApiResult;

export interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
  /** A POST that only reads (Palette's filtered lists). */
  read?: boolean;
}
