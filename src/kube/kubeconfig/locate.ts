/**
 * Which cluster access file kubectl will use, found the way kubectl finds it: the explicit path
 * (`--kubeconfig`, the params file), else every file listed in `$KUBECONFIG`, else
 * `~/.kube/config`.
 */
import { delimiter, join } from 'node:path';

export function kubeconfigPaths(explicit: string | undefined, env: NodeJS.ProcessEnv, home: string): string[] {
  if (explicit) return [explicit];
  const listed = (env.KUBECONFIG ?? '').split(delimiter).filter((p) => p.trim() !== '');
  return listed.length > 0 ? listed : [join(home, '.kube', 'config')];
}
