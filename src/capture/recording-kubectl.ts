/**
 * The product's kubectl runner, with every read's answer handed to the capture's recorder. Every
 * read of the cluster goes through `getRaw` (lists, single objects, logs, the version: see
 * src/kube/reader.ts), so recording there captures what the product reads and nothing else, and
 * stays true as the readers change. Changes (`execute`) are refused: a capture only reads.
 */
import { EnvironmentError } from '../errors.js';
import type { KubeMutation } from '../engine/mutation.js';
import { KubeError } from '../kube/errors.js';
import { Kubectl, type KubectlOptions } from '../kube/kubectl.js';
import type { CaptureRecorder } from './recorder.js';

export class RecordingKubectl extends Kubectl {
  constructor(
    opts: KubectlOptions,
    private readonly recorder: CaptureRecorder,
  ) {
    super(opts);
  }

  override async getRaw(path: string, action: string, signal?: AbortSignal, accept?: string): Promise<string> {
    // Past the size cap nothing more is read (the reads under way were stopped by the recorder).
    if (this.recorder.over) throw new KubeError('failed', 'The capture is over its size cap: no more reads.', { kind: 'failed' });
    let text: string;
    try {
      text = await super.getRaw(path, action, signal, accept);
    } catch (err) {
      this.recorder.kubeFailure(path, err);
      throw err;
    }
    this.recorder.kubeAnswer(path, text);
    return text;
  }

  override execute(request: KubeMutation): Promise<void> {
    return Promise.reject(new EnvironmentError('capture.read-only', `A capture only reads: refused to ${request.summary}.`, { hint: 'This is a bug in upgrade-pilot; nothing was changed.' }));
  }
}
