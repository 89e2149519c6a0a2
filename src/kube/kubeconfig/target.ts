/**
 * Where kubectl will go, found before any kubectl runs: the kubeconfig files (each checked to be a
 * regular file within LIMITS.kubeconfigFile: kubectl itself would read a FIFO or a link to
 * /dev/zero without end), the context, its cluster entry, and the path of the cluster's server URL.
 *
 * The path matters because a gateway (Rancher: `https://rancher.example/k8s/clusters/c-abc`)
 * serves the cluster's API under it, and kubectl keeps it only where it builds URLs itself:
 * `kubectl get --raw PATH` and `replace --raw PATH` take PATH as given (checked with kubectl 1.32),
 * and `kubectl proxy` drops it unless started with `--append-server-path`.
 *
 * Files merge as kubectl merges a `$KUBECONFIG` list (read.ts). kubectl skips a listed file that
 * does not exist, so this does too; any other unusable file stops here (exit 4: the access file
 * cannot be used). A file the operator named (`--kubeconfig`, the params file) that does not exist
 * is bad input (exit 2), as are a context that is not there and a cluster that names no server.
 */
import { X509Certificate } from 'node:crypto';
import { homedir } from 'node:os';
import { dirname, isAbsolute, resolve } from 'node:path';
import { readBoundedText } from '../../io/bounded-read.js';
import { LIMITS } from '../../io/limits.js';
import { KubeError } from '../errors.js';
import { kubeconfigPaths } from './locate.js';
import { fileProblemText, mergeKubeconfigs, type ReadText } from './read.js';

export interface KubeTarget {
  /** The files read (those of a list that exist). */
  files: string[];
  context: string;
  cluster: string;
  /** The cluster's server URL as written. */
  server: string;
  /** Its path without a trailing slash (`/k8s/clusters/c-abc`), `''` when it has none. */
  serverPath: string;
  /** The exec credential plugin the context's user runs, if any (for messages: what to install). */
  plugin?: { command: string; installHint?: string };
  /** The CA the cluster entry trusts, for messages (`its certificate-authority-data, CN=...`); undefined: the system's. */
  ca?: string;
}

export interface TargetInput {
  /** `--kubeconfig` / the params file; undefined = `$KUBECONFIG`, then `~/.kube/config`. */
  kubeconfig: string | undefined;
  /** `--context` / the params file; undefined = the current context. */
  context: string | undefined;
  env?: NodeJS.ProcessEnv;
  home?: string;
  read?: ReadText;
}

const FILE_HINT = 'Pass --kubeconfig FILE naming a kubeconfig (a regular file, as Palette hands it out), or fix $KUBECONFIG; then run again.';
const CONTEXT_HINT = 'Check --context (or cluster.context in the params file) against `kubectl config get-contexts`.';

const unusable = (message: string, where: string) => new KubeError('config', `The cluster access file cannot be used: ${message}.`, { hint: FILE_HINT, where });
const badInput = (message: string, where: string, hint = CONTEXT_HINT) => new KubeError('config', `The cluster access file cannot be used: ${message}.`, { hint, where, kind: 'input' });

/**
 * The path of a server URL, `''` for none; undefined when the URL cannot be read. A server written
 * without a scheme (`10.0.0.5:6443`) is one client-go reaches over https: read it so.
 */
export function serverPathOf(server: string): string | undefined {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(server) ? server : `https://${server}`);
  } catch {
    return undefined;
  }
  return url.pathname.replace(/\/+$/, '');
}

export function resolveKubeTarget(input: TargetInput): KubeTarget {
  const paths = kubeconfigPaths(input.kubeconfig, input.env ?? process.env, input.home ?? homedir());
  const where = `kubeconfig ${paths.join(', ')}`;
  const merged = mergeKubeconfigs(paths, input.read);
  // kubectl skips a missing file of a list, not one it was told to use, nor one it cannot use.
  const blocking = merged.problems.filter((p) => p.kind === 'unusable' || input.kubeconfig !== undefined);
  const named = blocking.filter((p) => p.kind === 'missing');
  if (named.length > 0 && named.length === blocking.length) throw badInput(`cannot read the cluster access file ${named.map(fileProblemText).join('; ')}`, `kubeconfig ${named[0]!.file}`, FILE_HINT);
  if (blocking.length > 0) throw unusable(`cannot read the cluster access file ${blocking.map(fileProblemText).join('; ')}`, `kubeconfig ${blocking[0]!.file}`);
  if (merged.readable.length === 0) throw unusable(`cannot read the cluster access file ${merged.problems.map(fileProblemText).join('; ')}`, where);
  const files = merged.readable;
  const name = input.context ?? merged.current;
  if (!name) throw badInput(`${files.join(', ')} names no current context and none was chosen (--context or cluster.context in the params file)`, where);
  const ctx = merged.contexts.get(name);
  if (!ctx) throw badInput(`the context "${name}" is not in ${files.join(', ')}`, where);
  if (!ctx.cluster) throw badInput(`the context "${name}" names no cluster`, where);
  const cluster = merged.clusters.get(ctx.cluster);
  if (!cluster) throw badInput(`the cluster "${ctx.cluster}" of context "${name}" is not in ${files.join(', ')}`, where);
  const server = cluster.cluster.server;
  if (!server) throw badInput(`the cluster "${ctx.cluster}" of context "${name}" names no server`, `kubeconfig ${cluster.file}`, FILE_HINT);
  const serverPath = serverPathOf(server);
  if (serverPath === undefined) throw badInput(`the server of cluster "${ctx.cluster}" is not a URL`, `kubeconfig ${cluster.file}`, FILE_HINT);
  const exec = ctx.user ? merged.users.get(ctx.user)?.user.exec : undefined;
  const plugin = exec?.command ? { command: exec.command, ...(exec.installHint ? { installHint: exec.installHint } : {}) } : undefined;
  const ca = caLabel(cluster.cluster, dirname(cluster.file), input.read);
  return { files, context: name, cluster: ctx.cluster, server, serverPath, ...(plugin ? { plugin } : {}), ...(ca ? { ca } : {}) };
}

/** Which CA the cluster entry trusts, named by its subject, never its content. */
function caLabel(cluster: { 'certificate-authority-data'?: string | undefined; 'certificate-authority'?: string | undefined }, baseDir: string, read: ReadText | undefined): string | undefined {
  const subject = (pem: string): string | undefined => {
    try {
      return new X509Certificate(pem).subject.split('\n').find((l) => l.startsWith('CN='));
    } catch {
      return undefined;
    }
  };
  const data = cluster['certificate-authority-data'];
  if (data) {
    const cn = subject(Buffer.from(data, 'base64').toString('utf8'));
    return `its certificate-authority-data${cn ? `, ${cn}` : ''}`;
  }
  const file = cluster['certificate-authority'];
  if (file) {
    const path = isAbsolute(file) ? file : resolve(baseDir, file);
    let cn: string | undefined;
    try {
      cn = subject((read ?? readCaFile)(path));
    } catch {
      cn = undefined;
    }
    return `${path}${cn ? `, ${cn}` : ''}`;
  }
  return undefined;
}

const readCaFile = (path: string) => readBoundedText(path, { what: 'certificate file', maxBytes: LIMITS.credentialFile });
