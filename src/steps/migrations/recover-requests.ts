/**
 * The two changes recovery makes, as journaled requests: cancel a migration (delete its VMIM) and
 * restart a VM (KubeVirt's restart subresource: `virtctl restart` when virtctl is installed, else
 * the same PUT through `kubectl replace --raw` with `{}` on stdin). kubectl gets the pinned
 * `--kubeconfig/--context/--request-timeout` from the runner.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { KubeMutation } from '../../engine/mutation.js';

export type RestartProgram = 'virtctl' | 'kubectl';

export function cancelMigrationRequest(namespace: string, name: string, vmi: string): KubeMutation {
  return {
    target: 'kube',
    program: 'kubectl',
    // --ignore-not-found: a migration that ended (and was collected) since the read needs no cancel.
    argv: ['delete', 'vmim', name, '-n', namespace, '--wait=false', '--ignore-not-found'],
    summary: `cancel migration ${namespace}/${name} of VMI ${vmi}`,
  };
}

export const restartPath = (namespace: string, name: string): string => `/apis/subresources.kubevirt.io/v1/namespaces/${namespace}/virtualmachines/${name}/restart`;

export function restartRequest(namespace: string, name: string, program: RestartProgram): KubeMutation {
  const summary = `restart VM ${namespace}/${name}`;
  if (program === 'virtctl') return { target: 'kube', program: 'virtctl', argv: ['restart', name, '-n', namespace], summary };
  return { target: 'kube', program: 'kubectl', argv: ['replace', '--raw', restartPath(namespace, name), '-f', '-'], stdin: '{}', summary };
}

/** Is an executable of this name on the PATH? */
export function onPath(program: string, path = process.env.PATH ?? ''): boolean {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, program);
    try {
      accessSync(file, constants.X_OK);
      if (statSync(file).isFile()) return true;
    } catch {
      // Not here; keep looking.
    }
  }
  return false;
}

export function restartProgram(setting: 'auto' | RestartProgram, path?: string): RestartProgram {
  if (setting !== 'auto') return setting;
  return onPath('virtctl', path) ? 'virtctl' : 'kubectl';
}
