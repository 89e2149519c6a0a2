/**
 * HTTP plumbing for the Kubernetes API double: content negotiation, request bodies, and replies
 * written chunk by chunk with back-pressure (a list of 20,000 pods is tens of megabytes).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { KubeStatusException, badRequest, statusBody, tooLarge, unsupportedMediaType } from './status.js';
import type { KubeStatusError } from './types.js';

export interface Reply {
  status: number;
  contentType: string;
  /** One string, or chunks written in order. */
  body: string | readonly string[];
  headers?: Record<string, string>;
}

export function jsonReply(status: number, value: unknown): Reply {
  return { status, contentType: 'application/json', body: JSON.stringify(value) };
}

export function statusReply(err: KubeStatusError, headers?: Record<string, string>): Reply {
  return { status: err.code, contentType: 'application/json', body: JSON.stringify(statusBody(err)), ...(headers ? { headers } : {}) };
}

/**
 * What the apiserver answers for a path nothing serves, a group that is not installed included:
 * its last handler is Go's `http.NotFound` (k8s.io/apiserver pkg/util/notfoundhandler), plain text,
 * not a Status. kubectl shows it as `Error from server (NotFound): the server could not find the
 * requested resource`.
 */
export function notFoundPage(): Reply {
  return { status: 404, contentType: 'text/plain; charset=utf-8', body: '404 page not found\n', headers: { 'X-Content-Type-Options': 'nosniff' } };
}

export function emptyReply(status: number): Reply {
  return { status, contentType: 'application/json', body: '' };
}

export type Representation = { as: 'json' } | { as: 'table'; apiVersion: 'meta.k8s.io/v1' | 'meta.k8s.io/v1beta1' };

interface MediaRange {
  type: string;
  params: Map<string, string>;
}

function parseAccept(accept: string): MediaRange[] {
  return accept.split(',').map((range) => {
    const [type = '', ...params] = range.split(';').map((s) => s.trim());
    return {
      type: type.toLowerCase(),
      params: new Map(
        params.map((p) => {
          const eq = p.indexOf('=');
          return eq < 0 ? [p.toLowerCase(), ''] : [p.slice(0, eq).toLowerCase(), p.slice(eq + 1)];
        }),
      ),
    };
  });
}

/**
 * What the client accepts, in its order of preference: a Table (kubectl's human output asks
 * `application/json;as=Table;v=v1;g=meta.k8s.io` first) or plain JSON. Undefined when it accepts
 * neither (protobuf only, aggregated discovery only): the caller answers 406.
 */
export function negotiate(accept: string | undefined, tableAllowed: boolean): Representation | undefined {
  if (!accept || accept.trim() === '') return { as: 'json' };
  for (const range of parseAccept(accept)) {
    const jsonLike = range.type === 'application/json' || range.type === '*/*' || range.type === 'application/*';
    if (!jsonLike) continue;
    const as = range.params.get('as');
    if (as === undefined) return { as: 'json' };
    if (as === 'Table' && tableAllowed && range.params.get('g') === 'meta.k8s.io') {
      const v = range.params.get('v');
      if (v === 'v1') return { as: 'table', apiVersion: 'meta.k8s.io/v1' };
      if (v === 'v1beta1') return { as: 'table', apiVersion: 'meta.k8s.io/v1beta1' };
    }
  }
  return undefined;
}

/** Largest body the apiserver accepts (3 MiB). */
const MAX_BODY_BYTES = 3 * 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES) throw new KubeStatusException(tooLarge(MAX_BODY_BYTES));
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

/**
 * A request body as JSON (or YAML when `allowYaml`, as KubeVirt's virt-api decodes). An empty body
 * is undefined. Protobuf and other formats are refused with 415, unparsable text with 400.
 */
export function parseBody(body: Buffer, contentType: string | undefined, allowYaml: boolean): unknown {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const known = type === '' || type === 'application/json' || type === 'application/yaml' || type.endsWith('+json') || type === '*/*' || type === 'text/plain';
  if (!known) throw new KubeStatusException(unsupportedMediaType(type));
  const text = body.toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (jsonError) {
    if (allowYaml) {
      try {
        return parseYaml(text) as unknown;
      } catch {
        // fall through to the JSON error, which names the problem more plainly
      }
    }
    throw new KubeStatusException(badRequest(`the body of the request could not be decoded: ${(jsonError as Error).message}`));
  }
}

/** Writes a reply, waiting for the socket to drain between chunks. */
export async function writeReply(res: ServerResponse, reply: Reply): Promise<void> {
  res.statusCode = reply.status;
  res.setHeader('Content-Type', reply.contentType);
  res.setHeader('Cache-Control', 'no-cache, private');
  for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
  if (typeof reply.body === 'string') {
    res.setHeader('Content-Length', Buffer.byteLength(reply.body));
    res.end(reply.body);
    return;
  }
  for (const chunk of reply.body) {
    if (res.destroyed) return;
    if (!res.write(chunk)) await waitForDrain(res);
  }
  res.end();
}

function waitForDrain(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
