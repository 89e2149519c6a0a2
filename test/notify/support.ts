/** A local webhook listener for the notification tests: records what it receives and answers as told. */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface Received {
  at: number;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Listener {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** `ok`: 200; `500`: always 500; `hang`: never answers; `redirect`: 302 to `to`. */
export async function listen(mode: 'ok' | '500' | 'hang' | 'redirect', to?: string): Promise<Listener> {
  const received: Received[] = [];
  const open = new Set<import('node:net').Socket>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      received.push({ at: Date.now(), path: req.url ?? '', headers: req.headers, body });
      if (mode === 'hang') return;
      if (mode === 'redirect') {
        res.writeHead(302, { location: to ?? '/' });
        return res.end();
      }
      res.statusCode = mode === '500' ? 500 : 200;
      res.end(mode === '500' ? 'boom' : 'ok');
    });
  });
  server.on('connection', (s) => {
    open.add(s);
    s.on('close', () => open.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hook/secret-path`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}
