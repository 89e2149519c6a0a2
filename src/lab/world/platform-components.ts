/**
 * The rest of a Palette VMO cluster's pods: Kubernetes control plane, CoreDNS, Multus, cert-manager,
 * MetalLB, ingress-nginx, the VM dashboard and Palette's agent. The load-balancer and ingress packs
 * roll theirs when their tags change.
 */
import type { ClusterConfig } from './applied-config.js';
import type { ClusterNodes } from './cluster-nodes.js';
import type { WorldContext } from './context.js';
import type { Workloads } from './workloads.js';

export class PlatformComponents {
  private tags: Record<string, string> = {};

  constructor(
    private readonly ctx: WorldContext,
    private readonly workloads: Workloads,
    private readonly nodes: ClusterNodes,
  ) {}

  seed(config: ClusterConfig, kubernetesVersion: string): void {
    this.tags = { ...config.packTags };
    const cps = this.nodes.controlPlane().map((n) => n.name);
    const workers = this.nodes.workers().map((n) => n.name);
    const all = this.nodes.names();
    const k8s = (c: string) => [{ name: c, image: `registry.k8s.io/${c}:v${kubernetesVersion}` }];
    const w = this.workloads;
    w.create({ namespace: 'kube-system', name: 'kube-apiserver', kind: 'Static', nodes: cps, labels: { component: 'kube-apiserver', tier: 'control-plane' }, containers: k8s('kube-apiserver'), hostNetwork: true, priorityClassName: 'system-node-critical' });
    w.create({ namespace: 'kube-system', name: 'kube-controller-manager', kind: 'Static', nodes: cps, labels: { component: 'kube-controller-manager', tier: 'control-plane' }, containers: k8s('kube-controller-manager'), hostNetwork: true, priorityClassName: 'system-node-critical' });
    w.create({ namespace: 'kube-system', name: 'kube-scheduler', kind: 'Static', nodes: cps, labels: { component: 'kube-scheduler', tier: 'control-plane' }, containers: k8s('kube-scheduler'), hostNetwork: true, priorityClassName: 'system-node-critical' });
    w.create({ namespace: 'kube-system', name: 'etcd', kind: 'Static', nodes: cps, labels: { component: 'etcd', tier: 'control-plane' }, containers: [{ name: 'etcd', image: 'registry.k8s.io/etcd:3.5.16-0' }], hostNetwork: true, priorityClassName: 'system-node-critical' });
    w.create({ namespace: 'kube-system', name: 'coredns', kind: 'Deployment', replicas: 2, nodes: cps, labels: { 'k8s-app': 'kube-dns' }, containers: [{ name: 'coredns', image: 'registry.k8s.io/coredns/coredns:v1.11.3' }], priorityClassName: 'system-cluster-critical' });
    w.create({ namespace: 'kube-system', name: 'kube-multus-ds', kind: 'DaemonSet', nodes: all, labels: { app: 'multus', name: 'multus' }, containers: [{ name: 'kube-multus', image: 'ghcr.io/k8snetworkplumbingwg/multus-cni:v4.1.4-thick' }], hostNetwork: true });
    w.create({ namespace: 'kube-system', name: 'snapshot-controller', kind: 'Deployment', replicas: 1, nodes: workers, labels: { 'app.kubernetes.io/name': 'snapshot-controller' }, containers: [{ name: 'snapshot-controller', image: 'registry.k8s.io/sig-storage/snapshot-controller:v8.1.0' }] });
    w.create({ namespace: 'cert-manager', name: 'cert-manager', kind: 'Deployment', replicas: 1, nodes: workers, labels: { app: 'cert-manager', 'app.kubernetes.io/component': 'controller' }, containers: [{ name: 'cert-manager-controller', image: 'quay.io/jetstack/cert-manager-controller:v1.16.2' }] });
    w.create({ namespace: 'cert-manager', name: 'cert-manager-webhook', kind: 'Deployment', replicas: 1, nodes: workers, labels: { app: 'webhook', 'app.kubernetes.io/component': 'webhook' }, containers: [{ name: 'cert-manager-webhook', image: 'quay.io/jetstack/cert-manager-webhook:v1.16.2' }] });
    w.create({ namespace: 'cert-manager', name: 'cert-manager-cainjector', kind: 'Deployment', replicas: 1, nodes: workers, labels: { app: 'cainjector', 'app.kubernetes.io/component': 'cainjector' }, containers: [{ name: 'cert-manager-cainjector', image: 'quay.io/jetstack/cert-manager-cainjector:v1.16.2' }] });
    const metallb = this.metallbImages(config);
    w.create({ namespace: 'metallb-system', name: 'metallb-controller', kind: 'Deployment', replicas: 1, nodes: workers, labels: { 'app.kubernetes.io/name': 'metallb', 'app.kubernetes.io/component': 'controller' }, containers: [{ name: 'controller', image: metallb.controller }] });
    w.create({ namespace: 'metallb-system', name: 'metallb-speaker', kind: 'DaemonSet', nodes: all, labels: { 'app.kubernetes.io/name': 'metallb', 'app.kubernetes.io/component': 'speaker' }, containers: [{ name: 'speaker', image: metallb.speaker }], hostNetwork: true });
    if (config.components.ingress) w.create({ namespace: 'ingress-nginx', name: 'ingress-nginx-controller', kind: 'Deployment', replicas: config.ingress.replicas, nodes: workers, labels: { 'app.kubernetes.io/name': 'ingress-nginx', 'app.kubernetes.io/component': 'controller', 'app.kubernetes.io/instance': 'nginx' }, containers: [{ name: 'controller', image: config.ingress.image }] });
    w.create({ namespace: 'vm-dashboard', name: 'virtual-machine-orchestrator', kind: 'Deployment', replicas: 1, nodes: workers, labels: { 'app.kubernetes.io/name': 'virtual-machine-orchestrator' }, containers: [{ name: 'vm-dashboard', image: this.dashboardImage(config) }] });
    const agent = this.ctx.cluster.agentNamespace;
    w.create({ namespace: agent, name: 'cluster-management-agent', kind: 'Deployment', replicas: 1, nodes: cps, labels: { app: 'cluster-management-agent' }, containers: [{ name: 'manager', image: 'us-docker.pkg.dev/palette-images/palette/cluster-management-agent:4.6.21' }] });
    w.create({ namespace: agent, name: 'palette-controller-manager', kind: 'Deployment', replicas: 1, nodes: cps, labels: { 'control-plane': 'controller-manager', app: 'palette-controller-manager' }, containers: [{ name: 'manager', image: 'us-docker.pkg.dev/palette-images/palette/palette-controller-manager:4.6.21' }] });
    w.create({ namespace: 'palette-system', name: 'palette-webhook', kind: 'Deployment', replicas: 1, nodes: cps, labels: { app: 'palette-webhook' }, containers: [{ name: 'webhook', image: 'us-docker.pkg.dev/palette-images/palette/palette-webhook:4.6.21' }] });
  }

  /** Load balancer, ingress and dashboard roll when their pack tags change. */
  apply(config: ClusterConfig): void {
    const before = this.tags;
    this.tags = { ...config.packTags };
    if (before['lb-metallb-helm'] !== config.packTags['lb-metallb-helm']) {
      const m = this.metallbImages(config);
      this.workloads.update('metallb-system', 'metallb-controller', { containers: [{ name: 'controller', image: m.controller }] });
      this.workloads.update('metallb-system', 'metallb-speaker', { containers: [{ name: 'speaker', image: m.speaker }] }, { batch: Math.max(1, Math.ceil(this.nodes.names().length / 5)) });
    }
    if (before.nginx !== config.packTags.nginx) {
      this.workloads.update('ingress-nginx', 'ingress-nginx-controller', { containers: [{ name: 'controller', image: config.ingress.image }], replicas: config.ingress.replicas });
    }
    if (before['virtual-machine-orchestrator'] !== config.packTags['virtual-machine-orchestrator']) {
      this.workloads.update('vm-dashboard', 'virtual-machine-orchestrator', { containers: [{ name: 'vm-dashboard', image: this.dashboardImage(config) }] });
    }
  }

  private metallbImages(config: ClusterConfig): { controller: string; speaker: string } {
    const list = config.packImages['lb-metallb-helm'] ?? [];
    return {
      controller: list.find((i) => i.includes('/controller:')) ?? 'quay.io/metallb/controller:v0.14.9',
      speaker: list.find((i) => i.includes('/speaker:')) ?? 'quay.io/metallb/speaker:v0.14.9',
    };
  }

  private dashboardImage(config: ClusterConfig): string {
    return (config.packImages['virtual-machine-orchestrator'] ?? []).find((i) => i.includes('/spectro-vm-dashboard:')) ?? 'us-docker.pkg.dev/palette-images/palette/spectro-vm-dashboard:4.6.3';
  }
}
