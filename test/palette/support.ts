/** Clients against the lab double (fast retry settings) and a stub server for answers the double never gives. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { PaletteClient, type PaletteClientOptions } from '../../src/palette/client.js';
import type { RetryInfo } from '../../src/palette/retry.js';
import { Redactor } from '../../src/session/redact.js';
import { ADDON_UID, API_KEY, PROJECT_UID, type Lab } from '../lab/palette/support.js';
import { listenOnLoopback } from '../support/loopback.js';

export interface TestClient {
  client: PaletteClient;
  retries: RetryInfo[];
  redactor: Redactor;
}

export function clientFor(url: string, overrides: Partial<PaletteClientOptions> = {}): TestClient {
  const retries: RetryInfo[] = [];
  const redactor = new Redactor();
  const client = new PaletteClient({
    baseUrl: url,
    projectUid: PROJECT_UID,
    apiKey: API_KEY,
    clusterCollection: 'clusters',
    timeoutMs: 2_000,
    redactor,
    retry: { attempts: 4, baseDelayMs: 1, maxDelayMs: 5, maxTotalMs: 5_000 },
    onRetry: (info) => retries.push(info),
    ...overrides,
  });
  return { client, retries, redactor };
}

export const labClient = (lab: Lab, dialect: 'spec' | 'palette', overrides: Partial<PaletteClientOptions> = {}): TestClient =>
  clientFor(lab.url, { clusterCollection: dialect === 'spec' ? 'clusters' : 'spectroclusters', probeUid: ADDON_UID, ...overrides });

export interface Stub {
  url: string;
  requests: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }>;
  close(): Promise<void>;
}

/** A server that answers every request with `handler`; records what it was asked. */
export async function startStub(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Stub> {
  const requests: Stub['requests'] = [];
  const server = createServer((req, res) => {
    const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: '' };
    requests.push(entry);
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (entry.body += chunk));
    req.on('end', () => handler(req, res));
  });
  return { ...(await listenOnLoopback(server)), requests };
}

export const jsonAnswer = (status: number, body: unknown) => (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};
