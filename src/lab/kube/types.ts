/**
 * Contract between the lab's Kubernetes API server (src/lab/kube) and the world that fills it
 * (src/lab/world). The server owns HTTP, TLS, auth, discovery, selectors, paging and tables; the
 * world owns what the objects mean and reacts through the hooks.
 */

export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  creationTimestamp?: string;
  generateName?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: Array<Record<string, unknown>>;
  finalizers?: string[];
  generation?: number;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  [key: string]: unknown;
}

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A served resource type, as discovery describes it. */
export interface ResourceType {
  /** '' for the core group. */
  group: string;
  version: string;
  /** Plural, as in URLs: `virtualmachineinstances`. */
  resource: string;
  kind: string;
  singular: string;
  namespaced: boolean;
  shortNames?: string[];
  verbs: string[];
  /** e.g. `log` for pods, `restart` for VMs (served by the hooks). */
  subresources?: string[];
  /** Discovery categories, e.g. `all` (what `kubectl get all` expands to). */
  categories?: string[];
}

export interface ListOptions {
  namespace?: string;
  /** Kubernetes label selector syntax: `a=b,c!=d,e,!f,g in (x,y),h notin (z)`. */
  labelSelector?: string;
  /** Field selector syntax: `metadata.name=x,status.phase!=Running,spec.nodeName=n1`. */
  fieldSelector?: string;
}

/** The in-memory object store the server serves and the world mutates. */
export interface ResourceStoreApi {
  /** Creates or replaces; fills uid, resourceVersion and creationTimestamp when missing. */
  upsert(resource: string, obj: KubeObject): KubeObject;
  get(resource: string, namespace: string | undefined, name: string): KubeObject | undefined;
  list(resource: string, opts?: ListOptions): KubeObject[];
  /** Changes an object in place (bumps resourceVersion); undefined if it does not exist. */
  update(resource: string, namespace: string | undefined, name: string, mutate: (obj: KubeObject) => void): KubeObject | undefined;
  remove(resource: string, namespace: string | undefined, name: string): KubeObject | undefined;
  count(resource: string): number;
}

/** A Kubernetes `Status` failure to answer with. */
export interface KubeStatusError {
  code: number;
  reason: string;
  message: string;
  /** The Status `details` the apiserver adds, e.g. `{ name, group, kind }` for NotFound. */
  details?: StatusDetails;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  /** The resource (plural), as the apiserver fills it. */
  kind?: string;
  causes?: Array<{ reason?: string; message?: string; field?: string }>;
  retryAfterSeconds?: number;
}

export interface SubresourceRequest {
  resource: string;
  namespace: string | undefined;
  name: string;
  subresource: string;
  method: string;
  body: unknown;
}

export interface KubeLabHooks {
  /** The cluster's clock (the lab's simulated time), for the times the server writes (a deletionTimestamp). */
  now?(): number;
  /** Before a DELETE is applied; returning an error refuses it. */
  beforeDelete?(resource: string, obj: KubeObject): KubeStatusError | undefined;
  /** After a DELETE (e.g. a deleted migration cancels it). */
  afterDelete?(resource: string, obj: KubeObject): void;
  /** Subresources such as `virtualmachines/restart` (PUT, 202). Undefined = 404. */
  subresource?(req: SubresourceRequest): { status: number; body?: unknown } | KubeStatusError | undefined;
  /** Pod logs (`tailLines` already applied by the server if the hook returns all lines). */
  logs?(namespace: string, pod: string, opts: { container?: string }): string | undefined;
}
