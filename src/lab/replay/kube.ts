/**
 * The Kubernetes side of a replay: the lab's API server (TLS, discovery, selectors, paging, tables,
 * get, logs: src/lab/kube) over a store seeded with the captured objects, and the captured log
 * tails. A collection the lab does not serve, or an object it refuses, is left out and said.
 */
import type { CapturedAbsence, CapturedLog, KubeCollection } from '../../capture/types.js';
import { apiVersionOf, findServedType } from '../kube/kinds.js';
import type { ResourceStore } from '../kube/store.js';
import type { KubeLabHooks, KubeObject } from '../kube/types.js';

export interface SeedResult {
  /** Objects served, per collection key. */
  counts: Record<string, number>;
  /** What was left out, and why. */
  skipped: string[];
}

export function seedReplayStore(store: ResourceStore, resources: Record<string, KubeCollection>): SeedResult {
  const counts: Record<string, number> = {};
  const skipped: string[] = [];
  for (const [key, c] of Object.entries(resources)) {
    const type = findServedType(c.group, c.version, c.resource);
    if (!type) {
      skipped.push(`${key} (${c.group ? `${c.group}/` : ''}${c.version}): ${c.objects.length} object(s); the lab's API server does not serve this resource`);
      continue;
    }
    let n = 0;
    for (const obj of c.objects) {
      // A core list's items carry no kind: the collection says what they are.
      const full = { ...obj, apiVersion: typeof obj.apiVersion === 'string' ? obj.apiVersion : apiVersionOf(type), kind: typeof obj.kind === 'string' ? obj.kind : type.kind } as KubeObject;
      try {
        store.upsert(type.resource, full);
        n++;
      } catch (err) {
        skipped.push(`${key} ${full.metadata.namespace ? `${full.metadata.namespace}/` : ''}${full.metadata.name}: ${(err as Error).message}`);
      }
    }
    counts[key] = n;
  }
  return { counts, skipped };
}

/** Pod logs as captured: the container asked for, else the log read without a container name. */
export function replayLogs(logs: readonly CapturedLog[]): Required<Pick<KubeLabHooks, 'logs'>> {
  const byKey = new Map(logs.map((l) => [`${l.namespace}/${l.pod}/${l.container}`, l.text]));
  return { logs: (namespace, pod, { container }) => byKey.get(`${namespace}/${pod}/${container ?? ''}`) ?? byKey.get(`${namespace}/${pod}/`) ?? '' };
}

/** API groups the site did not have installed: their discovery document was not found when captured. */
export function absentGroups(absent: readonly CapturedAbsence[]): string[] {
  return absent.flatMap((a) => /^\/apis\/([^/?]+)$/.exec(a.path)?.[1] ?? []);
}
