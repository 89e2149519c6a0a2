/**
 * Preflight questions for the way in: kubectl on the PATH (its version), the cluster answers a
 * cheap read, and the access file stays valid through the planned window (spec 9.1.5).
 */
import { FRESH_ACCESS_HINT, isKubeError, type KubeError } from '../../kube/errors.js';
import { accessFreshness } from '../../kube/kubeconfig/index.js';
import type { Kubectl } from '../../kube/kubectl.js';
import type { ClusterReader } from '../../kube/reader.js';
import { failedItem, timed } from './failure.js';
import { notChecked, pass, red, warn, type PreflightItem } from './types.js';

export const ACCESS_TITLES = {
  kubectl: 'kubectl is on the PATH',
  ping: 'The cluster answers a cheap read',
  freshness: 'The cluster access file stays valid through the window',
} as const;

export interface AccessResult {
  items: PreflightItem[];
  /** The cluster answered: the other cluster reads are worth making. */
  reachable: boolean;
  /** When it did not: why, for the panels that were not checked. */
  unreachableWhy?: string;
  kubectlVersion?: string;
  serverVersion?: string;
  accessExpiresAt?: string;
}

export interface AccessInput {
  kubectl: Kubectl;
  reader: ClusterReader;
  signal: AbortSignal;
  /** The session's kubeconfig and context (undefined: `$KUBECONFIG`, then `~/.kube/config`; the current context). */
  kubeconfig: string | undefined;
  context: string | undefined;
  env: NodeJS.ProcessEnv;
  now: number;
  windowMs: number;
}

export async function clusterAccessItems(input: AccessInput, onItem: (item: PreflightItem) => void): Promise<AccessResult> {
  const out: AccessResult = { items: [], reachable: false, unreachableWhy: 'the cluster did not answer' };
  const add = (item: PreflightItem) => {
    out.items.push(item);
    onItem(item);
  };

  // Where kubectl would go, checked before it runs: a context that is not there is bad input (exit 2),
  // a file that cannot be used (a FIFO, /dev/zero, too large, missing) the environment (exit 4).
  let accessFile: KubeError | undefined;
  try {
    await input.kubectl.target();
  } catch (err) {
    if (!isKubeError(err, 'config')) throw err;
    accessFile = err;
  }
  const freshness = accessFreshness({ kubeconfig: input.kubeconfig, context: input.context, env: input.env, now: input.now, windowMs: input.windowMs });
  if (freshness.expiresAt) out.accessExpiresAt = freshness.expiresAt;
  const where = [freshness.file && `file ${freshness.file}`, freshness.context && `context ${freshness.context}`, freshness.user && `user ${freshness.user}`].filter(Boolean).join(', ');
  const freshLines = [...(where ? [where] : []), ...freshness.lines];

  let kubectlMissing = false;
  const kubectl = await timed('kubectl', ACCESS_TITLES.kubectl, async () => {
    try {
      const version = await input.kubectl.clientVersion(input.signal);
      out.kubectlVersion = version;
      return pass('kubectl', ACCESS_TITLES.kubectl, `kubectl ${version}.`);
    } catch (err) {
      kubectlMissing = isKubeError(err, 'no-kubectl');
      throw err;
    }
  });
  add(kubectl);

  let refused = false;
  if (kubectlMissing) {
    out.unreachableWhy = 'kubectl is missing';
    add(notChecked('cluster-api', ACCESS_TITLES.ping, out.unreachableWhy));
  } else if (accessFile) {
    out.unreachableWhy = 'the cluster access file cannot be used';
    add(notChecked('cluster-api', ACCESS_TITLES.ping, out.unreachableWhy));
  } else {
    const ping = await timed('cluster-api', ACCESS_TITLES.ping, async () => {
      try {
        const version = await input.reader.ping();
        out.serverVersion = version;
        out.reachable = true;
        delete out.unreachableWhy;
        return pass('cluster-api', ACCESS_TITLES.ping, `The cluster API answered: Kubernetes ${version}.`);
      } catch (err) {
        refused = isKubeError(err, 'credentials');
        if (refused) return { ...failedItem('cluster-api', ACCESS_TITLES.ping, err), hint: FRESH_ACCESS_HINT };
        throw err;
      }
    });
    add(ping);
  }

  // A 401 is the final word on freshness, whatever the file says about itself.
  if (accessFile) {
    add(red('access-freshness', ACCESS_TITLES.freshness, accessFile.message, accessFile.kind === 'input' ? 'input' : 'environment', accessFile.hint ?? FRESH_ACCESS_HINT, freshLines));
  } else if (refused) {
    add(red('access-freshness', ACCESS_TITLES.freshness, 'The cluster refused the credentials (401 Unauthorized): the access file has expired or was revoked.', 'environment', FRESH_ACCESS_HINT, freshLines));
  } else if (freshness.status === 'fail') {
    add(red('access-freshness', ACCESS_TITLES.freshness, freshness.summary, 'environment', freshness.hint ?? FRESH_ACCESS_HINT, freshLines));
  } else if (freshness.status === 'warn') {
    add(warn('access-freshness', ACCESS_TITLES.freshness, freshness.summary, freshLines, freshness.hint));
  } else {
    add(pass('access-freshness', ACCESS_TITLES.freshness, freshness.summary, freshLines));
  }
  return out;
}
