/**
 * Addresses in the simulated cluster: node IPs on the node network, pod IPs from each node's pod
 * CIDR (a /24 of the cluster's 100.64.0.0/18), cluster IPs for services.
 */

export function ipToNumber(ip: string): number {
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

export function numberToIp(n: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
}

export class PodNetwork {
  private readonly nodes = new Map<string, { ip: string; cidrBase: number; next: number }>();
  private nextNodeHost = 11;
  private nextNodeBlock = 0;
  private nextServiceIp = 10;

  constructor(
    private readonly nodeNetworkBase: string = '10.10.10.0',
    private readonly podNetworkBase: string = '100.64.0.0',
    private readonly serviceNetworkBase: string = '100.64.64.0',
  ) {}

  /** Registers a node; returns its IP and pod CIDR. */
  addNode(name: string): { ip: string; podCIDR: string } {
    const existing = this.nodes.get(name);
    if (existing) return { ip: existing.ip, podCIDR: `${numberToIp(existing.cidrBase)}/24` };
    const ip = numberToIp(ipToNumber(this.nodeNetworkBase) + this.nextNodeHost++);
    // /24 per node; the 100.64.0.0/18 range holds 64, so large clusters wrap into 100.65+ as a real
    // cluster with a wider pod CIDR would
    const cidrBase = ipToNumber(this.podNetworkBase) + this.nextNodeBlock++ * 256;
    this.nodes.set(name, { ip, cidrBase, next: 2 });
    return { ip, podCIDR: `${numberToIp(cidrBase)}/24` };
  }

  nodeIp(name: string): string | undefined {
    return this.nodes.get(name)?.ip;
  }

  /** The next pod IP on a node (wraps within the node's /24). */
  podIp(node: string | undefined): string | undefined {
    if (node === undefined) return undefined;
    const n = this.nodes.get(node);
    if (!n) return undefined;
    const ip = numberToIp(n.cidrBase + n.next);
    n.next = n.next >= 253 ? 2 : n.next + 1;
    return ip;
  }

  serviceIp(): string {
    const base = ipToNumber(this.serviceNetworkBase);
    const ip = numberToIp(base + (this.nextServiceIp % 16_000));
    this.nextServiceIp += 1;
    return ip;
  }
}
