/**
 * The network pack's effects (Cilium): the agent on every node and the operator. The operator's
 * cluster-pool IPAM must use the platform-managed pod CIDR the nodes were given; a literal CIDR in
 * `clusterPoolIPv4PodCIDRList` (the macro lost) disagrees with it, and the operator crash-loops.
 */
import type { ClusterConfig } from './applied-config.js';
import type { ClusterNodes } from './cluster-nodes.js';
import type { WorldContext } from './context.js';
import type { PodState } from './k8s-objects.js';
import { logfmtLine } from './logs.js';
import type { Workloads } from './workloads.js';

const ns = 'kube-system';

export class CiliumComponents {
  private config: ClusterConfig['network'] | undefined;

  constructor(
    private readonly ctx: WorldContext,
    private readonly workloads: Workloads,
    private readonly nodes: ClusterNodes,
    /** The pod CIDR the platform gave the cluster (the nodes' pod CIDRs come from it). */
    private readonly clusterPodCidr: string,
    private readonly nodeNetwork: string,
  ) {}

  seed(config: ClusterConfig): void {
    this.config = config.network;
    const v = config.network.ciliumVersion;
    const all = this.nodes.names();
    this.workloads.create({ namespace: ns, name: 'cilium', kind: 'DaemonSet', nodes: all, labels: { 'k8s-app': 'cilium', 'app.kubernetes.io/name': 'cilium-agent' }, containers: [{ name: 'cilium-agent', image: image(v, 'cilium') }], hostNetwork: true, priorityClassName: 'system-node-critical' });
    this.workloads.create({ namespace: ns, name: 'cilium-envoy', kind: 'DaemonSet', nodes: all, labels: { 'k8s-app': 'cilium-envoy', name: 'cilium-envoy' }, containers: [{ name: 'cilium-envoy', image: image(v, 'cilium-envoy') }], hostNetwork: true });
    this.workloads.create({
      namespace: ns,
      name: 'cilium-operator',
      kind: 'Deployment',
      replicas: 2,
      nodes: this.nodes.controlPlane().map((n) => n.name),
      labels: { 'io.cilium/app': 'operator', name: 'cilium-operator' },
      containers: [{ name: 'cilium-operator', image: image(v, 'operator-generic') }],
      hostNetwork: true,
      priorityClassName: 'system-cluster-critical',
      health: () => this.operatorHealth(),
    });
    this.workloads.create({ namespace: ns, name: 'hubble-relay', kind: 'Deployment', replicas: 1, nodes: this.nodes.workers().map((n) => n.name), labels: { 'k8s-app': 'hubble-relay' }, containers: [{ name: 'hubble-relay', image: image(v, 'hubble-relay') }] });
  }

  apply(config: ClusterConfig): void {
    const before = this.config;
    this.config = config.network;
    const v = config.network.ciliumVersion;
    if (before?.ciliumVersion !== v) {
      this.workloads.update(ns, 'cilium', { containers: [{ name: 'cilium-agent', image: image(v, 'cilium') }] }, { batch: Math.max(1, Math.ceil(this.nodes.names().length / 5)) });
      this.workloads.update(ns, 'cilium-envoy', { containers: [{ name: 'cilium-envoy', image: image(v, 'cilium-envoy') }] }, { batch: Math.max(1, Math.ceil(this.nodes.names().length / 5)) });
      this.workloads.update(ns, 'hubble-relay', { containers: [{ name: 'hubble-relay', image: image(v, 'hubble-relay') }] });
      this.workloads.update(ns, 'cilium-operator', { containers: [{ name: 'cilium-operator', image: image(v, 'operator-generic') }], health: () => this.operatorHealth() }, { done: () => this.logOperator() });
    } else {
      this.workloads.update(ns, 'cilium-operator', { health: () => this.operatorHealth() });
      this.logOperator();
    }
  }

  settled(): boolean {
    return true;
  }

  /** CIDRs in the values that are not the platform-managed one. */
  private wrongCidrs(): string[] {
    return (this.config?.podCidrs ?? []).filter((c) => c !== this.clusterPodCidr);
  }

  private operatorHealth(): PodState {
    const wrong = this.wrongCidrs();
    if (wrong.length === 0) return { kind: 'running' };
    return { kind: 'crashLoop', exitCode: 1, restarts: 3, message: this.fatalMessage(wrong) };
  }

  private fatalMessage(wrong: string[]): string {
    return `Unable to init cluster-pool allocator: cluster-pool IPv4 CIDR ${wrong.join(',')} does not match the pod CIDR ${this.clusterPodCidr} the nodes were allocated from and overlaps the node network ${this.nodeNetwork}`;
  }

  private logOperator(): void {
    const wrong = this.wrongCidrs();
    if (wrong.length === 0) return;
    for (const pod of this.workloads.pods(ns, 'cilium-operator')) {
      this.ctx.logs.append(ns, pod.metadata.name, [
        logfmtLine(this.ctx.clock.now(), 'info', 'Initializing IPAM', { mode: 'cluster-pool', subsys: 'cilium-operator-generic' }),
        logfmtLine(this.ctx.clock.now(), 'fatal', 'Unable to init cluster-pool allocator', { error: this.fatalMessage(wrong), subsys: 'cilium-operator-generic' }),
      ]);
    }
  }
}

function image(version: string, component: string): string {
  const tag = component === 'cilium-envoy' ? 'v1.31.5-1739264036-958bef243c6c66fcfd73ca319f2eb49fff1eb2ae' : `v${version}`;
  return `us-docker.pkg.dev/palette-images/packs/cilium/${version}/${component}:${tag}`;
}
