/**
 * The kubectl runner: every call is an argument array with `--kubeconfig`/`--context` pinned,
 * `--request-timeout` and a process timeout, a discovery cache folder per run, and a bounded
 * number of processes at once. A failed call's stdout is never trusted.
 *
 * Each process runs in its own process group, ended whole at its limit (see process-group.ts), so
 * a hung exec credential plugin cannot keep a call alive. When one call times out (at its process
 * limit, or kubectl's own request time-out), the calls queued behind it fail at once with the same
 * cause instead of each waiting out the limit in turn: the same plugin, the same API would hang
 * them too. So a command ends within one process limit
 * (plus the kill grace) of the cluster going silent, whatever the number of calls it had queued.
 */
import { isAscii } from 'node:buffer';
import { LIMITS, formatBytes } from '../io/limits.js';
import type { KubeMutation } from '../engine/mutation.js';
import type { Redactor } from '../session/redact.js';
import { parseRetryAfter } from '../palette/retry.js';
import { classifyKubectlFailure, isTransient, KubeError, outputTooLarge, type FailureContext } from './errors.js';
import { InterruptedError } from '../errors.js';
import { untilAborted } from '../net/shared-signal.js';
import { limiter } from '../io/concurrency.js';
import { parseKubeJson } from './parse-json.js';
import { runInGroup } from './process-group.js';
import type { KubeTarget } from './kubeconfig/target.js';
import { withServerPath } from './raw-path.js';
import { ReadProxy } from './read-proxy.js';
import { proxyOwnFailure, retryWait, sleep } from './read-retry.js';

export interface KubectlOptions {
  kubeconfig?: string | undefined;
  context?: string | undefined;
  /** Passed to every call as `--request-timeout`. */
  requestTimeoutMs: number;
  /** Hard limit on each process (the request timeout does not cover a hung TLS handshake everywhere). */
  processTimeoutMs: number;
  /** Discovery cache for this run (`--cache-dir`), so runs do not share stale discovery. */
  cacheDir: string;
  concurrency: number;
  /** Most bytes one process may print (default LIMITS.kubectlOutput). */
  maxOutputBytes?: number;
  redactor?: Redactor;
  /** Program names, for tests that wrap kubectl to count processes. */
  kubectlPath?: string;
  virtctlPath?: string;
  /** Every finished call, for the command log and for tests. */
  onCall?: (call: KubectlCall) => void;
  /** A read that failed for now (5xx, 429) and is tried again after `delayMs`. */
  onRetry?: (info: { path: string; attempt: number; reason: string; delayMs: number }) => void;
  /**
   * Reads through one `kubectl proxy` on a socket in `cacheDir` (read-proxy.ts) instead of one
   * `kubectl get --raw` process each; what the proxy does not answer with a 200 is read the old way.
   */
  readProxy?: boolean;
  /** Where `$KUBECONFIG` and `~` come from when resolving the kubeconfig (default: this process's). */
  env?: NodeJS.ProcessEnv;
  home?: string;
}

export interface KubectlCall {
  program: string;
  args: string[];
  ms: number;
  ok: boolean;
  /** A read answered by the run's kubectl proxy (no process of its own). */
  viaProxy?: boolean;
}

export interface RawListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  /** Page size; omitted = the server decides (one call for the whole list, which is what we want). */
  limit?: number;
}

/**
 * A list as the server's table (`as=Table`, what `kubectl get` reads): the columns, and per row its
 * cells and, with `includeObject=Metadata`, the object's metadata. A fraction of the whole objects'
 * bytes when only the metadata and a printed column are needed (a 5,000-VMI list: 4.4 MB, not 14).
 */
export interface KubeTable {
  columnDefinitions: Array<{ name?: unknown }>;
  rows: Array<{ cells?: unknown; object?: { metadata?: unknown } }>;
}

/** The table if the server has one for the resource, else the list itself. */
const TABLE_OR_LIST = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';

/**
 * kubectl's answers are UTF-8, and nearly always ASCII: then the one-byte decode gives the same
 * text without UTF-8's checks (4 ms less for a 14 MB list).
 */
const decode = (bytes: Buffer): string => (isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8'));

const seconds = (ms: number) => `${Math.max(1, Math.ceil(ms / 1000))}s`;

/**
 * kubectl's environment: ours, minus the profile API key. kubectl never needs it, and whatever it
 * runs in turn (an exec credential plugin named by the kubeconfig) would otherwise receive it too.
 */
function childEnv(cacheDir: string): NodeJS.ProcessEnv {
  const { UPGRADE_PILOT_API_KEY: _key, ...rest } = process.env;
  return { ...rest, KUBECACHEDIR: cacheDir };
}

/** `kubectl version --client` by binary (and PATH): the same for every session of a process. */
const clientVersions = new Map<string, Promise<string>>();

export class Kubectl {
  private readonly limit: <T>(task: () => Promise<T>) => Promise<T>;
  private calls = 0;
  /** Bumped each time a call times out; calls queued before the bump fail at once. */
  private epoch = 0;

  private proxy: ReadProxy | undefined;
  private closed = false;
  /** The kubeconfig's target, resolved once before the first kubectl runs (or why it cannot be). */
  private resolved: { target: KubeTarget } | { error: KubeError } | undefined;

  constructor(private readonly opts: KubectlOptions) {
    this.limit = limiter(opts.concurrency);
  }

  /**
   * Where kubectl will go (kubeconfig files, context, the server URL's path), checked before any
   * kubectl runs: kubectl would read a FIFO or /dev/zero as its kubeconfig without end. The
   * answer, or the error, is kept: every call of the run gets the same.
   */
  async target(): Promise<KubeTarget> {
    if (!this.resolved) {
      // Loaded when the first kubectl is about to run: YAML and zod stay off the way to the first frame.
      const { resolveKubeTarget } = await import('./kubeconfig/target.js');
      try {
        this.resolved ??= { target: resolveKubeTarget({ kubeconfig: this.opts.kubeconfig, context: this.opts.context, ...(this.opts.env ? { env: this.opts.env } : {}), ...(this.opts.home ? { home: this.opts.home } : {}) }) };
      } catch (err) {
        if (!(err instanceof KubeError)) throw err;
        this.resolved ??= { error: err };
      }
    }
    if ('error' in this.resolved) throw this.resolved.error;
    return this.resolved.target;
  }

  /** What a failure's message names: the action, the access file, its server, its credential plugin, the CA it trusts. */
  private failureContext(action: string, timeoutMs: number, target: KubeTarget | undefined): FailureContext {
    return {
      action,
      kubeconfig: this.opts.kubeconfig,
      timeoutMs,
      ...(target ? { server: target.server } : {}),
      ...(target?.plugin ? { plugin: target.plugin } : {}),
      ...(target?.ca ? { ca: target.ca } : {}),
    };
  }

  /** The read proxy, made on first use once the target is known (it appends the server URL's path). */
  private async readProxy(): Promise<ReadProxy | undefined> {
    if (!this.opts.readProxy || this.closed) return undefined;
    const { serverPath } = await this.target();
    this.proxy ??= new ReadProxy({
      file: this.opts.kubectlPath ?? 'kubectl',
      pinned: this.pinnedFlags(),
      env: childEnv(this.opts.cacheDir),
      dir: this.opts.cacheDir,
      startTimeoutMs: Math.min(this.opts.requestTimeoutMs, this.opts.processTimeoutMs),
      maxSockets: this.opts.concurrency,
      appendServerPath: serverPath !== '',
    });
    return this.proxy;
  }

  /** Ends the read proxy, if one was started. Reads after this start kubectl processes. */
  close(): void {
    this.closed = true;
    this.proxy?.close();
  }

  get kubeconfig(): string | undefined {
    return this.opts.kubeconfig;
  }

  get context(): string | undefined {
    return this.opts.context;
  }

  /** How many kubectl/virtctl processes this runner started. */
  callCount(): number {
    return this.calls;
  }

  /** The flags every kubectl call carries. */
  pinnedFlags(): string[] {
    return [
      ...(this.opts.kubeconfig ? ['--kubeconfig', this.opts.kubeconfig] : []),
      ...(this.opts.context ? ['--context', this.opts.context] : []),
      `--request-timeout=${seconds(this.opts.requestTimeoutMs)}`,
      `--cache-dir=${this.opts.cacheDir}`,
    ];
  }

  /** Runs kubectl; resolves with stdout or throws a classified KubeError. */
  async run(
    args: string[],
    opts: { action: string; stdin?: string; signal?: AbortSignal; program?: 'kubectl' | 'virtctl'; budgetMs?: number; withoutKubeconfig?: boolean } = { action: 'run kubectl' },
  ): Promise<string> {
    const program = opts.program ?? 'kubectl';
    const file = program === 'kubectl' ? (this.opts.kubectlPath ?? 'kubectl') : (this.opts.virtctlPath ?? 'virtctl');
    const pinned = opts.withoutKubeconfig
      ? ['--kubeconfig', '/dev/null', `--cache-dir=${this.opts.cacheDir}`]
      : program === 'kubectl'
        ? this.pinnedFlags()
        : [...(this.opts.kubeconfig ? ['--kubeconfig', this.opts.kubeconfig] : []), ...(this.opts.context ? ['--context', this.opts.context] : [])];
    const timeoutMs = Math.min(this.opts.requestTimeoutMs, this.opts.processTimeoutMs);
    const queuedAt = this.epoch;
    // Before anything runs: the kubeconfig is readable and bounded, its context exists.
    const target = opts.withoutKubeconfig ? undefined : await this.target();
    const context = this.failureContext(opts.action, timeoutMs, target);
    // Raw paths are sent as given: behind a gateway they need the server URL's path.
    const sent = program === 'kubectl' && target ? withServerPath(args, target.serverPath) : args;
    const argv = [...pinned, ...sent];
    return this.limit(async () => {
      if (queuedAt < this.epoch) throw classifyKubectlFailure('', context, { timedOut: true });
      this.calls++;
      const started = Date.now();
      const maxOutput = this.opts.maxOutputBytes ?? LIMITS.kubectlOutput;
      const result = await runInGroup({
        file,
        args: argv,
        env: childEnv(this.opts.cacheDir),
        // A read's retries share its budget: a later attempt gets what is left of it.
        timeoutMs: Math.max(1, Math.min(this.opts.processTimeoutMs, opts.budgetMs ?? Infinity)),
        maxStdout: maxOutput,
        maxStderr: LIMITS.kubectlStderr,
        ...(opts.stdin !== undefined ? { stdin: opts.stdin } : {}),
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
      const ok = !result.timedOut && !result.canceled && !result.tooLarge && result.exitCode === 0;
      this.opts.onCall?.({ program, args: sent, ms: Date.now() - started, ok });
      // Bytes, decoded once: a list of 20,000 pods is tens of MB, and decoding it chunk by chunk
      // into a growing string cost more than the JSON parse that follows.
      if (ok) return decode(result.stdout);
      if (result.canceled) throw new KubeError('failed', `Stopped while trying to ${opts.action}.`, { kind: 'failed' });
      if (result.tooLarge) throw outputTooLarge(context, formatBytes(maxOutput));
      const stderr = this.opts.redactor ? this.opts.redactor.text(result.stderr) : result.stderr;
      const error = classifyKubectlFailure(stderr, context, { timedOut: result.timedOut, enoent: result.enoent, ...(result.spawnError ? { spawnError: result.spawnError } : {}) });
      // Killed at the process limit or timed out by kubectl itself: the calls waiting behind this one fail at once.
      if (error.failure === 'timeout') this.epoch++;
      throw error;
    });
  }

  /**
   * `kubectl get --raw PATH`: the bytes as the server sent them (through the read proxy when there
   * is one). `accept` asks the proxy for another representation; `kubectl get --raw` cannot, so
   * the answer may be either.
   */
  async getRaw(path: string, action: string, signal?: AbortSignal, accept?: string): Promise<string> {
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      const left = this.opts.processTimeoutMs - (Date.now() - started);
      try {
        return await this.readOnce(path, action, signal, accept, left);
      } catch (err) {
        const wait = retryWait(err, attempt, this.opts.processTimeoutMs - (Date.now() - started));
        if (wait === undefined || signal?.aborted) throw err;
        this.opts.onRetry?.({ path, attempt, reason: (err as KubeError).message, delayMs: wait });
        await sleep(wait, signal);
      }
    }
  }

  /** One read: through the proxy when there is one, else (or when it cannot answer) as `kubectl get --raw`. */
  private async readOnce(path: string, action: string, signal: AbortSignal | undefined, accept: string | undefined, budgetMs: number): Promise<string> {
    const proxy = await this.readProxy();
    if (proxy) {
      const text = await this.viaProxy(proxy, path, action, signal, accept, budgetMs);
      if (text !== undefined) return text;
    }
    return this.run(['get', '--raw', path], { action, budgetMs, ...(signal ? { signal } : {}) });
  }

  /**
   * One read through the proxy, under the same limits as a process: the answer, or undefined to
   * read it as `kubectl get --raw` (whose failure says what is wrong in kubectl's own words). A
   * time-out is reported at once, as a process's would be: reading again would double the wait.
   */
  private viaProxy(proxy: ReadProxy, path: string, action: string, signal: AbortSignal | undefined, accept: string | undefined, budgetMs: number): Promise<string | undefined> {
    const timeoutMs = Math.max(1, Math.min(this.opts.requestTimeoutMs, this.opts.processTimeoutMs, budgetMs));
    const context = this.failureContext(action, timeoutMs, this.resolved && 'target' in this.resolved ? this.resolved.target : undefined);
    const maxBytes = this.opts.maxOutputBytes ?? LIMITS.kubectlOutput;
    const queuedAt = this.epoch;
    return this.limit(async () => {
      if (queuedAt < this.epoch) throw classifyKubectlFailure('', context, { timedOut: true });
      const started = Date.now();
      const answer = await proxy.get(path, { timeoutMs, maxBytes, signal, accept });
      if (answer.kind === 'fallback') {
        const known = answer.said === undefined ? undefined : proxyOwnFailure(answer.said, context);
        if (!known) return undefined;
        this.opts.onCall?.({ program: 'kubectl', args: ['get', '--raw', path], ms: Date.now() - started, ok: false, viaProxy: true });
        if (known.failure === 'timeout') this.epoch++;
        throw known;
      }
      this.opts.onCall?.({ program: 'kubectl', args: ['get', '--raw', path], ms: Date.now() - started, ok: answer.kind === 'ok', viaProxy: true });
      switch (answer.kind) {
        case 'ok':
          return decode(answer.body);
        case 'canceled':
          throw new KubeError('failed', `Stopped while trying to ${action}.`, { kind: 'failed' });
        case 'too-large':
          throw outputTooLarge(context, formatBytes(maxBytes));
        case 'timeout':
          this.epoch++;
          throw classifyKubectlFailure('', context, { timedOut: true });
        case 'server-status': {
          // As kubectl would print it: the same classification, and the server's Retry-After kept.
          const error = classifyKubectlFailure(`Error from server (${answer.reason}): ${answer.message}`, context);
          const retryAfterMs = parseRetryAfter(answer.retryAfter, Date.now());
          if (retryAfterMs === undefined || !isTransient(error)) throw error;
          throw new KubeError(error.failure, error.message, { ...(error.hint ? { hint: error.hint } : {}), ...(error.where ? { where: error.where } : {}), retryAfterMs });
        }
      }
    });
  }

  /**
   * A whole list through `get --raw`, with server-side selectors, parsed once. Follows `continue`
   * pages when the server paginates; without a `limit` that is one process per resource kind.
   */
  async listRaw<T = unknown>(apiPath: string, opts: RawListOptions & { action: string; signal?: AbortSignal; fromTable?: (table: KubeTable) => T[] | undefined }): Promise<T[]> {
    const items: T[] = [];
    let token: string | undefined;
    // Ask for the table while the server gives one that `fromTable` can read; else the list.
    let tables = opts.fromTable !== undefined && this.opts.readProxy === true && !this.closed;
    for (;;) {
      const query = new URLSearchParams();
      if (opts.labelSelector) query.set('labelSelector', opts.labelSelector);
      if (opts.fieldSelector) query.set('fieldSelector', opts.fieldSelector);
      if (opts.limit) query.set('limit', String(opts.limit));
      if (token) query.set('continue', token);
      if (tables) query.set('includeObject', 'Metadata');
      const qs = query.toString();
      const text = await this.getRaw(qs ? `${apiPath}?${qs}` : apiPath, opts.action, opts.signal, tables ? TABLE_OR_LIST : undefined);
      const page = parseKubeJson<{ kind?: string; items?: T[] | null; rows?: unknown; metadata?: { continue?: string | null } | null }>(text, apiPath);
      if (page.kind === 'Table' && tables) {
        const rows = Array.isArray(page.rows) && Array.isArray((page as Partial<KubeTable>).columnDefinitions) ? opts.fromTable!(page as unknown as KubeTable) : undefined;
        if (!rows) {
          // A table without what is needed (another version's columns): this page again, as the list.
          tables = false;
          continue;
        }
        for (const item of rows) items.push(item);
      } else {
        // Go writes an empty list's nil slice as null: not set, no items (src/io/optional-field.ts).
        if (page.items === null) page.items = [];
        if (!Array.isArray(page.items)) throw new KubeError('failed', `The cluster answered ${apiPath} without an items list.`, { kind: 'failed' });
        for (const item of page.items) items.push(item);
      }
      token = page.metadata?.continue || undefined;
      if (!token) return items;
    }
  }

  /** One object, or undefined when it does not exist. */
  async getObject<T = unknown>(apiPath: string, action: string, signal?: AbortSignal): Promise<T | undefined> {
    try {
      return parseKubeJson<T>(await this.getRaw(apiPath, action, signal), apiPath);
    } catch (err) {
      if (err instanceof KubeError && err.failure === 'not-found') return undefined;
      throw err;
    }
  }

  /** The client's version, e.g. `v1.32.4`: asked once per binary in a process (a fleet's sessions share the answer). */
  clientVersion(signal?: AbortSignal): Promise<string> {
    const key = `${this.opts.kubectlPath ?? 'kubectl'}\u0000${(this.opts.env ?? process.env).PATH ?? ''}`;
    const known = clientVersions.get(key);
    if (known) return untilAborted(known, signal, () => new InterruptedError());
    // The client alone, so "is kubectl there" does not hang on the access file: even `version
    // --client` reads the kubeconfig (without end, for a FIFO), so it is given an empty one.
    // Asked for everyone, so with no one session's stop (the process time-out bounds it).
    const asked = this.run(['version', '--client', '-o', 'json'], { action: 'read the kubectl version', withoutKubeconfig: true }).then((out) => {
      const parsed = parseKubeJson<{ clientVersion?: { gitVersion?: string } }>(out, 'kubectl version');
      return parsed.clientVersion?.gitVersion ?? 'unknown';
    });
    clientVersions.set(key, asked);
    // A failed ask (no kubectl, a stop) is not kept: the next asks again.
    asked.catch(() => clientVersions.delete(key));
    return untilAborted(asked, signal, () => new InterruptedError());
  }

  /** The only way a change reaches the cluster; called by the engine's journaled gateway alone. */
  async execute(request: KubeMutation, signal?: AbortSignal): Promise<void> {
    await this.run(request.argv, { action: request.summary, program: request.program, ...(request.stdin !== undefined ? { stdin: request.stdin } : {}), ...(signal ? { signal } : {}) });
  }
}
