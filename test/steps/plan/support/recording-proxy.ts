/** A plain HTTP proxy in front of the lab's Palette API that notes when each request reached it (a request log). */
import { createServer, request } from 'node:http';
import { listenOnLoopback } from '../../../support/loopback.js';

export interface RecordingProxy {
  url: string;
  requests: Array<{ at: number; method: string; path: string }>;
  close(): Promise<void>;
}

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const to = new URL(target);
  const requests: RecordingProxy['requests'] = [];
  const server = createServer((req, res) => {
    requests.push({ at: performance.now(), method: req.method ?? 'GET', path: req.url ?? '/' });
    const upstream = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  return { ...(await listenOnLoopback(server)), requests };
}
