/**
 * Builds the cluster a scenario describes, as if it had been running for a while: the platform was
 * installed long ago, the VMs later, then the recent history (migrations, what went wrong). The
 * lab's clock starts `seedSpanMs` in the past and seeding moves it forward to the present, so ages
 * (`kubectl get` AGE, creationTimestamps) look like a real cluster's.
 */
import { packStack } from '../data/pack-catalog.js';
import { labSite } from '../data/site.js';
import { readClusterConfig } from './applied-config.js';
import { namespaceObject } from './k8s-objects.js';
import type { ScenarioSpec } from './scenarios/types.js';
import { FAILED_POD_COUNT, seedFailedPods } from './failed-pods.js';
import { skippedMinorOutcome } from './skip-minor.js';
import type { World } from './world.js';

const day = 24 * 3_600_000;

/** How far in the past the lab's clock starts (the platform's install). */
export const seedSpanMs = 120 * day;

const platformNamespaces = [
  'default',
  'kube-system',
  'kube-public',
  'kube-node-lease',
  'kubevirt',
  'cdi',
  'vm-dashboard',
  'vmo-golden-images',
  'ingress-nginx',
  'metallb-system',
  'monitoring',
  'portworx',
  'cert-manager',
  'palette-system',
];

const privileged = { 'pod-security.kubernetes.io/enforce': 'privileged', 'pod-security.kubernetes.io/enforce-version': 'v1.32' };

export function seedWorld(world: World, spec: ScenarioSpec): void {
  const { ctx } = world;
  const start = ctx.clock.now();
  const until = (ms: number) => ctx.clock.advance(Math.max(0, start + ms - ctx.clock.now()));
  const config = world.config();
  const kubernetesVersion = config.packTags.kubernetes ?? '1.32.2';

  // The platform, 120 days ago
  const namespaces = new Set([...platformNamespaces, ctx.cluster.agentNamespace, ...spec.vms.map((v) => v.namespace), ...spec.networks.map((n) => n.namespace), ...spec.services.map((s) => s.namespace)]);
  const absent = new Set([...(config.components.ingress ? [] : ['ingress-nginx']), ...(config.components.monitoring ? [] : ['monitoring']), ...(config.components.storage === 'portworx' ? [] : ['portworx'])]);
  if (config.components.storage === 'rook-ceph') namespaces.add(config.rook.namespace);
  for (const ns of [...namespaces].filter((n) => !absent.has(n))) ctx.store.upsert('namespaces', namespaceObject(ns, ['kubevirt', 'cdi', 'portworx', 'metallb-system', 'rook-ceph'].includes(ns) ? privileged : {}));
  for (const n of spec.nodes) world.nodes.add(n.name, { controlPlane: n.controlPlane, storage: n.storage, kubeletVersion: `v${kubernetesVersion}`, capacity: n.capacity });
  world.platform.seed(config, kubernetesVersion);
  world.cilium.seed(config);
  // Only what the site's packs run: a lean site has no monitoring; storage is Portworx or Rook-Ceph
  if (config.components.monitoring) world.monitoring.seed(config);
  if (config.components.storage === 'portworx') world.storage.seed(config);
  if (config.components.storage === 'rook-ceph') world.rook.seed(config);
  world.kubevirt.seed(config);
  world.services.seed(config);
  ctx.store.upsert('storageclasses', {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name: 'local-storage' },
    provisioner: 'kubernetes.io/no-provisioner',
    reclaimPolicy: 'Retain',
    volumeBindingMode: 'WaitForFirstConsumer',
  });
  if (spec.multus === false) world.absentGroups.add('k8s.cni.cncf.io');
  for (const p of spec.migrationPolicies ?? []) ctx.store.upsert('migrationpolicies', { apiVersion: 'migrations.kubevirt.io/v1alpha1', kind: 'MigrationPolicy', metadata: { name: p.name }, spec: p.spec });
  for (const n of spec.networks) {
    ctx.store.upsert('network-attachment-definitions', {
      apiVersion: 'k8s.cni.cncf.io/v1',
      kind: 'NetworkAttachmentDefinition',
      metadata: { name: n.name, namespace: n.namespace, annotations: { 'k8s.v1.cni.cncf.io/resourceName': 'bridge.network.kubevirt.io/br0' } },
      spec: { config: JSON.stringify({ cniVersion: '0.3.1', name: n.name, type: 'bridge', bridge: 'br0', vlan: n.vlan, macspoofchk: true, ipam: {} }) },
    });
  }
  if (spec.totalPods !== undefined) addApplicationPods(world, spec.totalPods - spec.vms.filter((v) => v.runStrategy !== 'Halted').length - FAILED_POD_COUNT);

  // A node that stopped reporting takes no new VMs
  until(seedSpanMs - 30 * day);
  for (const name of spec.faults.notReadyNodes) world.setNodeReady(name, 'Unknown');

  // The VMs, a month ago, on the launcher their VMIs started with
  const launcher = launcherImageOf(spec, world);
  for (const s of spec.services) world.services.add(s);
  for (const vm of spec.vms) world.vms.seed(vm, { launcherImage: launcher, outdated: launcher !== world.kubevirt.currentLauncherImage() });

  // Recent history, as of a minute ago
  until(seedSpanMs - 60_000);
  world.migrations.setAbortFailures(spec.abortFails ?? []);
  for (const m of spec.migrations) world.migrations.seed(m.namespace, m.vmi, m.state, m.ageMs, m.reason ? { reason: m.reason, ...(m.abortStatus ? { abortStatus: m.abortStatus } : {}) } : undefined);
  seedFailedPods(world);
  if (spec.skippedMinorMigrations) {
    for (const v of [...world.vms.runningVmis()].filter((x) => !x.def.localDisk)) {
      const key = `${v.namespace}/${v.name}`;
      if (skippedMinorOutcome(key) === 'stuck') world.migrations.seed(v.namespace, v.name, 'Stuck', 40 * 60_000);
      else {
        world.migrations.seed(v.namespace, v.name, 'Failed', 45 * 60_000);
        world.migrations.seed(v.namespace, v.name, 'Failed', 12 * 60_000);
      }
    }
  }
  for (const name of spec.faults.offlineStorageNodes) world.storage.faults.offlineNodes.add(name);
  world.storage.refresh();
  world.rook.refresh();
  for (const c of spec.faults.crashLooping) {
    world.workloads.update(c.namespace, c.workload, { health: () => ({ kind: 'crashLoop', exitCode: 1, restarts: 37, message: c.message }) });
  }
  for (const l of spec.faults.leakedAddresses) world.loadBalancer.preassign(l.namespace, l.name, l.ip);
  world.loadBalancer.reconcile(world.config());
  until(seedSpanMs);
}

/** The launcher image of the VMO version the VMIs started on. */
function launcherImageOf(spec: ScenarioSpec, world: World): string {
  if (spec.launcherFrom === spec.deployed) return world.kubevirt.currentLauncherImage();
  const stack = packStack(spec.launcherFrom);
  const packs = [...stack.infra, ...stack.addon].map((p) => ({ ...p, registryUid: '', manifests: [] as Array<{ uid: string; name: string; content: string }> }));
  return readClusterConfig(packs, { clusterUid: world.ctx.cluster.uid, clusterName: world.ctx.cluster.name, kubernetesVersion: '1.32.2', podCidr: labSite.podCidr, variables: labSite.profileVariables }).kubevirt.launcherImage;
}

/** Ordinary application Deployments (10 pods each, with a Service) up to the pod count asked for. */
function addApplicationPods(world: World, wanted: number): void {
  const existing = world.ctx.store.count('pods');
  const missing = Math.max(0, wanted - existing);
  const workers = world.nodes.workers().map((n) => n.name);
  const perApp = 10;
  const apps = Math.ceil(missing / perApp);
  for (let i = 0; i < apps; i++) {
    const ns = `apps-${String(Math.floor(i / 20)).padStart(3, '0')}`;
    if (!world.ctx.store.get('namespaces', undefined, ns)) world.ctx.store.upsert('namespaces', namespaceObject(ns));
    const name = `svc-${String(i).padStart(4, '0')}`;
    const replicas = Math.min(perApp, missing - i * perApp);
    const offset = (i * 7) % Math.max(1, workers.length);
    world.workloads.create({
      namespace: ns,
      name,
      kind: 'Deployment',
      replicas,
      nodes: [...workers.slice(offset), ...workers.slice(0, offset)],
      labels: { app: name },
      containers: [{ name: 'app', image: `registry.example.internal/apps/${name}:1.${i % 9}.${i % 4}` }],
    });
    world.services.add({ namespace: ns, name, type: 'ClusterIP', ports: [{ name: 'http', port: 80, targetPort: 8080 }], selector: { app: name } });
  }
}
