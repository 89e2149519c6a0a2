/**
 * A stub in front of the lab's profile API: it forwards every request and lets a test rewrite the
 * answers (malformed JSON, a different shape, packs under `spec.packs`, an error body echoing the
 * key). What reaches the lab still lands in its audit, so "no mutation" stays provable.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { listenOnLoopback } from '../../support/loopback.js';

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Returns a replacement answer, or undefined to pass the lab's answer through unchanged; `hang`
 * accepts and never answers, `stream` answers 200 with a body that never ends.
 */
export type Rewrite = (req: { method: string; path: string }, answer: Answer) => Answer | 'hang' | 'stream' | undefined;

export interface PaletteProxy {
  url: string;
  /** Requests seen, as `METHOD path`. */
  seen: string[];
  setRewrite(rewrite: Rewrite | undefined): void;
  close(): Promise<void>;
}

const read = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

export async function paletteProxy(target: string): Promise<PaletteProxy> {
  let rewrite: Rewrite | undefined;
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://proxy');
    seen.push(`${method} ${url.pathname}`);
    void (async () => {
      try {
        const body = await read(req);
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'connection' && k !== 'content-length') headers[k] = v;
        const upstream = await fetch(`${target}${req.url ?? '/'}`, { method, headers, ...(body.length ? { body } : {}) });
        const answer: Answer = { status: upstream.status, headers: { 'content-type': upstream.headers.get('content-type') ?? 'application/json' }, body: await upstream.text() };
        const retry = upstream.headers.get('retry-after');
        if (retry) answer.headers['retry-after'] = retry;
        const out = rewrite?.({ method, path: url.pathname }, answer) ?? answer;
        if (out === 'hang') return;
        if (out === 'stream') {
          res.writeHead(200, { 'content-type': 'application/json' });
          const chunk = Buffer.alloc(256 * 1024, ' ');
          const pump = () => {
            while (!res.destroyed && res.write(chunk));
          };
          res.on('drain', pump);
          return pump();
        }
        res.writeHead(out.status, { ...out.headers, 'content-length': String(Buffer.byteLength(out.body)) });
        res.end(out.body);
      } catch {
        res.destroy();
      }
    })();
  });
  const loopback = await listenOnLoopback(server);
  return {
    url: loopback.url,
    seen,
    setRewrite: (r) => {
      rewrite = r;
    },
    close: loopback.close,
  };
}

/** Rewrites the JSON answer of `GET path` with `change` (which edits the parsed document in place). */
export function editJson(pathMatch: (path: string) => boolean, change: (doc: Record<string, unknown>) => unknown): Rewrite {
  return (req, answer) => {
    if (req.method !== 'GET' || !pathMatch(req.path) || answer.status !== 200) return undefined;
    const doc = JSON.parse(answer.body) as Record<string, unknown>;
    const replaced = change(doc);
    return { ...answer, body: JSON.stringify(replaced === undefined ? doc : replaced) };
  };
}
