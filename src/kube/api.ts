/**
 * What the engine and the steps need from the cluster. The kubectl runner in this folder implements
 * it; the only method that changes anything is `execute`, which the engine alone calls.
 */
import type { KubeMutation } from '../engine/mutation.js';

export interface KubeApi {
  /** Runs one mutating command (delete a migration, restart a VM). Called only through the engine's journaled gateway. */
  execute(request: KubeMutation, signal?: AbortSignal): Promise<void>;
}
