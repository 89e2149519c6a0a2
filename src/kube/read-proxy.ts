/**
 * One `kubectl proxy` for a run's reads. Every `kubectl get --raw` costs a kubectl start (two Go
 * programs with the version dispatcher: ~90 ms of CPU) before a byte moves, and a verification
 * round makes 15 of them; through one proxy the same reads cost one start and a request each
 * (BENCHMARKS.md, section 1). kubectl still does what it is for: the kubeconfig, the context,
 * exec credential plugins, TLS to the API server. Only reads go through it; changes stay
 * `kubectl` commands with their exact argv, journaled.
 *
 * - It listens on a Unix socket in the run's private scratch folder (mode 0700), never on a TCP
 *   port another user of the machine could reach, and refuses every method but GET and HEAD.
 * - It cannot outlive the run: it runs in its own process group under a small `sh` watchdog that
 *   holds the read end of a pipe from this process. When this process ends in any way (SIGKILL
 *   included) the pipe closes and the watchdog kills the group; `close()` and exit kill it too.
 * - The caller uses only its 200 answers. Anything else (the API's refusal, a proxy error, a proxy
 *   that did not start) is read again as `kubectl get --raw`, whose failure is classified as it
 *   always was (src/kube/errors.ts); a read that ran out of time is not: it is reported at once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { boundedRequest, HttpFailure } from '../net/bounded-http.js';
import { signalGroup, trackGroup, untrackGroup } from './process-group.js';

export interface ReadProxyOptions {
  /** The kubectl program. */
  file: string;
  /** The flags every kubectl call carries (kubeconfig, context, request timeout, cache folder). */
  pinned: string[];
  env: NodeJS.ProcessEnv;
  /** A private folder of this run: the socket goes there. */
  dir: string;
  /** How long kubectl may take to start serving. */
  startTimeoutMs: number;
  /** Requests at once (the runner's concurrency). */
  maxSockets: number;
  /**
   * The kubeconfig's server URL has a path (a gateway's, `/k8s/clusters/c-abc`): kubectl proxy
   * keeps it in front of every request only with `--append-server-path` (kubectl 1.21+,
   * kubernetes/kubernetes#97350); without it every read would reach the gateway's root.
   */
  appendServerPath?: boolean;
}

/**
 * What a read through the proxy gave. `fallback`: read it with `kubectl get --raw` instead.
 * `server-status`: the API server itself answered 429 or 5xx (a Kubernetes Status, passed through):
 * a failure that may pass, which the caller may try again without a process.
 */
export type ProxyAnswer =
  | { kind: 'ok'; body: Buffer }
  | { kind: 'timeout' }
  | { kind: 'canceled' }
  | { kind: 'too-large' }
  | { kind: 'fallback'; reason: string; said?: string }
  | { kind: 'server-status'; status: number; reason: string; message: string; retryAfter?: string };

/**
 * A 429 or 5xx that the API server wrote (a `Status`), not one of kubectl proxy's own (a 502 with
 * its error text when it cannot reach the server, TLS and credentials included): those are read
 * again as a process, whose error output says exactly what is wrong.
 */
function serverStatus(status: number, body: Buffer, retryAfter: string | undefined): ProxyAnswer | undefined {
  if (status !== 429 && (status < 500 || status > 504)) return undefined;
  let doc: unknown;
  try {
    doc = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  const s = doc as { kind?: unknown; reason?: unknown; message?: unknown; code?: unknown };
  if (s?.kind !== 'Status' || s.code !== status) return undefined;
  return {
    kind: 'server-status',
    status,
    reason: typeof s.reason === 'string' && s.reason ? s.reason : status === 429 ? 'TooManyRequests' : 'InternalError',
    message: typeof s.message === 'string' ? s.message : '',
    ...(retryAfter !== undefined ? { retryAfter } : {}),
  };
}

/** Unix socket paths are limited to 107 bytes on Linux (103 on macOS): beyond that, no proxy. */
const MAX_SOCKET_PATH = 100;

/**
 * The watchdog: starts kubectl (its stdin closed, fd 3 not passed on), and a reader of this
 * process's pipe (fd 3) that, when the pipe closes, kills the whole group: kubectl, and whatever it
 * started (an exec credential plugin may ignore SIGTERM). Exits with kubectl's status.
 */
const WATCHDOG = 'exec 3<&0; "$@" </dev/null 3<&- & k=$!; { read _ <&3; kill -KILL 0; } & w=$!; wait $k; s=$?; kill $w 2>/dev/null; exit $s';

export class ReadProxy {
  private child: ChildProcess | undefined;
  private ready: Promise<boolean> | undefined;
  private agent: Agent | undefined;
  private closed = false;
  /** kubectl did not start serving in a request's time: the reads waiting for it time out as one would. */
  private startTimedOut = false;
  private readonly socketPath: string;
  /** Why the proxy is not used, once it is not. */
  unusable: string | undefined;

  constructor(private readonly opts: ReadProxyOptions) {
    this.socketPath = join(opts.dir, 'kubectl-proxy.sock');
    if (Buffer.byteLength(this.socketPath) > MAX_SOCKET_PATH) this.unusable = `the socket path would be too long (${this.socketPath})`;
  }

  /** Starts kubectl on first use; true once it serves. Concurrent callers share the start. */
  private start(): Promise<boolean> {
    this.ready ??= new Promise<boolean>((resolve) => {
      const args = [
        ...this.opts.pinned,
        'proxy',
        `--unix-socket=${this.socketPath}`,
        '--reject-methods=^(POST|PUT|PATCH|DELETE|CONNECT|OPTIONS|TRACE)$',
        ...(this.opts.appendServerPath ? ['--append-server-path'] : []),
      ];
      const child = spawn('sh', ['-c', WATCHDOG, 'upgrade-pilot-kubectl-proxy', this.opts.file, ...args], { detached: true, env: this.opts.env, stdio: ['pipe', 'pipe', 'pipe'] });
      this.child = child;
      const pgid = child.pid;
      if (pgid !== undefined) trackGroup(pgid);
      let said = '';
      let stderr = '';
      const settle = (ok: boolean, reason?: string) => {
        clearTimeout(timer);
        child.stdout!.removeAllListeners('data');
        if (!ok) {
          this.unusable ??= reason;
          this.stop();
        }
        resolve(ok);
      };
      const timer = setTimeout(() => {
        this.startTimedOut = true;
        settle(false, `kubectl proxy did not start serving within ${this.opts.startTimeoutMs} ms`);
      }, this.opts.startTimeoutMs);
      child.stdout!.on('data', (chunk: Buffer) => {
        said += chunk.toString('utf8');
        if (said.includes('Starting to serve on')) settle(true);
        else if (said.length > 4096) settle(false, 'kubectl proxy said something unexpected');
      });
      child.stderr!.on('data', (chunk: Buffer) => {
        if (stderr.length < 4096) stderr += chunk.toString('utf8');
      });
      child.stdin!.on('error', () => undefined);
      child.on('error', (e) => settle(false, `kubectl proxy could not start (${e.message})`));
      child.on('exit', (code) => {
        // kubectl is gone; what it started may not be (a plugin that ignores SIGTERM): end the group.
        if (pgid !== undefined) signalGroup(pgid, 'SIGKILL');
        this.unusable ??= `kubectl proxy ended (exit ${code}${stderr.trim() ? `: ${stderr.trim().split('\n').pop()}` : ''})`;
        settle(false, this.unusable);
      });
      // Neither the process nor its pipes keep this process alive: exit ends the group (trackGroup).
      child.unref();
      for (const s of [child.stdin, child.stdout, child.stderr]) (s as unknown as { unref?: () => void } | null)?.unref?.();
    });
    return this.ready;
  }

  /**
   * GET `path` through the proxy: the body of a 200 answer, at most `maxBytes`; anything else is a
   * `fallback` (or a timeout, a cancel, a body over the cap, which the caller reports itself).
   */
  async get(path: string, opts: { timeoutMs: number; maxBytes: number; signal?: AbortSignal | undefined; accept?: string | undefined }): Promise<ProxyAnswer> {
    if (this.unusable || this.closed) return { kind: 'fallback', reason: this.unusable ?? 'closed' };
    const started = Date.now();
    if (!(await this.start())) return this.startTimedOut ? { kind: 'timeout' } : { kind: 'fallback', reason: this.unusable ?? 'not started' };
    this.agent ??= new Agent({ keepAlive: true, maxSockets: this.opts.maxSockets });
    const left = opts.timeoutMs - (Date.now() - started);
    if (left <= 0) return { kind: 'timeout' };
    try {
      const res = await boundedRequest({ url: `http://localhost${path}`, socketPath: this.socketPath, agent: this.agent, headers: { accept: opts.accept ?? 'application/json' }, timeoutMs: left, maxBytes: opts.maxBytes, signal: opts.signal });
      if (res.status === 200) return { kind: 'ok', body: res.body };
      const retryAfter = res.headers['retry-after'];
      const status = serverStatus(res.status, res.body, Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
      if (status) return status;
      // kubectl proxy's own failure (it could not reach or talk to the server): 500, its error as text.
      const own = res.status === 500 && /^text\/plain/.test(String(res.headers['content-type'] ?? '')) ? res.body.subarray(0, 4096).toString('utf8') : undefined;
      return { kind: 'fallback', reason: `HTTP ${res.status}`, ...(own ? { said: own } : {}) };
    } catch (err) {
      if (!(err instanceof HttpFailure)) throw err;
      if (err.kind === 'timeout') return { kind: 'timeout' };
      if (err.kind === 'too-large') return { kind: 'too-large' };
      if (err.kind === 'aborted') return { kind: 'canceled' };
      return { kind: 'fallback', reason: err.detail };
    }
  }

  /** Ends kubectl (and its group); reads after this go through `kubectl get --raw`. */
  close(): void {
    this.closed = true;
    this.stop();
  }

  private stop(): void {
    this.agent?.destroy();
    this.agent = undefined;
    const child = this.child;
    if (!child) return;
    // Nothing in the group has anything to finish: a read proxy keeps no state. SIGKILL, so a
    // credential plugin that ignores SIGTERM goes too; the closed pipe would have the watchdog do it.
    child.stdin?.destroy();
    if (child.pid !== undefined) {
      signalGroup(child.pid, 'SIGKILL');
      untrackGroup(child.pid);
    }
  }
}
