/**
 * Fetches what the checks need, once per round: a fixed number of list calls whatever the size of
 * the cluster, run concurrently within the runner's limit. Lost credentials or an unreachable
 * cluster stop the round (exit 4); any other failed read makes the checks that needed it unknown.
 */
import { PilotError } from '../../errors.js';
import type { CheckSpec } from '../check-schema.js';
import { isKubeError } from '../errors.js';
import { OptionalList, type ClusterReader } from '../reader.js';
import type { Pod } from '../schemas.js';
import type { DeployedProfileView, Fetched, VerifyData } from './verify-data.js';

export interface GatherSources {
  reader: ClusterReader;
  /** The cluster's profiles read (profile API). */
  profiles: () => Promise<DeployedProfileView[]>;
}

/** A cluster that cannot be read at all (credentials, TLS, the network, the access file): the round stops (exit 4, or 2 for a bad context). */
const fatal = (err: unknown) =>
  isKubeError(err, 'credentials') ||
  isKubeError(err, 'credential-plugin') ||
  isKubeError(err, 'tls') ||
  isKubeError(err, 'unreachable') ||
  isKubeError(err, 'no-kubectl') ||
  isKubeError(err, 'config') ||
  (err instanceof PilotError && err.kind === 'environment' && !isKubeError(err));

async function fetched<T>(load: () => Promise<T>): Promise<Fetched<T>> {
  const start = Date.now();
  try {
    const value = await load();
    // A list of an optional API group: its items, and the note when the group is not installed.
    if (value instanceof OptionalList) return { ok: true, value: value.items as T, ms: Date.now() - start, ...(value.notInstalled ? { note: value.notInstalled } : {}) };
    return { ok: true, value, ms: Date.now() - start };
  } catch (err) {
    if (fatal(err)) throw err;
    return { ok: false, reason: err instanceof Error ? err.message : String(err), ms: Date.now() - start };
  }
}

const NOT_RUNNING = 'status.phase!=Running,status.phase!=Succeeded';
/** Crash-looping containers keep their pod Running; the kubelet's BackOff warnings find them in one call. */
const BACK_OFF = 'reason=BackOff,type=Warning,involvedObject.kind=Pod';
/** At most this many flagged pods are read back per round: the cost never follows the cluster's size. */
const BACK_OFF_READ_LIMIT = 20;

export async function backOffPods(reader: ClusterReader): Promise<Pod[]> {
  const events = await reader.events({ fieldSelector: BACK_OFF });
  const keys = [...new Set(events.map((e) => `${e.involvedObject.namespace ?? e.metadata.namespace ?? ''}/${e.involvedObject.name ?? ''}`))].slice(0, BACK_OFF_READ_LIMIT);
  // An event outlives the crash loop (an hour by default): read each pod to report only current ones.
  const pods = await Promise.all(keys.map((k) => reader.pod(k.split('/')[0]!, k.split('/')[1]!)));
  return pods.filter((p): p is Pod => p !== undefined);
}

export async function gatherVerifyData(specs: CheckSpec[], src: GatherSources): Promise<VerifyData> {
  const { reader } = src;
  const jobs: Partial<Record<keyof VerifyData, () => Promise<unknown>>> = {};
  for (const spec of specs) {
    switch (spec.kind) {
      case 'profiles':
        jobs.profiles = src.profiles;
        break;
      case 'components': {
        const w = spec.with;
        jobs.kubevirt = () => reader.kubeVirt(w.kubevirt.namespace, w.kubevirt.name);
        jobs.cdi = () => reader.cdi(w.cdi.name);
        jobs.componentPods = async () => (await Promise.all([...new Set([w.kubevirt.namespace, w.cdi.namespace])].map((namespace) => reader.pods({ namespace })))).flat();
        break;
      }
      case 'workloads':
        jobs.vmis = () => reader.vmiPhases();
        jobs.migrations = () => reader.migrations();
        break;
      case 'storage': {
        const [ns, name] = spec.with.storageCluster.split('/') as [string, string];
        jobs.storageCluster = () => reader.storageCluster(ns, name, spec.with.clusterKind);
        jobs.storageClasses = () => reader.storageClasses();
        break;
      }
      case 'network':
        jobs.services = () => reader.services();
        jobs.nads = () => reader.networkAttachmentDefinitions();
        break;
      case 'nodes': {
        const namespaces = spec.with.agentNamespaces;
        jobs.nodes = () => reader.nodes();
        jobs.unhealthyPods = () => reader.pods({ fieldSelector: NOT_RUNNING });
        jobs.agentPods = async () => (await Promise.all(namespaces.map((namespace) => reader.pods({ namespace })))).flat();
        jobs.backOffPods = () => backOffPods(reader);
        break;
      }
    }
  }
  const entries = await Promise.all(Object.entries(jobs).map(async ([key, load]) => [key, await fetched(load!)] as const));
  return Object.fromEntries(entries) as VerifyData;
}

/**
 * Why the cluster could not be read at all: every cluster read of the round failed (credentials,
 * TLS and the network stop the round before this; a time-out or a failing API server does not).
 * Then nothing is known about the cluster, and no panel, red or green, says anything about it.
 * Undefined when one cluster read answered.
 */
export function clusterUnreadable(data: VerifyData): string | undefined {
  const reads = Object.entries(data).filter(([key, f]) => key !== 'profiles' && f !== undefined) as Array<[string, Fetched<unknown>]>;
  if (reads.length === 0 || reads.some(([, f]) => f.ok)) return undefined;
  const first = reads.find(([, f]) => !f.ok)![1] as { reason: string };
  return first.reason;
}
