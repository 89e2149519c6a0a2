/**
 * The lab's Kubernetes API server, for the real kubectl: HTTPS with a certificate made at start,
 * a bearer token that can expire, discovery, reads with selectors and paging, DELETE, pod logs and
 * KubeVirt's restart subresource, per-route faults, and every mutating call in the audit log.
 * A bad request never takes the process down: every failure becomes a Kubernetes Status.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import { isIP, type AddressInfo, type Socket } from 'node:net';
import { digest, type AuditEntry, type AuditLog } from '../audit.js';
import { generateCertificate } from '../cert.js';
import type { FaultDecision, FaultPlan } from '../faults.js';
import { BearerToken, forbiddenBy, type ForbiddenRule, type TokenClock, type TokenStyle } from './access.js';
import { handleNonResource } from './discovery-handler.js';
import { notFoundPage, readBody, statusReply, writeReply, type Reply } from './http.js';
import type { HandlerDeps } from './request.js';
import { handleResource } from './resource-handler.js';
import { parseRoute, type Route } from './routes.js';
import { checkServerPath, gatewayNotFound, underServerPath } from './server-path.js';
import { KubeStatusException, serverError, tooManyRequests, unauthorized } from './status.js';
import type { ResourceStore } from './store.js';
import type { KubeLabHooks } from './types.js';

export type { ForbiddenRule } from './access.js';

export interface KubeApiServerOptions {
  store: ResourceStore;
  hooks?: KubeLabHooks;
  audit?: AuditLog;
  faults?: FaultPlan;
  host?: string;
  port?: number;
  /** Requests answered 403 Forbidden, as RBAC would. */
  forbid?: ForbiddenRule[];
  /** The user named in Forbidden messages. */
  user?: string;
  /** `jwt` (default: a token whose expiry a client can read) or `opaque`. */
  tokenStyle?: TokenStyle;
  /** The clock the token's `iat`/`exp` are minted on (the lab's simulated clock). */
  tokenClock?: TokenClock;
  /**
   * API groups this cluster does not have installed (e.g. `k8s.cni.cncf.io` without Multus): left
   * out of discovery, and every path in them answered as a real apiserver answers a path it does
   * not serve (404, "the server could not find the requested resource").
   */
  absentGroups?: readonly string[];
  /**
   * Serve the API only under this path, as a gateway does (Rancher: `/k8s/clusters/c-abc`). The
   * kubeconfig's server URL then carries it; a request outside it gets the gateway's answer, a 404
   * (lab-server-path.ts), and is recorded in the audit log so a test can prove none was made.
   */
  serverPath?: string;
}

export interface KubeApiServer {
  /** What a kubeconfig names: `https://127.0.0.1:<port>`, followed by the server path if there is one. */
  readonly url: string;
  /** `https://127.0.0.1:<port>`, without the server path. */
  readonly origin: string;
  /** The server's certificate, which is also the CA a kubeconfig trusts. */
  readonly caPem: string;
  /** The bearer token currently accepted. */
  readonly token: string;
  /** From now on every request is answered 401 until `renewToken`. */
  expireToken(): void;
  /** Issues and returns a new token (rewrite the kubeconfig with it). */
  renewToken(): string;
  /** While on, requests are accepted and never answered. */
  setHung(on: boolean): void;
  /** Requests received so far, answered or not. */
  requestCount(): number;
  /** Stops listening and destroys every open socket, hung ones included. */
  close(): Promise<void>;
}

const MUTATING = new Set(['PUT', 'POST', 'PATCH', 'DELETE']);

/** The API group a route addresses, if any (`''` is the core group, never absent). */
function groupOf(route: Route): string | undefined {
  if (route.kind === 'apiGroup' || route.kind === 'resourceList') return route.group;
  if (route.kind === 'resource') return route.target.group;
  return undefined;
}
const DEFAULT_USER = 'system:serviceaccount:kube-system:upgrade-pilot';
const NO_FAULT: FaultDecision = { kind: 'none', latencyMs: 0, ignorePut: false };

interface Outcome {
  reply: Reply;
  effect?: AuditEntry['effect'];
  note?: string;
}

export async function startKubeApiServer(options: KubeApiServerOptions): Promise<KubeApiServer> {
  const host = options.host ?? '127.0.0.1';
  const hostIsIp = isIP(host) !== 0;
  const { certPem, keyPem } = await generateCertificate({
    commonName: 'upgrade-pilot-lab-apiserver',
    isCA: true,
    ips: [...new Set(['127.0.0.1', ...(hostIsIp ? [host] : [])])],
    dns: [...new Set(['localhost', ...(hostIsIp ? [] : [host])])],
  });

  const serverPath = options.serverPath === undefined ? undefined : checkServerPath(options.serverPath);
  const token = new BearerToken(options.tokenStyle, options.tokenClock);
  const absent = new Set(options.absentGroups ?? []);
  const deps: HandlerDeps = { store: options.store, hooks: options.hooks ?? {} };
  const user = options.user ?? DEFAULT_USER;
  const sockets = new Set<Socket>();
  const pendingDelays = new Set<() => void>();
  let hung = false;
  let closed = false;
  let requests = 0;
  let serverAddress = '';

  const server = createServer({ key: keyPem, cert: certPem });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // Malformed HTTP or TLS from a client costs that client its connection, nothing more.
  server.on('clientError', (_err, socket) => socket.destroy());
  server.on('tlsClientError', () => undefined);

  /** A wait that close() cuts short, so no timer outlives the server. */
  const delay = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        pendingDelays.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      pendingDelays.add(done);
    });

  const record = (method: string, path: string, status: number, body: Buffer | undefined, effect: AuditEntry['effect'], note?: string, always = false): void => {
    if (!options.audit || (!MUTATING.has(method) && !always)) return;
    const bodyDigest = digest(body);
    options.audit.record({ api: 'kube', method, path, status, effect, ...(bodyDigest ? { bodyDigest } : {}), ...(note ? { note } : {}) });
  };

  const answer = (req: IncomingMessage, method: string, url: URL, body: Buffer, fault: FaultDecision): Outcome => {
    if (fault.kind === 'error') return { reply: statusReply(serverError(fault.status, `lab fault: ${fault.status}`)), note: 'fault: error' };
    if (fault.kind === 'unserved') return { reply: notFoundPage(), note: 'fault: not served' };
    if (fault.kind === 'rateLimit') {
      // 503 with Retry-After: an overloaded or restarting server (the apiserver's words for an aggregated API that is down).
      const status = fault.status === 503 ? serverError(503, 'the server is currently unable to handle the request') : tooManyRequests(fault.retryAfterSeconds);
      return { reply: statusReply(status, { 'Retry-After': String(fault.retryAfterSeconds) }), note: 'fault: rate limit' };
    }
    if (!token.accepts(req.headers.authorization)) return { reply: statusReply(unauthorized()) };

    const route = parseRoute(url.pathname);
    if (route.kind === 'unknown' || absent.has(groupOf(route) ?? '')) return { reply: notFoundPage() };
    if (route.kind !== 'resource') return { reply: handleNonResource(route, method, req.headers.accept, serverAddress, absent) };

    const target = route.target;
    const refusal = forbiddenBy(options.forbid ?? [], user, method, target, url.searchParams.get('watch') === 'true');
    if (refusal) return { reply: statusReply(refusal) };
    if (fault.kind === 'none' && fault.ignorePut && method === 'PUT') {
      // "Accepted but ignored": answer like success and never tell the world.
      return { reply: { status: target.subresource ? 202 : 200, contentType: 'application/json', body: '' }, effect: 'ignored', note: 'fault: PUT ignored' };
    }
    return handleResource({ method, target, query: url.searchParams, accept: req.headers.accept, contentType: req.headers['content-type'], body }, deps);
  };

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    requests += 1;
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'https://lab.invalid');
    if (serverPath) {
      const inside = underServerPath(url.pathname, serverPath);
      if (inside === undefined) {
        // The gateway answers, not the cluster: recorded, reads included, so a test can prove none came here.
        record(method, url.pathname, 404, undefined, 'rejected', `outside the server path ${serverPath}`, true);
        await writeReply(res, gatewayNotFound());
        return;
      }
      url.pathname = inside;
    }
    if (hung) {
      record(method, url.pathname, 0, undefined, 'dropped', 'server hung');
      return;
    }
    let body: Buffer | undefined;
    let outcome: Outcome;
    try {
      body = await readBody(req);
      const fault = options.faults?.decide(method, url.pathname) ?? NO_FAULT;
      if (fault.kind === 'hang') {
        record(method, url.pathname, 0, body, 'dropped', 'fault: hang');
        return;
      }
      if (fault.latencyMs > 0) await delay(fault.latencyMs);
      if (closed) return;
      if (fault.kind === 'drop') {
        record(method, url.pathname, 0, body, 'dropped', 'fault: connection dropped');
        req.socket.destroy();
        return;
      }
      outcome = answer(req, method, url, body, fault);
    } catch (err) {
      const status = err instanceof KubeStatusException ? err.status : serverError(500, `lab internal error: ${(err as Error).message}`);
      outcome = { reply: statusReply(status) };
    }
    const status = outcome.reply.status;
    record(method, url.pathname, status, body, outcome.effect ?? (status < 400 ? 'applied' : 'rejected'), outcome.note);
    await writeReply(res, outcome.reply);
  };

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    serve(req, res).catch(() => {
      // The socket went away mid-answer; there is no one left to tell.
      if (!res.destroyed) res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = isIP(host) === 6 ? `[${host}]` : host;
  serverAddress = `${urlHost}:${port}`;

  return {
    url: `https://${serverAddress}${serverPath ?? ''}`,
    origin: `https://${serverAddress}`,
    caPem: certPem,
    get token() {
      return token.value;
    },
    expireToken: () => token.expire(),
    renewToken: () => token.renew(),
    setHung: (on: boolean) => {
      hung = on;
    },
    requestCount: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        if (closed) return resolve();
        closed = true;
        for (const release of [...pendingDelays]) release();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
      }),
  };
}
