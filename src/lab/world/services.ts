/**
 * The cluster's Services. Most are ClusterIP; LoadBalancer ones are the ingress controller (asking
 * for the site's fixed address through `controller.service.loadBalancerIP`), the orchestration
 * pack's export and upload proxies (LoadBalancer in the 4.5+ values, meant to stay without an
 * address on this site), and whatever a scenario adds (a VM's intended service, a leaked one).
 */
import type { KubeObject } from '../kube/types.js';
import type { ClusterConfig } from './applied-config.js';
import { nowStamp, type WorldContext } from './context.js';
import { serviceObject, type ServiceInput } from './k8s-objects.js';
import type { PodNetwork } from './pod-network.js';

export const ingressService = { namespace: 'ingress-nginx', name: 'ingress-nginx-controller' };
export const exportProxyService = { namespace: 'kubevirt', name: 'virt-exportproxy-lb' };
export const uploadProxyService = { namespace: 'cdi', name: 'cdi-uploadproxy-lb' };

type Svc = Omit<ServiceInput, 'clusterIP' | 'created'>;

const clusterIpServices: Svc[] = [
  { namespace: 'default', name: 'kubernetes', type: 'ClusterIP', ports: [{ name: 'https', port: 443, targetPort: 6443 }], selector: {}, labels: { component: 'apiserver', provider: 'kubernetes' } },
  { namespace: 'kube-system', name: 'kube-dns', type: 'ClusterIP', ports: [{ name: 'dns', port: 53, targetPort: 53, protocol: 'UDP' }, { name: 'dns-tcp', port: 53, targetPort: 53 }], selector: { 'k8s-app': 'kube-dns' } },
  { namespace: 'kube-system', name: 'hubble-peer', type: 'ClusterIP', ports: [{ name: 'peer-service', port: 443, targetPort: 4244 }], selector: { 'k8s-app': 'cilium' } },
  { namespace: 'kubevirt', name: 'virt-api', type: 'ClusterIP', ports: [{ name: 'https', port: 443, targetPort: 8443 }], selector: { 'kubevirt.io': 'virt-api' } },
  { namespace: 'kubevirt', name: 'kubevirt-operator-webhook', type: 'ClusterIP', ports: [{ name: 'webhooks', port: 443, targetPort: 'webhooks' }], selector: { 'kubevirt.io': 'virt-operator' } },
  { namespace: 'kubevirt', name: 'kubevirt-prometheus-metrics', type: 'ClusterIP', ports: [{ name: 'metrics', port: 443, targetPort: 'metrics' }], selector: { 'prometheus.kubevirt.io': 'true' } },
  { namespace: 'kubevirt', name: 'virt-exportproxy', type: 'ClusterIP', ports: [{ name: 'https', port: 443, targetPort: 8443 }], selector: { 'kubevirt.io': 'virt-exportproxy' } },
  { namespace: 'cdi', name: 'cdi-api', type: 'ClusterIP', ports: [{ name: 'https', port: 443, targetPort: 8443 }], selector: { 'cdi.kubevirt.io': 'cdi-apiserver' } },
  { namespace: 'cdi', name: 'cdi-uploadproxy', type: 'ClusterIP', ports: [{ name: 'https', port: 443, targetPort: 8443 }], selector: { 'cdi.kubevirt.io': 'cdi-uploadproxy' } },
  { namespace: 'cdi', name: 'cdi-prometheus-metrics', type: 'ClusterIP', ports: [{ name: 'metrics', port: 8080, targetPort: 'metrics' }], selector: { 'prometheus.cdi.kubevirt.io': 'true' } },
  { namespace: 'ingress-nginx', name: 'ingress-nginx-controller-admission', type: 'ClusterIP', ports: [{ name: 'https-webhook', port: 443, targetPort: 'webhook' }], selector: { 'app.kubernetes.io/name': 'ingress-nginx', 'app.kubernetes.io/component': 'controller' } },
  { namespace: 'metallb-system', name: 'metallb-webhook-service', type: 'ClusterIP', ports: [{ name: 'webhook', port: 443, targetPort: 9443 }], selector: { 'app.kubernetes.io/component': 'controller' } },
  { namespace: 'cert-manager', name: 'cert-manager', type: 'ClusterIP', ports: [{ name: 'tcp-prometheus-servicemonitor', port: 9402, targetPort: 9402 }], selector: { app: 'cert-manager' } },
  { namespace: 'cert-manager', name: 'cert-manager-webhook', type: 'ClusterIP', ports: [{ name: 'https', port: 443, targetPort: 'https' }], selector: { app: 'webhook' } },
  { namespace: 'monitoring', name: 'prometheus-operator-grafana', type: 'ClusterIP', ports: [{ name: 'http-web', port: 80, targetPort: 3000 }], selector: { 'app.kubernetes.io/name': 'grafana' } },
  { namespace: 'monitoring', name: 'prometheus-operator-prometheus', type: 'ClusterIP', ports: [{ name: 'http-web', port: 9090, targetPort: 9090 }], selector: { 'app.kubernetes.io/name': 'prometheus' } },
  { namespace: 'monitoring', name: 'prometheus-operator-alertmanager', type: 'ClusterIP', ports: [{ name: 'http-web', port: 9093, targetPort: 9093 }], selector: { 'app.kubernetes.io/name': 'alertmanager' } },
  { namespace: 'monitoring', name: 'prometheus-operator-kube-state-metrics', type: 'ClusterIP', ports: [{ name: 'http', port: 8080, targetPort: 8080 }], selector: { 'app.kubernetes.io/name': 'kube-state-metrics' } },
  { namespace: 'monitoring', name: 'prometheus-operator-operator', type: 'ClusterIP', ports: [{ name: 'https', port: 443, targetPort: 'https' }], selector: { app: 'kube-prometheus-stack-operator' } },
  { namespace: 'portworx', name: 'portworx-service', type: 'ClusterIP', ports: [{ name: 'px-api', port: 9001, targetPort: 9001 }, { name: 'px-sdk', port: 9020, targetPort: 9020 }], selector: { name: 'portworx' } },
  { namespace: 'portworx', name: 'portworx-api', type: 'ClusterIP', ports: [{ name: 'px-api', port: 9001, targetPort: 9001 }], selector: { name: 'portworx-api' } },
  { namespace: 'portworx', name: 'stork-service', type: 'ClusterIP', ports: [{ name: 'extender', port: 8099, targetPort: 8099 }, { name: 'webhook', port: 443, targetPort: 443 }], selector: { name: 'stork' } },
  { namespace: 'vm-dashboard', name: 'virtual-machine-orchestrator', type: 'ClusterIP', ports: [{ name: 'http', port: 80, targetPort: 8080 }], selector: { 'app.kubernetes.io/name': 'virtual-machine-orchestrator' } },
];

export class ServiceCatalog {
  constructor(
    private readonly ctx: WorldContext,
    private readonly network: PodNetwork,
  ) {}

  /** Creates a service (ClusterIP allocated). */
  add(s: Svc): KubeObject {
    return this.ctx.store.upsert('services', serviceObject({ ...s, clusterIP: s.namespace === 'default' && s.name === 'kubernetes' ? '100.64.64.1' : this.network.serviceIp(), created: nowStamp(this.ctx) }));
  }

  seed(config: ClusterConfig): void {
    for (const s of clusterIpServices.filter((x) => present(config, x.namespace))) this.add(s);
    if (config.components.ingress) this.add({
      ...ingressService,
      type: 'LoadBalancer',
      ports: [
        { name: 'http', port: 80, targetPort: 'http' },
        { name: 'https', port: 443, targetPort: 'https' },
      ],
      selector: { 'app.kubernetes.io/name': 'ingress-nginx', 'app.kubernetes.io/component': 'controller' },
      labels: { 'app.kubernetes.io/name': 'ingress-nginx', 'app.kubernetes.io/component': 'controller', 'app.kubernetes.io/managed-by': 'Helm' },
      ...(config.ingress.loadBalancerIP ? { loadBalancerIP: config.ingress.loadBalancerIP } : {}),
    });
    this.add({ ...exportProxyService, type: lbType(config.kubevirt.exportProxyServiceType), ports: [{ name: 'https', port: 443, targetPort: 8443 }], selector: { 'kubevirt.io': 'virt-exportproxy' }, labels: { 'app.kubernetes.io/managed-by': 'Helm' } });
    this.add({ ...uploadProxyService, type: lbType(config.cdi.uploadProxyServiceType), ports: [{ name: 'https', port: 443, targetPort: 8443 }], selector: { 'cdi.kubevirt.io': 'cdi-uploadproxy' }, labels: { 'app.kubernetes.io/managed-by': 'Helm' } });
  }

  /** What the ingress and orchestration packs' values say about their services. */
  applyPacks(config: ClusterConfig): void {
    this.ctx.store.update('services', ingressService.namespace, ingressService.name, (svc) => {
      const spec = svc.spec as Record<string, unknown>;
      if (config.ingress.loadBalancerIP) spec.loadBalancerIP = config.ingress.loadBalancerIP;
      else delete spec.loadBalancerIP;
    });
    setType(this.ctx, exportProxyService, lbType(config.kubevirt.exportProxyServiceType));
    setType(this.ctx, uploadProxyService, lbType(config.cdi.uploadProxyServiceType));
  }
}

/** Services of a component the site does not run (no ingress, monitoring or Portworx pack) are not there. */
function present(config: ClusterConfig, namespace: string): boolean {
  if (namespace === 'ingress-nginx') return config.components.ingress;
  if (namespace === 'monitoring') return config.components.monitoring;
  if (namespace === 'portworx') return config.components.storage === 'portworx';
  return true;
}

function lbType(t: string): 'ClusterIP' | 'LoadBalancer' | 'NodePort' {
  return t === 'LoadBalancer' || t === 'NodePort' ? t : 'ClusterIP';
}

function setType(ctx: WorldContext, ref: { namespace: string; name: string }, type: 'ClusterIP' | 'LoadBalancer' | 'NodePort'): void {
  ctx.store.update('services', ref.namespace, ref.name, (svc) => {
    const spec = svc.spec as { type: string; ports: Array<Record<string, unknown>>; externalTrafficPolicy?: string; allocateLoadBalancerNodePorts?: boolean };
    if (spec.type === type) return;
    spec.type = type;
    if (type === 'ClusterIP') {
      for (const p of spec.ports) delete p.nodePort;
      delete spec.externalTrafficPolicy;
      delete spec.allocateLoadBalancerNodePorts;
      svc.status = { loadBalancer: {} };
    } else {
      spec.ports.forEach((p, i) => (p.nodePort = 30443 + i + (ref.namespace === 'cdi' ? 10 : 0)));
      spec.externalTrafficPolicy = 'Cluster';
      if (type === 'LoadBalancer') spec.allocateLoadBalancerNodePorts = true;
    }
  });
}
