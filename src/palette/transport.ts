/**
 * One HTTP exchange with the profile API (got), with the auth headers, the retry policy and the
 * mapping of every failure to a typed error. Retries are the caller's choice per call: reads and
 * draft PUTs (a PUT replaces the whole draft, so sending it twice is harmless) retry transient
 * failures; a publish never does (see client.ts).
 */
import got, { RequestError, type Response } from 'got';
import { InterruptedError, PilotError } from '../errors.js';
import type { Clock } from '../engine/clock.js';
import type { Redactor } from '../session/redact.js';
import { networkError, statusError, type CallInfo } from './errors.js';
import type { Limiter } from './rate-limit.js';
import { backoffDelay, parseRetryAfter, transientNetworkCode, transientStatus, type RetryInfo, type RetryPolicy } from './retry.js';
import { ErrorBodySchema, type ErrorBody } from './schemas.js';

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
}

export interface Call {
  method: 'GET' | 'PUT' | 'PATCH' | 'POST' | 'DELETE';
  /** Relative to the base URL, starting with `/v1/`. */
  path: string;
  body?: unknown;
  /** Retry transient failures (only for calls that are safe to repeat). */
  retry: boolean;
  /** What a 404 means for this call, in the operator's terms. */
  notFound?: { message: string; hint: string };
  signal?: AbortSignal;
}

export interface Reply {
  status: number;
  text: string;
}

type Failure = { kind: 'status'; response: Response<string> } | { kind: 'network'; code: string; sent: boolean };

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

export class Transport {
  private readonly shownUrl: string;

  constructor(private readonly opts: TransportOptions) {
    this.shownUrl = displayUrl(opts.baseUrl);
  }

  async send(call: Call): Promise<Reply> {
    const { clock, retry: policy } = this.opts;
    const started = clock.now();
    const maxAttempts = call.retry ? Math.max(1, policy.attempts) : 1;
    for (let attempt = 1; ; attempt++) {
      if (call.signal?.aborted) throw abortError(call.signal);
      const failure = await this.once(call);
      if ('text' in failure) return failure;
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

  private async once(call: Call): Promise<Reply | Failure> {
    await this.opts.limiter?.acquire(call.path, call.signal);
    const { apiKey, projectUid, timeoutMs } = this.opts;
    const headers: Record<string, string> = { ApiKey: apiKey, ProjectUid: projectUid, Accept: 'application/json' };
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    try {
      const response = await got(`${this.opts.baseUrl}${call.path}`, {
        method: call.method,
        headers,
        ...(body !== undefined ? { body } : {}),
        ...(call.signal ? { signal: call.signal } : {}),
        throwHttpErrors: false,
        followRedirect: false,
        retry: { limit: 0 },
        timeout: { request: timeoutMs },
        responseType: 'text',
      });
      if (response.statusCode >= 200 && response.statusCode < 300) return { status: response.statusCode, text: response.body };
      return { kind: 'status', response };
    } catch (err) {
      if (call.signal?.aborted) throw abortError(call.signal);
      if (!(err instanceof RequestError)) throw err;
      // Only the code is kept: got's error carries the request options, headers (the key) included.
      const { code } = err;
      return { kind: 'network', code, sent: code !== 'ECONNREFUSED' && code !== 'ENOTFOUND' };
    }
  }

  /** How long to wait before the next attempt, or undefined when the failure will not get better. */
  private nextDelay(failure: Failure, attempt: number): { delayMs: number; reason: string } | undefined {
    const { retry: policy, clock } = this.opts;
    if (failure.kind === 'network') {
      return transientNetworkCode(failure.code) ? { delayMs: backoffDelay(attempt, policy), reason: failure.code } : undefined;
    }
    const status = failure.response.statusCode;
    if (status === 429) {
      const header = failure.response.headers['retry-after'];
      const asked = parseRetryAfter(Array.isArray(header) ? header[0] : header, clock.now());
      return { delayMs: asked ?? backoffDelay(attempt, policy), reason: '429' };
    }
    return transientStatus(status) ? { delayMs: backoffDelay(attempt, policy), reason: String(status) } : undefined;
  }

  private toError(call: Call, failure: Failure, attempts: number): PilotError {
    const info: CallInfo = {
      method: call.method,
      path: call.path,
      baseUrl: this.shownUrl,
      projectUid: this.opts.projectUid,
      timeoutMs: this.opts.timeoutMs,
      mutation: call.method !== 'GET',
      ...(call.notFound ? { notFound: call.notFound } : {}),
    };
    if (failure.kind === 'network') return networkError(info, failure.code, attempts, failure.sent);
    return statusError(info, failure.response.statusCode, this.errorBody(failure.response.body), attempts);
  }

  /** The API's `{code, message, ref}`, scrubbed: a server could echo what it was sent. */
  private errorBody(text: string): ErrorBody | undefined {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      const snippet = text.trim().slice(0, 200);
      return snippet ? { message: this.scrub(snippet) } : undefined;
    }
    const parsed = ErrorBodySchema.safeParse(json);
    if (!parsed.success) return undefined;
    const out: ErrorBody = {};
    if (parsed.data.code !== undefined) out.code = this.scrub(parsed.data.code);
    if (parsed.data.message !== undefined) out.message = this.scrub(parsed.data.message);
    if (parsed.data.ref !== undefined) out.ref = this.scrub(parsed.data.ref);
    return out;
  }

  /** The redactor knows the key once it is long enough; the explicit replace covers short keys too. */
  scrub(text: string): string {
    const { apiKey, redactor } = this.opts;
    const out = redactor.text(text);
    return apiKey.length >= 4 ? out.split(apiKey).join('[REDACTED]') : out;
  }
}
