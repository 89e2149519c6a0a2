/**
 * Who may do what: the bearer token (which the lab can expire and renew, as a real cluster's
 * credentials do) and RBAC-like refusals configured per verb and resource.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { verbOf, type ResourceTarget } from './routes.js';
import { forbidden } from './status.js';
import type { KubeStatusError } from './types.js';

export interface ForbiddenRule {
  /** RBAC verb: get, list, watch, create, update, patch, delete, deletecollection, or `*`. */
  verb: string;
  /** Plural resource, `resource/subresource` (`pods/log`, `virtualmachines/restart`), or `*`. */
  resource: string;
}

export type TokenStyle = 'jwt' | 'opaque';

/** The time a token is minted on: the lab's simulated clock and its speed (wall clock, speed 1, by default). */
export interface TokenClock {
  now(): number;
  speed(): number;
}

const WALL_CLOCK: TokenClock = { now: () => Date.now(), speed: () => 1 };
const DAY_MS = 24 * 3600 * 1000;

export class BearerToken {
  private current: string;
  private expired = false;

  /** `opaque` issues a random string instead, as some clusters do (its expiry cannot be read). */
  constructor(
    private readonly style: TokenStyle = 'jwt',
    private readonly clock: TokenClock = WALL_CLOCK,
  ) {
    this.current = this.issue();
  }

  private issue(): string {
    return this.style === 'jwt' ? this.generate() : `lab-${randomBytes(24).toString('base64url')}`;
  }

  /**
   * A service-account style JWT, as clusters hand out: tools can read its `exp` to warn before it runs
   * out. Its times are on the lab's clock, which the tool also judges them on, and it lasts a day of
   * wall time (a day times the speed on that clock): a lab left running for an afternoon at speed 60
   * still hands out a fresh-looking token. The lab compares it as a plain string; the signature is random.
   */
  private generate(): string {
    const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const now = this.clock.now();
    const exp = now + DAY_MS * Math.max(1, this.clock.speed());
    return [
      part({ alg: 'ES256', typ: 'JWT', kid: 'upgrade-pilot-lab' }),
      part({ iss: 'upgrade-pilot-lab', sub: 'system:serviceaccount:kube-system:upgrade-pilot', iat: Math.floor(now / 1000), exp: Math.floor(exp / 1000), jti: randomBytes(8).toString('hex') }),
      randomBytes(32).toString('base64url'),
    ].join('.');
  }

  get value(): string {
    return this.current;
  }

  expire(): void {
    this.expired = true;
  }

  renew(): string {
    this.current = this.issue();
    this.expired = false;
    return this.current;
  }

  /** Whether an `Authorization` header carries the current, unexpired token. */
  accepts(authorization: string | undefined): boolean {
    if (this.expired || !authorization?.startsWith('Bearer ')) return false;
    const given = Buffer.from(authorization.slice('Bearer '.length).trim());
    const expected = Buffer.from(this.current);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

/** The Forbidden Status for a request a rule denies, as the apiserver words it; undefined if allowed. */
export function forbiddenBy(rules: readonly ForbiddenRule[], user: string, method: string, target: ResourceTarget, watch: boolean): KubeStatusError | undefined {
  const verb = verbOf(method, target, watch);
  const resource = target.subresource ? `${target.type.resource}/${target.subresource}` : target.type.resource;
  const denied = rules.some((r) => (r.verb === '*' || r.verb === verb) && (r.resource === '*' || r.resource === resource));
  if (!denied) return undefined;
  return forbidden({
    user,
    verb,
    group: target.group,
    resource: target.type.resource,
    ...(target.subresource ? { subresource: target.subresource } : {}),
    ...(target.namespace ? { namespace: target.namespace } : {}),
    ...(target.name ? { name: target.name } : {}),
  });
}
