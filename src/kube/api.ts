/**
 * What the engine and the steps need from the cluster: typed reads, and one door for changes
 * (`execute`), which only the engine's journaled gateway calls.
 */
import type { KubeMutation } from '../engine/mutation.js';
import type { Kubectl } from './kubectl.js';
import type { ClusterReader } from './reader.js';

declare module '../engine/effects.js' {
  /** The cluster is a port of the steps' effects. */
  interface EffectPorts {
    kube: KubeApi;
  }
}

export interface KubeApi {
  /** Runs one mutating command (delete a migration, restart a VM). */
  execute(request: KubeMutation, signal?: AbortSignal): Promise<void>;
  /** Typed reads, one process per resource kind; `signal` stops them. */
  reader(signal?: AbortSignal): ClusterReader;
  /** The runner (client version, pinned flags, process count). */
  readonly kubectl: Kubectl;
}
