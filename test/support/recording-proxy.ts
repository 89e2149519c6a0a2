/**
 * An HTTP proxy in front of the lab's profile API that writes down every API request the product
 * sends (method, path with query, JSON body) and passes it on unchanged; the answer comes back
 * unchanged too. Lab control routes (`/_lab/...`) pass through unrecorded. The contract test
 * points a params file at it, so every command's requests are seen as they were on the wire.
 */
import { createServer, request } from 'node:http';
import type { SentRequest } from './palette-contract.js';
import { listenOnLoopback, type Loopback } from './loopback.js';

export interface RecordingProxy extends Loopback {
  requests: SentRequest[];
}

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const to = new URL(target);
  const requests: SentRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const url = req.url ?? '/';
      if (url.startsWith('/v1/')) {
        const text = raw.toString('utf8');
        let body: unknown;
        try {
          body = text ? (JSON.parse(text) as unknown) : undefined;
        } catch {
          body = text;
        }
        requests.push({ method: req.method ?? 'GET', url, ...(body !== undefined ? { body } : {}) });
      }
      const upstream = request({ host: to.hostname, port: to.port, method: req.method, path: url, headers: { ...req.headers, host: to.host } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      upstream.end(raw);
    });
  });
  return { ...(await listenOnLoopback(server)), requests };
}
