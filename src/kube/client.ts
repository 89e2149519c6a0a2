import type { KubeMutation } from '../engine/mutation.js';
import type { KubeApi } from './api.js';
import type { Kubectl } from './kubectl.js';
import { ClusterReader } from './reader.js';

export class KubeClient implements KubeApi {
  constructor(readonly kubectl: Kubectl) {}

  reader(signal?: AbortSignal): ClusterReader {
    return new ClusterReader(this.kubectl, signal);
  }

  execute(request: KubeMutation, signal?: AbortSignal): Promise<void> {
    return this.kubectl.execute(request, signal);
  }
}
