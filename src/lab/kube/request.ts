/**
 * What a resource handler gets and gives back. Handlers are plain functions over the store and the
 * world's hooks; the server owns sockets, auth, faults and the audit log.
 */
import type { Reply } from './http.js';
import type { ResourceTarget } from './routes.js';
import type { ResourceStore } from './store.js';
import type { KubeLabHooks } from './types.js';

export interface KubeRequest {
  method: string;
  target: ResourceTarget;
  query: URLSearchParams;
  accept: string | undefined;
  contentType: string | undefined;
  body: Buffer;
}

export interface HandlerDeps {
  store: ResourceStore;
  hooks: KubeLabHooks;
}

export interface Handled {
  reply: Reply;
  /** For the audit log of mutating calls; the server derives `applied`/`rejected` from the status otherwise. */
  effect?: 'ignored';
  note?: string;
}
