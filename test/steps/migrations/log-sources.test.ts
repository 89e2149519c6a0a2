/**
 * The log reads of a diagnosis (src/steps/migrations/log-sources.ts): each names its container,
 * and a read the apiserver refuses is evidence the diagnosis goes without, listed with the
 * cluster's words; credentials or an unreachable cluster stop it.
 */
import { describe, expect, it } from 'vitest';
import { classifyKubectlFailure } from '../../../src/kube/errors.js';
import type { ClusterReader } from '../../../src/kube/reader.js';
import type { Pod } from '../../../src/kube/schemas.js';
import { handlerLogs } from '../../../src/steps/migrations/log-sources.js';

const handler = (node: string): Pod => ({ metadata: { name: `virt-handler-${node}`, namespace: 'kubevirt' }, spec: { nodeName: node } });
const ctx = (action: string) => ({ action, kubeconfig: '/k/config', timeoutMs: 10_000 });

/** A reader whose log reads answer from `answers` (text, or kubectl's error output to fail with). */
function reader(answers: Record<string, { text: string } | { stderr: string }>) {
  const reads: Array<{ pod: string; container: string | undefined }> = [];
  const stub = {
    pods: async () => ['n1', 'n2', 'n3'].map(handler),
    podLog: async (namespace: string, pod: string, _tail: number, container?: string) => {
      reads.push({ pod, container });
      const a = answers[pod]!;
      if ('text' in a) return a.text;
      throw classifyKubectlFailure(a.stderr, ctx(`read the log of ${namespace}/${pod}`));
    },
  };
  return { reader: stub as unknown as ClusterReader, reads };
}

describe('handlerLogs', () => {
  it('names the virt-handler container and says which logs could not be read, and why', async () => {
    const { reader: r, reads } = reader({
      'virt-handler-n1': { text: 'line 1\nline 2\n' },
      // virt-handler rolling: its container is not up yet (the apiserver answers 400).
      'virt-handler-n2': { stderr: 'Error from server (BadRequest): container "virt-handler" in pod "virt-handler-n2" is waiting to start: ContainerCreating\n' },
      // Gone since the list.
      'virt-handler-n3': { stderr: 'Error from server (NotFound): pods "virt-handler-n3" not found\n' },
    });
    const out = await handlerLogs(r, 'kubevirt', ['n1', 'n2', 'n3'], 8, 50);
    expect(reads.map((x) => x.container)).toEqual(['virt-handler', 'virt-handler', 'virt-handler']);
    expect(out.pods).toEqual(['kubevirt/virt-handler-n1']);
    expect(out.sources.map((s) => s.lines)).toEqual([['line 1', 'line 2']]);
    expect(out.unreadable).toEqual([
      expect.stringMatching(/^the virt-handler log of kubevirt\/virt-handler-n2: .*container "virt-handler" in pod "virt-handler-n2" is waiting to start: ContainerCreating/),
      expect.stringMatching(/^the virt-handler log of kubevirt\/virt-handler-n3: .*pods "virt-handler-n3" not found/),
    ]);
  });

  it('stops on credentials the cluster refuses: no diagnosis without the cluster', async () => {
    const { reader: r } = reader({
      'virt-handler-n1': { stderr: 'error: You must be logged in to the server (Unauthorized)\n' },
      'virt-handler-n2': { text: '' },
      'virt-handler-n3': { text: '' },
    });
    await expect(handlerLogs(r, 'kubevirt', ['n1'], 8, 50)).rejects.toMatchObject({ failure: 'credentials' });
  });
});
