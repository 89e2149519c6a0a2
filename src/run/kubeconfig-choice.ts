/**
 * The kubeconfig a command uses: `--kubeconfig`, else the params file's `cluster.kubeconfig`, else
 * none (kubectl then reads $KUBECONFIG itself, skipping a listed file that does not exist). A file
 * the operator named that does not exist is bad input (exit 2, as a missing params file is), found
 * before anything runs or a session is created; one that exists but cannot be used (a FIFO, a
 * link to /dev/zero) is the access file's own check (kube/kubeconfig/target.ts, exit 4).
 */
import { statSync } from 'node:fs';
import type { Params } from '../engine/params.js';
import { InputError } from '../errors.js';

export function chosenKubeconfig(flag: string | undefined, params: Pick<Params, 'cluster'> | undefined, paramsFile?: string): string | undefined {
  const file = flag ?? params?.cluster.kubeconfig;
  if (file === undefined) return undefined;
  try {
    statSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return file;
    const namedBy = flag !== undefined ? '--kubeconfig' : `cluster.kubeconfig in the params file${paramsFile ? ` ${paramsFile}` : ''}`;
    throw new InputError('input.kubeconfig-missing', `The kubeconfig ${file} named by ${namedBy} does not exist.`, {
      hint: `Name an existing kubeconfig (the access file Palette hands out for the cluster) with ${flag !== undefined ? '--kubeconfig FILE' : 'cluster.kubeconfig, or --kubeconfig FILE'}; or leave it out to use $KUBECONFIG.`,
      where: flag !== undefined ? '--kubeconfig' : 'cluster.kubeconfig',
    });
  }
  return file;
}
