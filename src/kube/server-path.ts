/**
 * A Kubernetes API server path: the part of a kubeconfig's server URL after the host, as a gateway
 * serves each cluster's API under its own path (Rancher's `/k8s/clusters/<cluster id>`,
 * rancher/rancher#13594). Checked where a path is given (the lab's `--server-path`) and where the
 * lab serves one. Pure.
 */

/** `/k8s/clusters/c-lab`: segments of letters, digits, `-`, `_`, `.` (not `.` or `..` alone); no trailing slash. */
const SEGMENT = /^[A-Za-z0-9._-]+$/;

/** What is wrong with a server path, or undefined when it is fine. */
export function serverPathProblem(path: string): string | undefined {
  if (!path.startsWith('/')) return 'must start with /';
  const segments = path.replace(/\/+$/, '').split('/').slice(1);
  if (segments.length === 0 || (segments.length === 1 && segments[0] === '')) return 'must name at least one segment (e.g. /k8s/clusters/c-lab)';
  for (const s of segments) {
    if (!SEGMENT.test(s) || s === '.' || s === '..') return `has a segment that is not a plain name (${JSON.stringify(s)}): use letters, digits, "-", "_" and "."`;
  }
  return undefined;
}
