/**
 * MetalLB's controller: gives LoadBalancer services addresses from the IPAddressPools in the
 * load-balancer pack's values. A service that asks for an address (`spec.loadBalancerIP` or the
 * `metallb.universe.tf/loadBalancerIPs` annotation) gets exactly that one if a pool holds it; one
 * that names a pool (`metallb.universe.tf/address-pool`) gets the next free address of that pool;
 * any other gets one only from a pool with `autoAssign: true` — which is why the site sets it to
 * false. An address a service already holds stays while a pool still contains it (so an address
 * handed out while autoAssign was true outlives switching it off: a leak), but changing what a
 * service asks for releases its old address.
 */
import type { KubeObject } from '../kube/types.js';
import type { AddressPool, ClusterConfig } from './applied-config.js';
import { recordEvent, type WorldContext } from './context.js';
import { ipToNumber, numberToIp } from './pod-network.js';

interface Assignment {
  ip: string;
  /** What the service asked for when it got the address ('' = nothing in particular). */
  requested: string;
}

const requestedIp = (svc: KubeObject): string =>
  String((svc.spec as { loadBalancerIP?: string }).loadBalancerIP ?? '') || String(svc.metadata.annotations?.['metallb.universe.tf/loadBalancerIPs'] ?? '').split(',')[0]!.trim();

const requestedPool = (svc: KubeObject): string => String(svc.metadata.annotations?.['metallb.universe.tf/address-pool'] ?? '');

export class LoadBalancerController {
  private readonly assignments = new Map<string, Assignment>();
  private pools: AddressPool[] = [];

  constructor(private readonly ctx: WorldContext) {}

  /** An address a scenario starts with (e.g. one handed out long ago). */
  preassign(namespace: string, name: string, ip: string): void {
    this.assignments.set(`${namespace}/${name}`, { ip, requested: '' });
  }

  /** Services holding an address, `namespace/name` → IP. */
  holders(): Map<string, string> {
    return new Map([...this.assignments.entries()].map(([k, a]) => [k, a.ip]));
  }

  /** Re-runs allocation for every LoadBalancer service under the pools of this config. */
  reconcile(config: ClusterConfig): void {
    this.pools = config.loadBalancer.pools;
    const services = this.ctx.store
      .list('services', { fieldSelector: 'spec.type=LoadBalancer' })
      .sort((a, b) => String(a.metadata.creationTimestamp).localeCompare(String(b.metadata.creationTimestamp)) || `${a.metadata.namespace}/${a.metadata.name}`.localeCompare(`${b.metadata.namespace}/${b.metadata.name}`));
    const live = new Set(services.map((s) => `${s.metadata.namespace}/${s.metadata.name}`));
    for (const key of [...this.assignments.keys()]) if (!live.has(key)) this.assignments.delete(key);

    // Keep what is still valid first, so a reshuffle never takes an address from its holder
    for (const svc of services) {
      const key = `${svc.metadata.namespace}/${svc.metadata.name}`;
      const a = this.assignments.get(key);
      if (!a) continue;
      if (a.requested !== requestedIp(svc) || !this.inPool(a.ip)) this.assignments.delete(key);
    }
    for (const svc of services) {
      const key = `${svc.metadata.namespace}/${svc.metadata.name}`;
      if (!this.assignments.has(key)) {
        const ip = this.allocate(svc);
        if (ip) {
          this.assignments.set(key, { ip, requested: requestedIp(svc) });
          recordEvent(this.ctx, svc, 'Normal', 'IPAllocated', `Assigned IP ["${ip}"]`, 'metallb-controller');
        } else if (hasAddress(svc)) {
          recordEvent(this.ctx, svc, 'Warning', 'AllocationFailed', `Failed to allocate IP for "${key}": no available IPs`, 'metallb-controller');
        }
      }
      this.writeStatus(svc, this.assignments.get(key)?.ip);
    }
  }

  private writeStatus(svc: KubeObject, ip: string | undefined): void {
    const current = (svc.status as { loadBalancer?: { ingress?: Array<{ ip: string }> } } | undefined)?.loadBalancer?.ingress?.[0]?.ip;
    if (current === ip) return;
    this.ctx.store.update('services', svc.metadata.namespace, svc.metadata.name, (o) => {
      o.status = { loadBalancer: ip ? { ingress: [{ ip, ipMode: 'VIP' }] } : {} };
    });
  }

  private inPool(ip: string, pool?: AddressPool): boolean {
    const n = ipToNumber(ip);
    return (pool ? [pool] : this.pools).some((p) => p.ranges.some(([a, b]) => n >= a && n <= b));
  }

  private used(ip: string): boolean {
    for (const a of this.assignments.values()) if (a.ip === ip) return true;
    return false;
  }

  private allocate(svc: KubeObject): string | undefined {
    const asked = requestedIp(svc);
    if (asked) return this.inPool(asked) && !this.used(asked) ? asked : undefined;
    const named = requestedPool(svc);
    const pool = named ? this.pools.find((p) => p.name === named) : this.pools.find((p) => p.autoAssign);
    if (!pool) return undefined;
    for (const [start, end] of pool.ranges) {
      for (let n = start; n <= end; n++) {
        const ip = numberToIp(n);
        if (pool.avoidBuggyIPs && (ip.endsWith('.0') || ip.endsWith('.255'))) continue;
        if (!this.used(ip)) return ip;
      }
    }
    return undefined;
  }
}

function hasAddress(svc: KubeObject): boolean {
  return ((svc.status as { loadBalancer?: { ingress?: unknown[] } } | undefined)?.loadBalancer?.ingress?.length ?? 0) > 0;
}
