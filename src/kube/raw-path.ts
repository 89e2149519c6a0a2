/**
 * The server URL's path in front of every raw path. `kubectl get --raw PATH`, `replace --raw PATH`
 * (a VM restart) and the other raw verbs send PATH as given, ignoring the path of the kubeconfig's
 * server URL (checked with kubectl 1.32); behind a gateway (`https://rancher.example/k8s/clusters/c-abc`)
 * `/api/v1/nodes` would then reach the gateway's root, not the cluster. Pure.
 */

/** kubectl's argv with the path after each `--raw` (or `--raw=`) prefixed by `serverPath`. */
export function withServerPath(args: readonly string[], serverPath: string): string[] {
  if (serverPath === '') return [...args];
  const out = [...args];
  for (let i = 0; i < out.length; i++) {
    const a = out[i]!;
    if (a === '--raw' && i + 1 < out.length && out[i + 1]!.startsWith('/')) {
      out[i + 1] = serverPath + out[i + 1]!;
      i++;
    } else if (a.startsWith('--raw=/')) out[i] = `--raw=${serverPath}${a.slice('--raw='.length)}`;
  }
  return out;
}
