/**
 * HTTP for everything outside the profile client (the lab clock, kubectl's read proxy on its Unix
 * socket): one exchange with a deadline on the whole of it (connect, send, headers, body: a server that drips
 * one byte a minute is cut off like one that never answers), a cap on the body read (an answer that
 * streams forever is aborted at the cap, so memory stays bounded), and no redirects followed (a
 * 3xx comes back as it is; whatever the request carries never goes to a host the caller did not name).
 * No decompression is asked for, so the cap counts the bytes that are really held.
 */
import { request as httpRequest, type Agent, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { formatBytes } from '../io/limits.js';
import { allowSharing } from './shared-signal.js';

export interface BoundedRequestOptions {
  url: string | URL;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Deadline for the whole exchange, body included. */
  timeoutMs: number;
  /** Most body bytes read; more aborts the exchange. */
  maxBytes: number;
  signal?: AbortSignal | undefined;
  /** A Unix socket to reach the URL's path through (kubectl's read proxy); the URL's host is the Host header. */
  socketPath?: string;
  /** Connections kept for the next exchange (the read proxy's). */
  agent?: Agent;
}

export interface BoundedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export type HttpFailureKind = 'bad-url' | 'timeout' | 'too-large' | 'network' | 'aborted';

/** Why an exchange did not complete; `describe()` says it in words for a message. */
export class HttpFailure extends Error {
  constructor(
    readonly kind: HttpFailureKind,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'HttpFailure';
  }
}

/** `https://host:port` of a URL, or undefined when it is not an http(s) URL. */
export function originOf(url: string | URL): string | undefined {
  try {
    const u = typeof url === 'string' ? new URL(url) : url;
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

export function boundedRequest(opts: BoundedRequestOptions): Promise<BoundedResponse> {
  let url: URL;
  try {
    url = typeof opts.url === 'string' ? new URL(opts.url) : opts.url;
  } catch {
    return Promise.reject(new HttpFailure('bad-url', 'not a valid URL'));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.reject(new HttpFailure('bad-url', `${url.protocol} is not http or https`));
  if (opts.signal?.aborted) return Promise.reject(new HttpFailure('aborted', 'stopped'));
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<BoundedResponse>((resolve, reject) => {
    let settled = false;
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(opts.body));
    const req = send(url, { method: opts.method ?? 'GET', headers, ...(opts.socketPath ? { socketPath: opts.socketPath } : {}), ...(opts.agent ? { agent: opts.agent } : {}) });
    const finish = (err: HttpFailure | undefined, value?: BoundedResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (err) {
        req.destroy();
        reject(err);
      } else resolve(value!);
    };
    const timer = setTimeout(() => finish(new HttpFailure('timeout', `no complete answer within ${opts.timeoutMs} ms`)), opts.timeoutMs);
    const onAbort = () => finish(new HttpFailure('aborted', 'stopped'));
    allowSharing(opts.signal);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (err: NodeJS.ErrnoException) => finish(new HttpFailure('network', err.code ?? err.message)));
    req.on('response', (res) => {
      const tooLarge = () => finish(new HttpFailure('too-large', `the answer is larger than ${formatBytes(opts.maxBytes)}`));
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > opts.maxBytes) return tooLarge();
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > opts.maxBytes) return tooLarge();
        chunks.push(chunk);
      });
      // One piece (most answers) is the body as it is: a copy would be garbage for the collector to find.
      res.on('end', () => finish(undefined, { status: res.statusCode ?? 0, headers: res.headers, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) }));
      res.on('error', (err: NodeJS.ErrnoException) => finish(new HttpFailure('network', err.code ?? err.message)));
      res.on('aborted', () => finish(new HttpFailure('network', 'the connection closed before the answer was complete')));
    });
    req.end(opts.body);
  });
}
