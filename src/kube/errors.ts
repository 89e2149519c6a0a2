/**
 * kubectl failures, classified from the exit code and stderr into errors an operator can act on.
 * kubectl exits 1 for nearly everything, so stderr is the only evidence; its wording is stable
 * across 1.2x releases (see domain-notes, "kubectl facts"). The most specific cause wins: "not
 * found" in `exec: executable kubelogin not found` is a missing credential plugin, not a missing
 * resource; `x509: ...` under "Unable to connect to the server" is TLS, not the network.
 */
import { PilotError } from '../errors.js';
import { sanitizeText } from '../text/sanitize.js';

export type KubeFailure =
  | 'credentials'
  /** The kubeconfig's exec credential plugin is missing, failed, or gave nothing usable (a credentials problem of this machine). */
  | 'credential-plugin'
  | 'forbidden'
  | 'unreachable'
  | 'tls'
  | 'timeout'
  | 'throttled'
  | 'server-error'
  | 'not-found'
  | 'missing-crd'
  | 'config'
  | 'no-kubectl'
  | 'too-large'
  | 'failed';

export class KubeError extends PilotError {
  /** A 429's (or 503's) Retry-After, when the read saw one (through the read proxy). */
  readonly retryAfterMs?: number;

  constructor(
    readonly failure: KubeFailure,
    message: string,
    opts: { hint?: string; where?: string; kind?: 'environment' | 'input' | 'failed'; retryAfterMs?: number } = {},
  ) {
    super(opts.kind ?? 'environment', `kube.${failure}`, message, opts);
    if (opts.retryAfterMs !== undefined) this.retryAfterMs = opts.retryAfterMs;
  }
}

/** A failure that may pass on its own (the API server or virt-api restarting, a 429): a read is worth another try. */
export const isTransient = (err: unknown): err is KubeError => err instanceof KubeError && (err.failure === 'server-error' || err.failure === 'throttled');

export const FRESH_ACCESS_HINT =
  'Obtain a fresh cluster access file (kubeconfig) from Palette, pass it with --kubeconfig (or update the params file), then resume: the session is saved.';

export interface FailureContext {
  /** What was being done, for the message: `list pods`, `restart VM vms/a`. */
  action: string;
  kubeconfig: string | undefined;
  timeoutMs: number;
  /** The kubeconfig's server URL, the exec credential plugin of its user, the CA it trusts (kubeconfig/target.ts). */
  server?: string;
  plugin?: { command: string; installHint?: string };
  ca?: string;
}

/** kubectl's own progress and warning lines (klog: `I1122 04:00:00.000000 ...`). */
const KLOG = /^\s*[IWE]\d{4} /;

/** The line of kubectl's error output that says what went wrong, safe to show (the server wrote part of it). */
const last = (stderr: string) =>
  sanitizeText(
    stderr
      .trim()
      .split('\n')
      .filter((l) => !KLOG.test(l))
      .pop() ?? '',
    { max: 500 },
  );

/** What a credential plugin wrote before kubectl gave up on it: its last line of its own. */
function pluginSaid(stderr: string): string | undefined {
  const lines = stderr.split('\n');
  const at = lines.findIndex((l) => /getting credentials: /.test(l));
  const own = lines
    .slice(0, at < 0 ? lines.length : at)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !KLOG.test(l));
  const said = own.at(-1)?.replace(/[.\s]+$/, '');
  return said ? sanitizeText(said, { max: 300 }) : undefined;
}

/**
 * What to install for a well-known credential plugin (the program named in a kubeconfig's
 * `users[].user.exec.command`), else the plugin's own `installHint`.
 */
const PLUGIN_INSTALL: Record<string, string> = {
  kubelogin: 'Install Azure kubelogin (https://azure.github.io/kubelogin/install.html, or `az aks install-cli`)',
  'gke-gcloud-auth-plugin': 'Install the GKE auth plugin: `gcloud components install gke-gcloud-auth-plugin`',
  aws: 'Install the AWS CLI v2 (https://docs.aws.amazon.com/cli/latest/userguide/getting-started-install.html)',
  'aws-iam-authenticator': 'Install aws-iam-authenticator (https://github.com/kubernetes-sigs/aws-iam-authenticator)',
  oci: 'Install the OCI CLI (https://docs.oracle.com/iaas/Content/API/SDKDocs/cliinstall.htm)',
};

function installAdvice(command: string, ctx: FailureContext): string {
  const base = command.split('/').pop() ?? command;
  const known = PLUGIN_INSTALL[base];
  const hint = ctx.plugin?.command === command && ctx.plugin.installHint ? sanitizeText(ctx.plugin.installHint.replace(/\s+/g, ' ').trim(), { max: 300 }) : undefined;
  const what = known ?? (hint ? `Install ${base}: ${hint}` : `Install ${base} (the program the access file's user runs to get credentials)`);
  return `${what}, on the PATH of the user who runs upgrade-pilot (\`command -v ${base}\` must find it); or use an access file with credentials of its own. The session is saved: resume once it is installed.`;
}

const seconds = (ms: number) => Math.round(ms / 1000);
/** The access file, named in a message when one was given (` /home/op/vmo.kubeconfig`). */
const file = (ctx: FailureContext) => (ctx.kubeconfig ? ` ${ctx.kubeconfig}` : '');
const serverWords = (ctx: FailureContext) => (ctx.server ? `The server at ${ctx.server} (in the access file${file(ctx)})` : `The server the access file${file(ctx)} names`);

type Rule = (stderr: string, ctx: FailureContext, where: string) => KubeError | undefined;

/**
 * Most specific first: an exec plugin's failure, then TLS, then what the API server said, then the
 * network. kubectl's texts are those of 1.32 (client-go `exec.go`, Go's `crypto/x509` and `net/http`),
 * each in test/kube/errors.test.ts as kubectl printed it.
 */
const RULES: Rule[] = [
  // client-go: `getting credentials: exec: executable kubelogin not found`
  (stderr, ctx, where) => {
    const m = /getting credentials: exec: executable (\S+) not found/.exec(stderr);
    if (!m) return undefined;
    const command = m[1]!;
    return new KubeError('credential-plugin', `The credential plugin ${command} that the cluster access file${file(ctx)} runs for its credentials is not installed (kubectl could not find it) while trying to ${ctx.action}.`, { hint: installAdvice(command, ctx), where });
  },
  // client-go: `getting credentials: exec: executable X failed with exit code 1`, after the plugin's own words
  (stderr, ctx, where) => {
    const m = /getting credentials: exec: executable (\S+) failed with exit code (\d+)/.exec(stderr);
    if (!m) return undefined;
    const said = pluginSaid(stderr);
    return new KubeError('credential-plugin', `The credential plugin ${m[1]} of the cluster access file${file(ctx)} failed (exit code ${m[2]}) while trying to ${ctx.action}${said ? `: ${said}` : ''}.`, {
      hint: `Run ${m[1]!.split('/').pop()} by hand (or its login command) to see why; usually its own sign-in has expired. Or obtain a fresh cluster access file from Palette. The session is saved: resume once it works.`,
      where,
    });
  },
  // Any other plugin trouble: it could not start, or answered with something kubectl cannot use.
  (stderr, ctx, where) => {
    const m = /getting credentials: (.+)/.exec(stderr);
    if (!m) return undefined;
    return new KubeError('credential-plugin', `The credential plugin${ctx.plugin ? ` ${ctx.plugin.command}` : ''} of the cluster access file${file(ctx)} gave no usable credentials while trying to ${ctx.action}: ${sanitizeText(m[1]!, { max: 300 })}.`, {
      hint: ctx.plugin ? installAdvice(ctx.plugin.command, ctx) : FRESH_ACCESS_HINT,
      where,
    });
  },
  // net/http: a TCP connection, then nothing: not the Kubernetes API (or a firewall holding it).
  (stderr, ctx, where) => {
    if (!/TLS handshake timeout/.test(stderr)) return undefined;
    return new KubeError('timeout', `${serverWords(ctx)} accepted the connection but never completed a TLS handshake (net/http: TLS handshake timeout) while trying to ${ctx.action}.`, {
      hint: 'Check the server address and port in the access file: what answers there is not speaking TLS as the Kubernetes API does (or a firewall or proxy holds the connection).',
      where,
    });
  },
  // net/http: `http: server gave HTTP response to HTTPS client`; crypto/tls: `first record does not look like a TLS handshake`.
  (stderr, ctx, where) => {
    if (!/server gave HTTP response to HTTPS client|first record does not look like a TLS handshake/.test(stderr)) return undefined;
    const plain = /server gave HTTP response/.test(stderr);
    return new KubeError('tls', `${serverWords(ctx)} does not speak TLS${plain ? ': it answered in plain HTTP' : ''} (while trying to ${ctx.action}): it is not the Kubernetes API, or not on this port.`, {
      hint: 'Check the server address and port in the access file (the Kubernetes API listens on https, usually port 6443 or 443); obtain the access file again from Palette if it was edited.',
      where,
    });
  },
  // crypto/x509: `x509: certificate signed by unknown authority` (possibly naming the candidate CA it tried)
  (stderr, ctx, where) => {
    if (!/x509: certificate signed by unknown authority/.test(stderr)) return undefined;
    const candidate = /candidate authority certificate "([^"]+)"/.exec(stderr)?.[1];
    const trusted = ctx.ca ? `the CA the access file${file(ctx)} trusts (${ctx.ca})` : `any CA this machine trusts (the access file${file(ctx)} names no CA of its own)`;
    return new KubeError(
      'tls',
      `The cluster's TLS certificate is not signed by ${trusted}${candidate ? ` (kubectl tried "${sanitizeText(candidate, { max: 200 })}")` : ''} while trying to ${ctx.action}: a trust problem, not the network.`,
      {
        hint: "Obtain the access file again from Palette (it carries the cluster's CA). If a TLS-inspecting proxy sits between this machine and the cluster, exempt the cluster API from inspection, or add the proxy's CA to the access file's certificate-authority-data.",
        where,
      },
    );
  },
  // crypto/x509: `x509: certificate is valid for a, b, not c`; `cannot validate certificate for 10.0.0.5 because it doesn't contain any IP SANs`
  (stderr, ctx, where) => {
    const valid = /x509: certificate is valid for (.+?), not (\S+)/.exec(stderr);
    const noIp = /x509: cannot validate certificate for (\S+) because it doesn't contain any IP SANs/.exec(stderr);
    if (!valid && !noIp) return undefined;
    const detail = valid ? `it is valid for ${sanitizeText(valid[1]!, { max: 300 })}, not ${sanitizeText(valid[2]!, { max: 200 })}` : `it names no IP address, and the access file reaches it at ${sanitizeText(noIp![1]!, { max: 200 })}`;
    return new KubeError('tls', `The cluster's TLS certificate does not match the host in the access file${file(ctx)} (${detail}) while trying to ${ctx.action}.`, {
      hint: "Use the server address the certificate names, as the access file from Palette has it. If a load balancer or proxy answers in front of the API with its own certificate, reach the API directly, or set the cluster's tls-server-name to a name the certificate holds.",
      where,
    });
  },
  // crypto/x509, about the server's certificate (an expired client certificate is refused with 401 instead).
  (stderr, ctx, where) => {
    const m = /x509: certificate has expired or is not yet valid(?:: (.+))?/.exec(stderr);
    if (!m) return undefined;
    return new KubeError('tls', `The TLS certificate of the cluster in the access file${file(ctx)} has expired or is not yet valid${m[1] ? ` (${sanitizeText(m[1], { max: 200 })})` : ''} while trying to ${ctx.action}.`, {
      hint: "Check this machine's clock. If it is right, the cluster's API certificate must be renewed by its administrators (then obtain a fresh access file from Palette).",
      where,
    });
  },
  (stderr, ctx, where) => {
    if (!/You must be logged in to the server|\(Unauthorized\)|provide credentials|token (is )?expired|unable to refresh|oidc.*expired/i.test(stderr)) return undefined;
    return new KubeError('credentials', `The cluster refused the credentials while trying to ${ctx.action}: the cluster access file${ctx.kubeconfig ? ` ${ctx.kubeconfig}` : ''} has expired or is not valid.`, { hint: FRESH_ACCESS_HINT, where });
  },
  (stderr, ctx, where) => {
    if (!/context deadline exceeded|Client\.Timeout exceeded|request canceled|i\/o timeout|unable to return a response in the time allotted/i.test(stderr)) return undefined;
    return timeoutError(ctx, where);
  },
  (stderr, ctx, where) => {
    const forbidden = /cannot (\S+) resource "([^"]+)"(?: in API group "([^"]*)")?/.exec(stderr);
    if (!forbidden && !/\(Forbidden\)/.test(stderr)) return undefined;
    const what = forbidden ? `${forbidden[1]} ${forbidden[2]}${forbidden[3] ? `.${forbidden[3]}` : ''}` : ctx.action;
    return new KubeError('forbidden', `The cluster access file is not allowed to ${what} (needed to ${ctx.action}).`, {
      hint: 'Use a kubeconfig with cluster-admin (or at least read access to these resources) for the upgrade.',
      where,
    });
  },
  // 429: client-go has already waited out the server's Retry-After (up to 10 times) before saying so.
  (stderr, ctx, where) => {
    if (!/\(TooManyRequests\)/.test(stderr)) return undefined;
    return new KubeError('throttled', `The cluster API kept asking to slow down (429 Too Many Requests) while trying to ${ctx.action}: ${last(stderr).replace(/^Error from server \(TooManyRequests\): /, '')}`, {
      hint: 'The API server is overloaded or rate-limits this user (API priority and fairness); wait a little, then resume: the session is saved.',
      where,
    });
  },
  // 5xx: the API server, or a component behind it (virt-api serves KubeVirt's subresources), failed or is rolling.
  (stderr, ctx, where) => {
    const m = /Error from server \((InternalError|ServiceUnavailable|BadGateway|ServerTimeout|GatewayTimeout)\)/.exec(stderr);
    if (!m && !/the server is currently unable to handle the request|an error on the server .* has prevented the request from succeeding/.test(stderr)) return undefined;
    return new KubeError('server-error', `The cluster API failed to answer while trying to ${ctx.action} (${m?.[1] ?? 'server error'}): ${last(stderr).replace(/^Error from server \(\w+\): /, '')}`, {
      hint: 'A component of the cluster API (the apiserver, or virt-api for KubeVirt) is failing or restarting; wait until it is Ready, then resume: the session is saved.',
      where,
    });
  },
  (stderr, ctx, where) => {
    if (!/the server doesn't have a resource type|could not find the requested resource|no matches for kind|the server could not find/i.test(stderr)) return undefined;
    return new KubeError('missing-crd', `The cluster does not serve what is needed to ${ctx.action} (a CRD is missing).`, {
      hint: 'Check that KubeVirt, CDI and the storage operator are installed on this cluster.',
      where,
      kind: 'failed',
    });
  },
  (stderr, ctx, where) => {
    if (!/\(NotFound\)|"[^"]*" not found/.test(stderr)) return undefined;
    return new KubeError('not-found', `Not found while trying to ${ctx.action}: ${last(stderr).replace(/^Error from server \(NotFound\): /, '')}`, { kind: 'failed', where });
  },
  (stderr, _ctx, where) => {
    if (!/context "([^"]+)" does not exist|error loading config|no configuration has been provided|invalid configuration|stat .*: no such file/i.test(stderr)) return undefined;
    return new KubeError('config', `The cluster access file cannot be used: ${last(stderr).replace(/^error: /, '')}.`, {
      hint: 'Check --kubeconfig and --context (or the params file): the file must exist and hold that context.',
      where,
      kind: 'input',
    });
  },
  (stderr, ctx, where) => {
    if (!/connection refused|was refused|no such host|Unable to connect to the server|network is unreachable|connection reset|EOF$/im.test(stderr)) return undefined;
    return new KubeError('unreachable', `The cluster API cannot be reached while trying to ${ctx.action}: ${last(stderr).replace(/^error: /, '')}`, {
      hint: 'Check the server address in the kubeconfig, the network or VPN; the session is saved, resume to retry.',
      where,
    });
  },
];

function timeoutError(ctx: FailureContext, where: string): KubeError {
  const plugin = ctx.plugin ? ` (or its credential plugin ${ctx.plugin.command} did not return)` : '';
  return new KubeError('timeout', `The cluster did not answer in time (${seconds(ctx.timeoutMs)}s)${plugin} while trying to ${ctx.action}.`, {
    hint: `Check the cluster API is reachable and not overloaded (network, VPN, proxy)${ctx.plugin ? `, and that ${ctx.plugin.command} gives credentials when run by hand` : ''}; the session is saved, resume to retry.`,
    where,
  });
}

export function classifyKubectlFailure(stderr: string, ctx: FailureContext, opts: { timedOut?: boolean; enoent?: boolean; spawnError?: string } = {}): KubeError {
  const where = ctx.kubeconfig ? `kubeconfig ${ctx.kubeconfig}` : 'kubectl';
  if (opts.enoent) {
    return new KubeError('no-kubectl', 'kubectl is not on the PATH.', { hint: 'Install kubectl 1.30 or newer (or put it on the PATH) and try again.' });
  }
  if (opts.spawnError) {
    return new KubeError('no-kubectl', `kubectl cannot be started (${opts.spawnError}).`, { hint: 'Check that the kubectl on the PATH is an executable the current user may run.' });
  }
  if (opts.timedOut) return timeoutError(ctx, where);
  for (const rule of RULES) {
    const error = rule(stderr, ctx, where);
    if (error) return error;
  }
  return new KubeError('failed', `kubectl failed while trying to ${ctx.action}: ${last(stderr) || 'no error text'}`, { where, kind: 'failed' });
}

/** A kubectl process printed more than the cap: a runaway answer, or a cluster larger than the cap allows. */
export function outputTooLarge(ctx: FailureContext, cap: string): KubeError {
  return new KubeError('too-large', `The cluster's answer while trying to ${ctx.action} was larger than ${cap}; the call was stopped.`, {
    hint: 'Check that the kubeconfig points at the right cluster. If the cluster really is that large, raise settings.kubectlMaxOutput in the runbook.',
    where: ctx.kubeconfig ? `kubeconfig ${ctx.kubeconfig}` : 'kubectl',
  });
}

export const isKubeError = (err: unknown, failure?: KubeFailure): err is KubeError => err instanceof KubeError && (failure === undefined || err.failure === failure);

