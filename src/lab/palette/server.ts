/**
 * The lab's Palette API double over plain HTTP: header auth on every request, the profile routes
 * of one dialect, faults per route, an audit entry for every mutating call (and for every call to
 * a route the dialect does not have), and lab control routes.
 *
 * Order of a request: read the body, then (API routes only) the fault plan decides, as a network
 * or load balancer would, before auth; then auth; then the route. Added latency delays the answer,
 * not the work: a mutation is applied first, so a client that times out meanwhile faces the real
 * ambiguity (applied, answer never heard) and must settle by reading.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { digest, type AuditEntry, type AuditLog } from '../audit.js';
import type { FaultPlan } from '../faults.js';
import { apiRoutes, dispatch, type ApiResult, type Route } from './api-routes.js';
import { BodyTooLarge, errorBody, header, newRef, readBody, sameSecret, send } from './http.js';
import { builtInLabRoutes } from './lab-routes.js';
import { registryRoutes, type LabRegistry } from './registry-routes.js';
import type { ProfileStore } from './store.js';
import type { ClusterShape, LabRouteHandler, PaletteDialect, PaletteLabHooks } from './types.js';

export interface PaletteServerOptions {
  store: ProfileStore;
  hooks: PaletteLabHooks;
  audit: AuditLog;
  faults: FaultPlan;
  apiKey: string;
  projectUid: string;
  dialect: PaletteDialect;
  host?: string;
  port?: number;
  /** `'METHOD /path'` → handler, for the lab assembly's control routes (they need the ApiKey too). */
  extraRoutes?: Record<string, LabRouteHandler>;
  /** Routes of other services the lab plays (the cluster's Prometheus): no ApiKey, which never goes there. */
  openRoutes?: Record<string, LabRouteHandler>;
  /** Clock for audit times (the lab's simulated clock); default the wall clock. */
  now?: () => number;
  /** Pack registries the double serves (`/v1/packs`, `/v1/registries/metadata`); none when left out. */
  registries?: LabRegistry[];
  /** How the palette dialect renders the cluster object (a scenario's quirk of a real Palette). */
  clusterShape?: ClusterShape;
  /** Serve these routes instead of the dialect's and the registries' (a replay serves what was captured). */
  routes?: Route[];
  /** Every API request as it arrives (a fleet lab counts them per second against Palette's rates). */
  onRequest?: (method: string, path: string) => void;
}

export interface PaletteServer {
  /** `http://host:port`, no trailing slash. */
  url: string;
  close(): Promise<void>;
}

const mutating = (method: string) => method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';

export async function startPaletteServer(opts: PaletteServerOptions): Promise<PaletteServer> {
  const { store, hooks, audit, faults, apiKey, projectUid, dialect } = opts;
  const now = opts.now ?? Date.now;
  const routes = opts.routes ?? [...apiRoutes(dialect), ...registryRoutes(opts.registries ?? [])];
  const labRoutes: Record<string, LabRouteHandler> = { ...builtInLabRoutes(audit, faults), ...opts.extraRoutes };
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let closing = false;

  const wait = (ms: number) =>
    ms <= 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const t = setTimeout(() => {
            timers.delete(t);
            resolve();
          }, ms);
          timers.add(t);
        });

  /** Mutations, and calls to a route the API does not have (whatever their method): a real API would refuse them too. */
  const record = (method: string, path: string, raw: Buffer, status: number, effect: AuditEntry['effect'], note?: string, kind: { read?: boolean; unknownRoute?: boolean } = {}) => {
    if (!kind.unknownRoute && (!mutating(method) || kind.read)) return;
    const bodyDigest = digest(raw);
    audit.record({
      time: new Date(now()).toISOString(),
      api: 'palette',
      method,
      path,
      status,
      effect,
      ...(bodyDigest ? { bodyDigest } : {}),
      ...(note ? { note } : {}),
    });
  };

  async function handleLab(req: IncomingMessage, res: ServerResponse, method: string, path: string, body: string, ref: string) {
    if (!sameSecret(header(req, 'ApiKey'), apiKey)) return send(res, 401, errorBody('Unauthorized', 'Missing or invalid ApiKey', ref));
    const handler = labRoutes[`${method} ${path}`];
    if (!handler) return send(res, 404, errorBody('ResourceNotFound', `No such lab route: ${method} ${path}`, ref));
    const result = await handler(req, body);
    send(res, result.status, result.body, result.headers);
  }

  /** Header auth (spec 5): the key first (401), then the project scope (403). */
  function authorize(req: IncomingMessage, ref: string): ApiResult | undefined {
    if (!sameSecret(header(req, 'ApiKey'), apiKey)) {
      return { status: 401, body: errorBody('Unauthorized', 'Missing or invalid ApiKey header', ref), effect: 'rejected', note: 'unauthorized' };
    }
    const project = header(req, 'ProjectUid');
    if (project !== projectUid) {
      const message = project ? `No access to project '${project}'` : 'Missing ProjectUid header';
      return { status: 403, body: errorBody('Forbidden', message, ref), effect: 'rejected', note: 'forbidden' };
    }
    return undefined;
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, method: string, url: URL, raw: Buffer, ref: string) {
    const path = url.pathname;
    opts.onRequest?.(method, path);
    const decision = faults.decide(method, path);
    // A fault strikes before any route: a search (POST that reads) still stays out of the audit of mutations.
    const kind = { read: routes.some((r) => r.read === true && r.method === method && r.pattern.test(path)) };
    if (decision.kind === 'hang') {
      record(method, path, raw, 0, 'dropped', 'hang fault: no answer', kind);
      return;
    }
    if (decision.kind === 'drop') {
      await wait(decision.latencyMs);
      record(method, path, raw, 0, 'dropped', 'drop fault: connection destroyed', kind);
      req.socket.destroy();
      return;
    }
    if (decision.kind === 'error') {
      await wait(decision.latencyMs);
      record(method, path, raw, decision.status, 'rejected', `injected ${decision.status}`, kind);
      return send(res, decision.status, errorBody('ServiceUnavailable', `Injected server error ${decision.status}`, ref));
    }
    if (decision.kind === 'unserved') {
      await wait(decision.latencyMs);
      record(method, path, raw, decision.status, 'rejected', `not served (${decision.status})`, kind);
      const body = decision.status === 404 ? errorBody('ResourceNotFound', `No route for ${method} ${path}`, ref) : errorBody('MethodNotAllowed', `Method ${method} is not allowed on ${path}`, ref);
      return send(res, decision.status, body);
    }
    if (decision.kind === 'rateLimit') {
      await wait(decision.latencyMs);
      const unavailable = decision.status === 503;
      record(method, path, raw, decision.status, 'rejected', unavailable ? 'unavailable, retry later' : 'rate limited', kind);
      const body = unavailable ? errorBody('ServiceUnavailable', 'Service unavailable, retry later', ref) : errorBody('TooManyRequests', 'Rate limit exceeded', ref);
      return send(res, decision.status, body, { 'retry-after': String(decision.retryAfterSeconds) });
    }
    const result =
      authorize(req, ref) ??
      dispatch(routes, { store, hooks, dialect, ref, ignorePut: decision.ignorePut, registries: opts.registries ?? [], ...(opts.clusterShape ? { clusterShape: opts.clusterShape } : {}) }, method, path, raw.toString('utf8'), url.searchParams);
    record(method, path, raw, result.status, result.effect, result.note, result);
    // Applied, and the answer never leaves: the client's own time-out ends the request.
    if (decision.loseAnswer) return;
    await wait(decision.latencyMs);
    send(res, result.status, result.body, result.headers);
  }

  const server = createServer((req, res) => {
    const ref = newRef();
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://lab');
    readBody(req)
      .then(async (raw) => {
        const open = opts.openRoutes?.[`${method} ${url.pathname}`];
        if (open) {
          const result = await open(req, raw.toString('utf8'));
          return send(res, result.status, result.body, result.headers);
        }
        if (url.pathname.startsWith('/_lab/')) return handleLab(req, res, method, url.pathname, raw.toString('utf8'), ref);
        return handleApi(req, res, method, url, raw, ref);
      })
      .catch((err: unknown) => {
        if (closing) return;
        if (err instanceof BodyTooLarge) return send(res, 413, errorBody('RequestEntityTooLarge', 'The request body is too large', ref));
        send(res, 500, errorBody('InternalError', err instanceof Error ? err.message : String(err), ref));
      });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        for (const t of timers) clearTimeout(t);
        timers.clear();
        // Hanging requests and idle keep-alive connections would hold close() open forever.
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
