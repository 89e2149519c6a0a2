/**
 * One HTTP exchange with the profile API (got), with the auth headers, the retry policy and the
 * mapping of every failure to a typed error. Retries are the caller's choice per call: reads and
 * draft PUTs (a PUT replaces the whole draft, so sending it twice is harmless) retry transient
 * failures; a publish never does (see client.ts). A 429 (or a 503 with Retry-After) on a call that
 * is not retried here comes back with `retryAfterMs`: the request was not applied, and the
 * engine's gateway reads back, waits and sends it again (runner.ts).
 *
 * Every answer is read up to `maxResponseBytes` (after decompression) and no further: an answer
 * that streams forever is cut off there, and `timeoutMs` bounds the whole exchange, body included.
 * The key goes only to the base URL's origin: redirects are never followed, and a plain http://
 * base URL on another host is refused unless the operator allowed it.
 */
import { gotOnDemand } from '../net/got-on-demand.js';
import { Agent as HttpAgent, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { InputError, InterruptedError, PilotError } from '../errors.js';
import type { Clock } from '../engine/clock.js';
import { formatBytes, LIMITS } from '../io/limits.js';
import type { Redactor } from '../session/redact.js';
import { sanitizeText } from '../text/sanitize.js';
import { isTlsCode, networkError, statusError, tooLargeError, type CallInfo } from './errors.js';
import type { Limiter } from './rate-limit.js';
import { backoffDelay, parseRetryAfter, transientNetworkCode, transientStatus, type RetryInfo, type RetryPolicy } from './retry.js';
import { ErrorBodySchema, type ErrorBody } from './schemas.js';
import { allowSharing, untilAborted } from '../net/shared-signal.js';

export interface TransportOptions {
  baseUrl: string;
  projectUid: string;
  apiKey: string;
  timeoutMs: number;
  redactor: Redactor;
  retry: RetryPolicy;
  onRetry?: (info: RetryInfo) => void;
  clock: Clock;
  /** Client-side rate limits (rate-limit.ts): every attempt waits for its slot. */
  limiter?: Limiter;
  /** Most bytes of one answer (default LIMITS.paletteResponse). */
  maxResponseBytes?: number;
  /** Accept a plain http:// base URL on a host that is not this machine. */
  allowInsecureHttp?: boolean;
  /** Every answer that succeeded (the capture records what the product reads). */
  onReply?: (call: Call, reply: Reply) => void;
  /** Reads shared with the other clients of this process (a fleet's clusters): see SharedReads. */
  shared?: SharedReads;
}

/**
 * Answers several clients of one process read alike (a fleet's clusters read one pack registry and
 * the same profile versions): `read` gives the one answer to `call` for everyone, sending it once
 * with `send`, or undefined when `call` is not one to share; `changed` is told of every change sent
 * (whatever came of it), so an answer it may have made stale is not given again.
 */
export interface SharedReads {
  read(call: Call, send: () => Promise<Reply>): Promise<Reply> | undefined;
  changed(call: Call): void;
}

export interface Call {
  method: 'GET' | 'PUT' | 'PATCH' | 'POST' | 'DELETE';
  /** Relative to the base URL, starting with `/v1/`. */
  path: string;
  body?: unknown;
  /** Retry transient failures (only for calls that are safe to repeat). */
  retry: boolean;
  /** A POST that only reads (Palette's filtered lists): its failure never "may have applied" anything. */
  read?: boolean;
  /** What a 404 means for this call, in the operator's terms. */
  notFound?: { message: string; hint: string };
  signal?: AbortSignal;
}

export interface Reply {
  status: number;
  readonly text: string;
  /** The answer's bytes in the pieces they came in, until its text is read: a reader that needs part of a large answer decodes only that part (lean-json.ts). */
  readonly pieces?: readonly Buffer[];
  /** The answer's JSON, parsed once for every reader of an answer several share (a fleet's clusters): frozen, read it, never change it. */
  json?(): unknown;
}

/** A 2xx answer kept as the pieces that came until its text is asked for; then as that text alone. */
class ReceivedReply implements Reply {
  #pieces: Buffer[] | undefined;
  #text: string | undefined;

  constructor(
    readonly status: number,
    pieces: Buffer[],
  ) {
    this.#pieces = pieces;
  }

  get text(): string {
    if (this.#text === undefined) {
      this.#text = joined(this.#pieces!).toString('utf8');
      this.#pieces = undefined;
    }
    return this.#text;
  }

  get pieces(): readonly Buffer[] | undefined {
    return this.#pieces;
  }
}

const joined = (pieces: Buffer[]): Buffer => (pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces));

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as it came: joined only when read as text (a large answer read in part is never copied whole). */
  pieces: Buffer[];
}

type Failure = { kind: 'status'; response: Answer } | { kind: 'network'; code: string; sent: boolean } | { kind: 'too-large' };

/** Hosts that are this machine: plain http to them never crosses a network. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * Refuses a base URL that would send the key unencrypted across a network: plain http:// to a
 * host that is not this machine, unless the operator explicitly allowed it.
 */
export function assertSafeBaseUrl(baseUrl: string, allowInsecureHttp = false): void {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return; // the params schema already refuses what is not a URL
  }
  if (url.protocol !== 'http:' || allowInsecureHttp || isLoopbackHost(url.hostname)) return;
  throw new InputError('palette.insecure-http', `palette.baseUrl ${displayUrl(baseUrl)} is plain http:// to another host: the API key would cross the network unencrypted, readable by anything on the path.`, {
    hint: 'Use the https:// address of the API (Palette serves HTTPS). If this path is trusted (a lab network), allow it explicitly with --allow-insecure-http or palette.allowInsecureHttp: true in the params file.',
    where: 'palette.baseUrl',
  });
}

/** The base URL as shown in messages: no credentials, no trailing slash. */
export function displayUrl(baseUrl: string): string {
  try {
    const u = new URL(baseUrl);
    u.username = '';
    u.password = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return baseUrl;
  }
}

function abortError(signal: AbortSignal): PilotError {
  return signal.reason instanceof PilotError ? signal.reason : new InterruptedError();
}

/**
 * A change goes out on a connection of its own. A kept-alive connection the server is closing at
 * that moment (both ends drop an idle one after about 5 s) fails the request with "closed without
 * an answer", and a change is never sent twice on a guess: the run would stop on a request that
 * never reached the server. Reads keep reusing connections: they are retried.
 */
const freshConnections = { http: new HttpAgent({ keepAlive: false }), https: new HttpsAgent({ keepAlive: false }) };

export class Transport {
  private readonly shownUrl: string;

  constructor(private readonly opts: TransportOptions) {
    assertSafeBaseUrl(opts.baseUrl, opts.allowInsecureHttp);
    this.shownUrl = displayUrl(opts.baseUrl);
  }

  async send(call: Call): Promise<Reply> {
    const shared = this.opts.shared;
    if (!shared) return this.sendOwn(call);
    if (call.method === 'GET' || call.read) {
      // Sent once for every client, so with no client's own stop signal; each waits as long as its own lets it.
      const { signal, ...unsignalled } = call;
      const answer = shared.read(call, () => this.sendOwn(unsignalled));
      if (answer) return untilAborted(answer, signal, () => abortError(signal!));
      return this.sendOwn(call);
    }
    try {
      return await this.sendOwn(call);
    } finally {
      shared.changed(call);
    }
  }

  private async sendOwn(call: Call): Promise<Reply> {
    const { clock, retry: policy } = this.opts;
    const started = clock.now();
    const maxAttempts = call.retry ? Math.max(1, policy.attempts) : 1;
    for (let attempt = 1; ; attempt++) {
      if (call.signal?.aborted) throw abortError(call.signal);
      const failure = await this.once(call);
      if (failure instanceof ReceivedReply) {
        this.opts.onReply?.(call, failure);
        return failure;
      }
      const next = this.nextDelay(failure, attempt);
      const elapsed = clock.now() - started;
      if (!call.retry || next === undefined || attempt >= maxAttempts || elapsed + next.delayMs > policy.maxTotalMs) {
        throw this.toError(call, failure, attempt);
      }
      this.opts.onRetry?.({ call: `${call.method} ${call.path}`, attempt, reason: next.reason, delayMs: next.delayMs });
      await clock.sleep(next.delayMs, call.signal).catch((err: unknown) => {
        throw call.signal?.aborted ? abortError(call.signal) : err;
      });
    }
  }

  private async once(call: Call): Promise<ReceivedReply | Failure> {
    allowSharing(call.signal);
    // Loaded before the slot is taken: the first request's wait for the module is not the limiter's.
    const { default: got, RequestError } = await gotOnDemand();
    await this.opts.limiter?.acquire(call.path, call.signal);
    const letThrough = Date.now();
    const { apiKey, projectUid, timeoutMs } = this.opts;
    const max = this.opts.maxResponseBytes ?? LIMITS.paletteResponse;
    const headers: Record<string, string> = { ApiKey: apiKey, ProjectUid: projectUid, Accept: 'application/json' };
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    try {
      const answer = await new Promise<Answer | 'too-large'>((resolve, reject) => {
        const stream = got.stream(`${this.opts.baseUrl}${call.path}`, {
          method: call.method,
          headers,
          ...(body !== undefined ? { body } : {}),
          ...(call.signal ? { signal: call.signal } : {}),
          ...(call.retry ? {} : { agent: freshConnections }),
          throwHttpErrors: false,
          followRedirect: false,
          retry: { limit: 0 },
          // The whole exchange, the body included: an answer that drips forever ends here.
          timeout: { request: timeoutMs },
        });
        // In stream mode a method that may carry a body waits for one: a bodiless PATCH is ended here.
        if (body === undefined && call.method !== 'GET') stream.end();
        let status = 0;
        let responseHeaders: IncomingHttpHeaders = {};
        const chunks: Buffer[] = [];
        let size = 0;
        let settled = false;
        const tooLarge = () => {
          if (settled) return;
          settled = true;
          stream.destroy();
          resolve('too-large');
        };
        stream.on('response', (response: { statusCode: number; headers: IncomingHttpHeaders }) => {
          // When the request really left (its bytes written), next to when the limiter let it through: wall clock, as got's timings are.
          const upload = stream.timings?.upload;
          if (upload !== undefined) this.opts.limiter?.sent?.(call.path, upload - letThrough);
          status = response.statusCode;
          responseHeaders = response.headers;
          const declared = Number(response.headers['content-length']);
          if (!response.headers['content-encoding'] && Number.isFinite(declared) && declared > max) tooLarge();
        });
        stream.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > max) return tooLarge();
          chunks.push(chunk);
        });
        // got's request stream is not destroyed on its own (autoDestroy: false), and only its destroy
        // removes its listener from the call's signal: a session's signal, or the fleet's, outlives
        // thousands of requests, and each one left there kept its answer alive (the fleet coordinator
        // grew by every cluster it ran, 1.1 GB after 68). So the stream is destroyed once settled.
        stream.on('end', () => {
          if (settled) return;
          settled = true;
          resolve({ status, headers: responseHeaders, pieces: chunks });
          stream.destroy();
        });
        stream.on('error', (err: unknown) => {
          if (settled) return;
          settled = true;
          reject(err);
          stream.destroy();
        });
      });
      if (answer === 'too-large') return { kind: 'too-large' };
      if (answer.status >= 200 && answer.status < 300) return new ReceivedReply(answer.status, answer.pieces);
      return { kind: 'status', response: answer };
    } catch (err) {
      if (call.signal?.aborted) throw abortError(call.signal);
      if (!(err instanceof RequestError)) throw err;
      // Only the code is kept: got's error carries the request options, headers (the key) included.
      const { code } = err;
      return { kind: 'network', code, sent: code !== 'ECONNREFUSED' && code !== 'ENOTFOUND' && !isTlsCode(code) };
    }
  }

  /** How long to wait before the next attempt, or undefined when the failure will not get better. */
  private nextDelay(failure: Failure, attempt: number): { delayMs: number; reason: string } | undefined {
    const { retry: policy } = this.opts;
    if (failure.kind === 'too-large') return undefined;
    if (failure.kind === 'network') {
      return transientNetworkCode(failure.code) ? { delayMs: backoffDelay(attempt, policy), reason: failure.code } : undefined;
    }
    const status = failure.response.status;
    const asked = this.retryAfter(failure.response);
    if (status === 429) return { delayMs: asked ?? backoffDelay(attempt, policy), reason: '429' };
    return transientStatus(status) ? { delayMs: asked ?? backoffDelay(attempt, policy), reason: String(status) } : undefined;
  }

  /** The server's Retry-After, in ms, when it sent one that can be read. */
  private retryAfter(response: Answer): number | undefined {
    const header = response.headers['retry-after'];
    return parseRetryAfter(Array.isArray(header) ? header[0] : header, this.opts.clock.now());
  }

  private toError(call: Call, failure: Failure, attempts: number): PilotError {
    const info: CallInfo = {
      method: call.method,
      path: call.path,
      baseUrl: this.shownUrl,
      projectUid: this.opts.projectUid,
      timeoutMs: this.opts.timeoutMs,
      mutation: call.method !== 'GET' && call.read !== true,
      ...(call.notFound ? { notFound: call.notFound } : {}),
    };
    if (failure.kind === 'too-large') return tooLargeError(info, formatBytes(this.opts.maxResponseBytes ?? LIMITS.paletteResponse));
    if (failure.kind === 'network') return networkError(info, failure.code, attempts, failure.sent);
    const { status } = failure.response;
    // Not retried here (a publish): a "come back later" means it was not applied; the gateway
    // reads back, waits and sends it again within its own budget.
    const asked = this.retryAfter(failure.response);
    const deferred = !call.retry && (status === 429 || (status === 503 && asked !== undefined)) ? { retryAfterMs: asked ?? 1_000 } : {};
    return statusError(info, status, this.errorBody(joined(failure.response.pieces).toString('utf8')), attempts, deferred);
  }

  /**
   * The API's `{code, message, ref}`, scrubbed (a server could echo what it was sent) and made safe
   * to show: no terminal control sequences, a sane length (an error body can be 5 MB of anything).
   */
  private errorBody(text: string): ErrorBody | undefined {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      const snippet = this.shown(text.trim(), 200);
      return snippet ? { message: snippet } : undefined;
    }
    const parsed = ErrorBodySchema.safeParse(json);
    if (!parsed.success) return undefined;
    const out: ErrorBody = {};
    if (parsed.data.code !== undefined) out.code = this.shown(parsed.data.code, 100);
    if (parsed.data.message !== undefined) out.message = this.shown(parsed.data.message, 500);
    if (parsed.data.ref !== undefined) out.ref = this.shown(parsed.data.ref, 100);
    return out;
  }

  /** Server text for a message: scrubbed of the key, without control characters, at most `max` characters. */
  shown(text: string, max: number): string {
    return sanitizeText(this.scrub(text), { max });
  }

  /** The redactor knows the key once it is long enough; the explicit replace covers short keys too. */
  scrub(text: string): string {
    const { apiKey, redactor } = this.opts;
    const out = redactor.text(text);
    return apiKey.length >= 4 ? out.split(apiKey).join('[REDACTED]') : out;
  }
}
