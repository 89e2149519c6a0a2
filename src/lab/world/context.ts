/**
 * What every part of the world shares: the simulated clock, the object store the Kubernetes double
 * serves, seeded randomness, pod logs and events, and who the cluster is.
 */
import { kubeTimestamp } from '../kube/store.js';
import type { KubeObject, ResourceStoreApi } from '../kube/types.js';
import type { SimClock } from '../sim-clock.js';
import type { PodLogs } from './logs.js';
import type { Random } from './random.js';

export interface ClusterIdentity {
  uid: string;
  name: string;
  /** Namespace of Palette's agent: `cluster-<uid>`. */
  agentNamespace: string;
}

export interface WorldContext {
  clock: SimClock;
  store: ResourceStoreApi;
  rng: Random;
  logs: PodLogs;
  cluster: ClusterIdentity;
}

let lastSecond = -1;
let lastStamp = '';

/** Now, as Kubernetes writes timestamps (whole seconds; the last one is reused while it lasts). */
export function nowStamp(ctx: Pick<WorldContext, 'clock'>): string {
  const second = Math.floor(ctx.clock.now() / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    lastStamp = kubeTimestamp(second * 1000);
  }
  return lastStamp;
}

const maxEvents = 3000;

/** A Kubernetes Event object about `about`, stamped now. */
function eventObject(ctx: WorldContext, about: KubeObject, name: string, type: 'Normal' | 'Warning', reason: string, message: string, component: string): KubeObject {
  const stamp = nowStamp(ctx);
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: about.metadata.namespace ?? 'default' },
    involvedObject: { apiVersion: about.apiVersion, kind: about.kind, name: about.metadata.name, namespace: about.metadata.namespace, uid: about.metadata.uid },
    reason,
    message,
    type,
    source: { component },
    reportingComponent: component,
    firstTimestamp: stamp,
    lastTimestamp: stamp,
    count: 1,
  };
}

/**
 * An event the kubelet keeps repeating (BackOff while a container crash-loops): one object per
 * subject and reason, its count and lastTimestamp bumped, as the apiserver's event aggregation does.
 */
export function recordRepeatingEvent(ctx: WorldContext, about: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string, component: string): void {
  const name = `${about.metadata.name}.${reason.toLowerCase()}`;
  const bumped = ctx.store.update('events', about.metadata.namespace ?? 'default', name, (e) => {
    e.count = Number(e.count ?? 1) + 1;
    e.lastTimestamp = nowStamp(ctx);
    e.message = message;
  });
  if (!bumped) ctx.store.upsert('events', eventObject(ctx, about, name, type, reason, message, component));
}

/**
 * Records a Kubernetes Event about an object (what `kubectl describe` and `get events` show).
 * Old events are dropped past a bound, as the apiserver's TTL would.
 */
export function recordEvent(ctx: WorldContext, about: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string, component: string): void {
  ctx.store.upsert('events', eventObject(ctx, about, `${about.metadata.name}.${ctx.rng.hex(16)}`, type, reason, message, component));
  // Pruned in chunks so a busy world does not sort the list on every event
  if (ctx.store.count('events') > maxEvents + 500) {
    const all = ctx.store.list('events').sort((a, b) => String(a.lastTimestamp).localeCompare(String(b.lastTimestamp)));
    for (const e of all.slice(0, all.length - maxEvents)) ctx.store.remove('events', e.metadata.namespace, e.metadata.name);
  }
}
