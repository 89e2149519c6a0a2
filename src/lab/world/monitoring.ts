/**
 * The monitoring pack's effects (kube-prometheus-stack). Grafana serves internal TLS with a
 * certificate cert-manager issues from the ClusterIssuer `selfsigned`, which only the site's
 * `issuer-selfsigned` manifest creates: without it the certificate secret never appears and the
 * Grafana pod waits in ContainerCreating on the missing volume.
 */
import type { ClusterConfig } from './applied-config.js';
import type { ClusterNodes } from './cluster-nodes.js';
import { recordEvent, type WorldContext } from './context.js';
import type { PodState } from './k8s-objects.js';
import type { Workloads } from './workloads.js';

const ns = 'monitoring';

export class MonitoringComponents {
  private config: ClusterConfig['monitoring'] | undefined;

  constructor(
    private readonly ctx: WorldContext,
    private readonly workloads: Workloads,
    private readonly nodes: ClusterNodes,
  ) {}

  seed(config: ClusterConfig): void {
    this.config = config.monitoring;
    const workers = this.nodes.workers().map((n) => n.name);
    const images = this.images(config);
    this.workloads.create({ namespace: ns, name: 'prometheus-operator-operator', kind: 'Deployment', replicas: 1, nodes: workers, labels: { app: 'kube-prometheus-stack-operator', release: 'prometheus-operator' }, containers: [{ name: 'kube-prometheus-stack', image: images.operator }] });
    this.workloads.create({ namespace: ns, name: 'prometheus-operator-grafana', kind: 'Deployment', replicas: 1, nodes: workers, labels: { 'app.kubernetes.io/name': 'grafana', 'app.kubernetes.io/instance': 'prometheus-operator' }, containers: [{ name: 'grafana', image: images.grafana }, { name: 'grafana-sc-dashboard', image: images.sidecar }], health: () => this.grafanaHealth() });
    this.workloads.create({ namespace: ns, name: 'prometheus-operator-kube-state-metrics', kind: 'Deployment', replicas: 1, nodes: workers, labels: { 'app.kubernetes.io/name': 'kube-state-metrics', 'app.kubernetes.io/instance': 'prometheus-operator' }, containers: [{ name: 'kube-state-metrics', image: images.ksm }] });
    this.workloads.create({ namespace: ns, name: 'prometheus-operator-prometheus-node-exporter', kind: 'DaemonSet', nodes: this.nodes.names(), labels: { 'app.kubernetes.io/name': 'prometheus-node-exporter' }, containers: [{ name: 'node-exporter', image: images.nodeExporter }], hostNetwork: true });
    this.workloads.create({ namespace: ns, name: 'prometheus-prometheus-operator-prometheus', kind: 'StatefulSet', replicas: 1, nodes: workers, labels: { 'app.kubernetes.io/name': 'prometheus', prometheus: 'prometheus-operator-prometheus' }, containers: [{ name: 'prometheus', image: images.prometheus }] });
    this.workloads.create({ namespace: ns, name: 'alertmanager-prometheus-operator-alertmanager', kind: 'StatefulSet', replicas: 1, nodes: workers, labels: { 'app.kubernetes.io/name': 'alertmanager', alertmanager: 'prometheus-operator-alertmanager' }, containers: [{ name: 'alertmanager', image: images.alertmanager }] });
    this.noteMissingIssuer();
  }

  apply(config: ClusterConfig): void {
    const before = this.config;
    this.config = config.monitoring;
    const images = this.images(config);
    if (before?.chartVersion !== config.monitoring.chartVersion) {
      this.workloads.update(ns, 'prometheus-operator-operator', { containers: [{ name: 'kube-prometheus-stack', image: images.operator }] });
      this.workloads.update(ns, 'prometheus-operator-kube-state-metrics', { containers: [{ name: 'kube-state-metrics', image: images.ksm }] });
      this.workloads.update(ns, 'prometheus-prometheus-operator-prometheus', { containers: [{ name: 'prometheus', image: images.prometheus }] });
      this.workloads.update(ns, 'prometheus-operator-grafana', { containers: [{ name: 'grafana', image: images.grafana }, { name: 'grafana-sc-dashboard', image: images.sidecar }], health: () => this.grafanaHealth() }, { done: () => this.noteMissingIssuer() });
    } else {
      this.workloads.update(ns, 'prometheus-operator-grafana', { health: () => this.grafanaHealth() });
      this.noteMissingIssuer();
    }
  }

  private grafanaHealth(): PodState {
    const c = this.config;
    if (c && c.grafanaTls && !c.selfSignedIssuer) return { kind: 'pending', reason: 'ContainerCreating', message: '' };
    return { kind: 'running' };
  }

  /** The kubelet's and cert-manager's events for the certificate that cannot be issued. */
  private noteMissingIssuer(): void {
    const c = this.config;
    if (!c || !c.grafanaTls || c.selfSignedIssuer) return;
    for (const pod of this.workloads.pods(ns, 'prometheus-operator-grafana')) {
      recordEvent(this.ctx, pod, 'Warning', 'FailedMount', 'MountVolume.SetUp failed for volume "grafana-tls" : secret "grafana-internal-tls" not found', 'kubelet');
    }
    const ksm = this.workloads.pods(ns, 'prometheus-operator-operator')[0];
    if (ksm) recordEvent(this.ctx, ksm, 'Warning', 'ErrInitIssuer', `Error initializing issuer: clusterissuer.cert-manager.io "${c.grafanaIssuer}" not found (certificate monitoring/grafana-internal-tls)`, 'cert-manager-certificates-issuing');
  }

  private images(config: ClusterConfig): { operator: string; grafana: string; sidecar: string; ksm: string; nodeExporter: string; prometheus: string; alertmanager: string } {
    const list = config.packImages['prometheus-operator'] ?? [];
    const find = (part: string, fallback: string) => list.find((i) => i.includes(part)) ?? fallback;
    return {
      operator: find('/prometheus-operator:', 'quay.io/prometheus-operator/prometheus-operator:v0.78.2'),
      grafana: find('/grafana:', 'docker.io/grafana/grafana:11.3.1'),
      sidecar: find('/k8s-sidecar:', 'quay.io/kiwigrid/k8s-sidecar:1.28.0'),
      ksm: find('/kube-state-metrics:', 'registry.k8s.io/kube-state-metrics/kube-state-metrics:v2.14.0'),
      nodeExporter: find('/node-exporter:', 'quay.io/prometheus/node-exporter:v1.8.2'),
      prometheus: find('/prometheus:', 'quay.io/prometheus/prometheus:v2.55.1'),
      alertmanager: find('/alertmanager:', 'quay.io/prometheus/alertmanager:v0.27.0'),
    };
  }
}
