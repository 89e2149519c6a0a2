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

export class BearerToken {
  private current: string;
  private expired = false;

  /** `opaque` issues a random string instead, as some clusters do (its expiry cannot be read). */
  constructor(private readonly style: TokenStyle = 'jwt') {
    this.current = this.issue();
  }

  private issue(): string {
    return this.style === 'jwt' ? BearerToken.generate() : `lab-${randomBytes(24).toString('base64url')}`;
  }

  /**
   * A service-account style JWT, valid a day by the wall clock, as clusters hand out: tools can read
   * its `exp` to warn before it runs out. The lab compares it as a plain string; the signature is random.
   */
  private static generate(): string {
    const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    return [
      part({ alg: 'ES256', typ: 'JWT', kid: 'upgrade-pilot-lab' }),
      part({ iss: 'upgrade-pilot-lab', sub: 'system:serviceaccount:kube-system:upgrade-pilot', iat: now, exp: now + 24 * 3600, jti: randomBytes(8).toString('hex') }),
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
