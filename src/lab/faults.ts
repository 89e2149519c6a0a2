/**
 * Fault injection per route, for the network-fault tests: added latency, a rate of 5xx answers,
 * 429 bursts with Retry-After, dropped connections, "accept the PUT but ignore it", a server
 * that accepts and never answers, and one that applies a request and never answers (a lost answer:
 * the change is made whatever the client's timer does). Deterministic under a seed.
 */

export interface RouteFaults {
  latencyMs?: number;
  /** Share of requests answered 500/502/503 (0..1). */
  errorRate?: number;
  /**
   * Answer 429 to this many requests in a row, then serve `every - burst` normally, repeating;
   * `status: 503` answers 503 Service Unavailable with the same Retry-After instead (maintenance, overload).
   */
  rateLimit?: { burst: number; every: number; retryAfterSeconds: number; status?: 429 | 503 };
  /** Share of requests whose connection is destroyed without an answer (0..1). */
  dropRate?: number;
  /** PUT answers 204 and changes nothing (the spec's silent no-op, for read-back detection). */
  ignorePut?: boolean;
  /** Accept the connection and never answer. */
  hang?: boolean;
  /** Apply the request, then never answer: its answer is lost on the way back. */
  loseAnswer?: boolean;
  /**
   * The route is not served at all: a Palette older than the feature (managing a cluster's
   * profile-variable values is documented from Palette 4.6.0: spectrocloud/librarium#5593), or a
   * gateway that does not route it. Palette's router answers an unknown path 404 and a path
   * without that method 405; the Kubernetes API answers its `404 page not found`.
   */
  unserved?: 404 | 405;
}

export interface FaultRule {
  /** `METHOD PATH-GLOB`, e.g. `PATCH /v1/clusterprofiles/*\/publish`, or `*` for every route. */
  route: string;
  faults: RouteFaults;
}

function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*\*/g, '\u0000').replace(/\*/g, '[^/]*').replace(/\u0000/g, '.*');
  return new RegExp(`^${escaped}$`);
}

/** Mulberry32: small, fast, seeded; fault sequences repeat run to run (the tests' seeds use it too). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type FaultDecision =
  | { kind: 'none'; latencyMs: number; ignorePut: boolean; loseAnswer?: true }
  | { kind: 'error'; status: 500 | 502 | 503; latencyMs: number }
  | { kind: 'rateLimit'; retryAfterSeconds: number; status: 429 | 503; latencyMs: number }
  | { kind: 'drop'; latencyMs: number }
  | { kind: 'unserved'; status: 404 | 405; latencyMs: number }
  | { kind: 'hang' };

export class FaultPlan {
  private rules: Array<FaultRule & { re: RegExp; count: number }> = [];
  private random: () => number;

  constructor(seed = 42) {
    this.random = rng(seed);
  }

  set(rules: FaultRule[], seed?: number): void {
    if (seed !== undefined) this.random = rng(seed);
    this.rules = rules.map((r) => {
      const [method = '*', path = '**'] = r.route === '*' ? [] : r.route.split(/\s+/, 2);
      const methodRe = method === '*' ? '[A-Z]+' : method.toUpperCase();
      return { ...r, re: new RegExp(`^${methodRe} ${globToRegExp(path).source.slice(1, -1)}$`), count: 0 };
    });
  }

  clear(): void {
    this.rules = [];
  }

  list(): FaultRule[] {
    return this.rules.map(({ route, faults }) => ({ route, faults }));
  }

  /** What to do with one request. Counts requests per rule for 429 bursts. */
  decide(method: string, path: string): FaultDecision {
    const rule = this.rules.find((r) => r.re.test(`${method} ${path}`));
    if (!rule) return { kind: 'none', latencyMs: 0, ignorePut: false };
    const f = rule.faults;
    const latencyMs = f.latencyMs ?? 0;
    rule.count += 1;
    if (f.hang) return { kind: 'hang' };
    if (f.unserved) return { kind: 'unserved', status: f.unserved, latencyMs };
    if (f.rateLimit && (rule.count - 1) % f.rateLimit.every < f.rateLimit.burst) return { kind: 'rateLimit', retryAfterSeconds: f.rateLimit.retryAfterSeconds, status: f.rateLimit.status ?? 429, latencyMs };
    if (f.dropRate && this.random() < f.dropRate) return { kind: 'drop', latencyMs };
    if (f.errorRate && this.random() < f.errorRate) {
      const statuses = [500, 502, 503] as const;
      return { kind: 'error', status: statuses[Math.floor(this.random() * 3)]!, latencyMs };
    }
    return { kind: 'none', latencyMs, ignorePut: Boolean(f.ignorePut && method === 'PUT'), ...(f.loseAnswer ? { loseAnswer: true as const } : {}) };
  }
}
