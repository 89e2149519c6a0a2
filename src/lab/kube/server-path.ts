/**
 * The lab's Kubernetes API behind a gateway path, as Rancher serves each cluster's API at
 * `https://rancher.example/k8s/clusters/<cluster id>/...` (rancher/rancher#13594, #16138): the
 * kubeconfig's server URL carries the path, and only requests under it reach the cluster.
 *
 * Outside the path the gateway answers itself. Rancher answers a Kubernetes path at its root
 * (`/api`, what `kubectl proxy` without `--append-server-path` asks for) with a 404
 * (rancher/rancher#16138); its router is Go's, whose not-found answer is `404 page not found`
 * as text/plain (net/http `NotFound`). kubectl reports that as "the server could not find the
 * requested resource".
 */
import { serverPathProblem } from '../../kube/server-path.js';
import type { Reply } from './http.js';

/** The server path, checked; an Error names what is wrong (the CLI checks it first, with its own words). */
export function checkServerPath(path: string): string {
  const problem = serverPathProblem(path);
  if (problem) throw new Error(`the server path ${JSON.stringify(path)} ${problem}`);
  return path.replace(/\/+$/, '');
}

/** The path below the server path (`/api/v1/nodes`), or undefined for a request outside it. */
export function underServerPath(pathname: string, serverPath: string): string | undefined {
  if (pathname === serverPath) return '/';
  if (pathname.startsWith(`${serverPath}/`)) return pathname.slice(serverPath.length);
  return undefined;
}

export function gatewayNotFound(): Reply {
  return { status: 404, contentType: 'text/plain; charset=utf-8', body: '404 page not found\n', headers: { 'X-Content-Type-Options': 'nosniff' } };
}
