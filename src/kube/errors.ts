/**
 * kubectl failures, classified from the exit code and stderr into errors an operator can act on.
 * kubectl exits 1 for nearly everything, so stderr is the only evidence; its wording is stable
 * across 1.2x releases (see domain-notes, "kubectl facts").
 */
import { PilotError } from '../errors.js';
import { sanitizeText } from '../text/sanitize.js';

export type KubeFailure = 'credentials' | 'forbidden' | 'unreachable' | 'timeout' | 'not-found' | 'missing-crd' | 'config' | 'no-kubectl' | 'too-large' | 'failed';

export class KubeError extends PilotError {
  constructor(
    readonly failure: KubeFailure,
    message: string,
    opts: { hint?: string; where?: string; kind?: 'environment' | 'input' | 'failed' } = {},
  ) {
    super(opts.kind ?? 'environment', `kube.${failure}`, message, opts);
  }
}

export const FRESH_ACCESS_HINT =
  'Obtain a fresh cluster access file (kubeconfig) from Palette, pass it with --kubeconfig (or update the params file), then resume: the session is saved.';

interface Context {
  /** What was being done, for the message: `list pods`, `restart VM vms/a`. */
  action: string;
  kubeconfig: string | undefined;
  timeoutMs: number;
}

/** The line of kubectl's error output that says what went wrong, safe to show (the server wrote part of it). */
const last = (stderr: string) =>
  sanitizeText(
    stderr
      .trim()
      .split('\n')
      .filter((l) => !/^\s*(I|W)\d{4} /.test(l)) // klog info/warning lines
      .pop() ?? '',
    { max: 500 },
  );

export function classifyKubectlFailure(stderr: string, ctx: Context, opts: { timedOut?: boolean; enoent?: boolean; spawnError?: string } = {}): KubeError {
  const where = ctx.kubeconfig ? `kubeconfig ${ctx.kubeconfig}` : 'kubectl';
  if (opts.enoent) {
    return new KubeError('no-kubectl', 'kubectl is not on the PATH.', { hint: 'Install kubectl 1.30 or newer (or put it on the PATH) and try again.' });
  }
  if (opts.spawnError) {
    return new KubeError('no-kubectl', `kubectl cannot be started (${opts.spawnError}).`, { hint: 'Check that the kubectl on the PATH is an executable the current user may run.' });
  }
  if (opts.timedOut || /context deadline exceeded|Client\.Timeout exceeded|request canceled|TLS handshake timeout|i\/o timeout|unable to return a response in the time allotted/i.test(stderr)) {
    return new KubeError('timeout', `The cluster did not answer in time (${Math.round(ctx.timeoutMs / 1000)}s) while trying to ${ctx.action}.`, {
      hint: 'Check the cluster API is reachable and not overloaded (network, VPN, proxy); the session is saved, resume to retry.',
      where,
    });
  }
  if (/You must be logged in to the server|\(Unauthorized\)|provide credentials|certificate has expired|token (is )?expired|unable to refresh|oidc.*expired/i.test(stderr)) {
    return new KubeError('credentials', `The cluster refused the credentials while trying to ${ctx.action}: the cluster access file${ctx.kubeconfig ? ` ${ctx.kubeconfig}` : ''} has expired or is not valid.`, {
      hint: FRESH_ACCESS_HINT,
      where,
    });
  }
  const forbidden = /cannot (\S+) resource "([^"]+)"(?: in API group "([^"]*)")?/.exec(stderr);
  if (forbidden || /\(Forbidden\)/.test(stderr)) {
    const what = forbidden ? `${forbidden[1]} ${forbidden[2]}${forbidden[3] ? `.${forbidden[3]}` : ''}` : ctx.action;
    return new KubeError('forbidden', `The cluster access file is not allowed to ${what} (needed to ${ctx.action}).`, {
      hint: 'Use a kubeconfig with cluster-admin (or at least read access to these resources) for the upgrade.',
      where,
    });
  }
  if (/the server doesn't have a resource type|could not find the requested resource|no matches for kind|the server could not find/i.test(stderr)) {
    return new KubeError('missing-crd', `The cluster does not serve what is needed to ${ctx.action} (a CRD is missing).`, {
      hint: 'Check that KubeVirt, CDI and the storage operator are installed on this cluster.',
      where,
      kind: 'failed',
    });
  }
  if (/\(NotFound\)|not found/i.test(stderr) && !/context .* not found/i.test(stderr)) {
    return new KubeError('not-found', `Not found while trying to ${ctx.action}: ${last(stderr).replace(/^Error from server \(NotFound\): /, '')}`, { kind: 'failed', where });
  }
  if (/context "([^"]+)" does not exist|error loading config|no configuration has been provided|invalid configuration|stat .*: no such file/i.test(stderr)) {
    return new KubeError('config', `The cluster access file cannot be used: ${last(stderr).replace(/^error: /, '')}.`, {
      hint: 'Check --kubeconfig and --context (or the params file): the file must exist and hold that context.',
      where,
      kind: 'input',
    });
  }
  if (/connection refused|was refused|no such host|Unable to connect to the server|network is unreachable|connection reset|EOF$/im.test(stderr)) {
    return new KubeError('unreachable', `The cluster API cannot be reached while trying to ${ctx.action}: ${last(stderr).replace(/^error: /, '')}`, {
      hint: 'Check the server address in the kubeconfig, the network or VPN; the session is saved, resume to retry.',
      where,
    });
  }
  return new KubeError('failed', `kubectl failed while trying to ${ctx.action}: ${last(stderr) || 'no error text'}`, { where, kind: 'failed' });
}

/** A kubectl process printed more than the cap: a runaway answer, or a cluster larger than the cap allows. */
export function outputTooLarge(ctx: Context, cap: string): KubeError {
  return new KubeError('too-large', `The cluster's answer while trying to ${ctx.action} was larger than ${cap}; the call was stopped.`, {
    hint: 'Check that the kubeconfig points at the right cluster. If the cluster really is that large, raise settings.kubectlMaxOutput in the runbook.',
    where: ctx.kubeconfig ? `kubeconfig ${ctx.kubeconfig}` : 'kubectl',
  });
}

export const isKubeError = (err: unknown, failure?: KubeFailure): err is KubeError => err instanceof KubeError && (failure === undefined || err.failure === failure);

