/**
 * virt-operator and cdi-operator: when the orchestration pack's values name a new KubeVirt (or CDI)
 * version, the CR's target moves (phase stays Deployed, the conditions say UpdateInProgress), the components roll in KubeVirt's order
 * (virt-operator, virt-api, virt-controller, then virt-handler: one canary node, then 10% of nodes
 * per batch), and only then observed = target and phase Deployed. New feature gates and workload
 * update settings reach the CR's spec at once, as the helm upgrade patches it.
 */
import { createHash } from 'node:crypto';
import type { KubeObject } from '../kube/types.js';
import type { ClusterConfig } from './applied-config.js';
import type { ClusterNodes } from './cluster-nodes.js';
import { nowStamp, recordEvent, type WorldContext } from './context.js';
import { kubevirtLine } from './logs.js';
import { timings } from './timings.js';
import type { ContainerInput } from './k8s-objects.js';
import type { Workloads } from './workloads.js';

export interface KubevirtListener {
  /** The new virt-controller runs: VMIs on another launcher are outdated from now on. */
  launcherChanged(launcherImage: string): void;
  /** Phase Deployed (the workload updater only acts then). */
  deployed(): void;
}

interface Deployed {
  version: string;
  registry: string;
  launcherImage: string;
}

const deploymentId = (version: string, registry: string): string => createHash('sha1').update(`${registry}:${version}`).digest('hex').slice(0, 16);

export const minorOf = (version: string): number => Number(/^v?\d+\.(\d+)/.exec(version)?.[1] ?? NaN);

export class KubevirtOperator {
  private observed: Deployed;
  private target: Deployed;
  /** Launcher image the running virt-controller hands to new VMIs. */
  private launcher: string;
  private rolloutGeneration = 0;
  private cdiObserved: string;
  private cdiTarget: string;
  private cdiGeneration = 0;
  private featureGates: string[] = [];

  constructor(
    private readonly ctx: WorldContext,
    private readonly workloads: Workloads,
    private readonly nodes: ClusterNodes,
    private readonly listener: KubevirtListener,
    initial: ClusterConfig,
  ) {
    const d = { version: initial.kubevirt.version, registry: initial.kubevirt.registry, launcherImage: initial.kubevirt.launcherImage };
    this.observed = d;
    this.target = d;
    this.launcher = d.launcherImage;
    this.cdiObserved = initial.cdi.version;
    this.cdiTarget = initial.cdi.version;
    this.featureGates = initial.kubevirt.featureGates;
  }

  currentLauncherImage(): string {
    return this.launcher;
  }

  gates(): string[] {
    return this.featureGates;
  }

  settled(): boolean {
    return this.observed.version === this.target.version && this.observed.registry === this.target.registry && this.cdiObserved === this.cdiTarget;
  }

  /** Creates the KubeVirt and CDI CRs and the operators' workloads, already Deployed. */
  seed(config: ClusterConfig): void {
    const workers = this.nodes.workers().map((n) => n.name);
    const cps = this.nodes.controlPlane().map((n) => n.name);
    for (const c of kubevirtComponents) {
      this.workloads.create({
        namespace: 'kubevirt',
        name: c.name,
        kind: c.name === 'virt-handler' ? 'DaemonSet' : 'Deployment',
        replicas: c.replicas,
        nodes: c.name === 'virt-handler' ? workers : c.name === 'virt-operator' ? cps : workers,
        labels: { 'kubevirt.io': c.name, 'app.kubernetes.io/component': 'kubevirt', 'app.kubernetes.io/managed-by': 'virt-operator', 'app.kubernetes.io/version': this.observed.version },
        ...(c.name === 'virt-handler' ? handlerContainers(this.observed) : { containers: [{ name: c.name, image: `${this.observed.registry}/${c.name}:${this.observed.version}` }] }),
        priorityClassName: 'kubevirt-cluster-critical',
        serviceAccountName: `kubevirt-${c.name.replace('virt-', '')}`,
      });
    }
    for (const c of cdiComponents) {
      this.workloads.create({
        namespace: 'cdi',
        name: c,
        kind: 'Deployment',
        replicas: 1,
        nodes: workers,
        labels: { 'cdi.kubevirt.io': c === 'cdi-operator' ? '' : c, 'app.kubernetes.io/component': 'storage', 'app.kubernetes.io/managed-by': 'cdi-operator', ...(c === 'cdi-operator' ? { name: 'cdi-operator' } : {}) },
        containers: [{ name: c, image: cdiImage(c, this.cdiObserved) }],
      });
    }
    this.ctx.store.upsert('kubevirts', this.kubevirtObject(config));
    this.ctx.store.upsert('cdis', this.cdiObject());
  }

  /** The orchestration pack was applied: patch the CR spec, and roll if a version changed. */
  apply(config: ClusterConfig): void {
    const k = config.kubevirt;
    this.featureGates = k.featureGates;
    this.ctx.store.update('kubevirts', 'kubevirt', 'kubevirt', (kv) => {
      kv.spec = kubevirtSpec(config);
      kv.metadata.generation = Number(kv.metadata.generation ?? 1) + 1;
    });
    const wanted = { version: k.version, registry: k.registry, launcherImage: k.launcherImage };
    if (wanted.version !== this.target.version || wanted.registry !== this.target.registry) this.rollKubevirt(wanted);
    if (config.cdi.version !== this.cdiTarget) this.rollCdi(config.cdi.version);
  }

  /** Refreshes `outdatedVirtualMachineInstanceWorkloads` (the workload updater's count). */
  setOutdatedCount(n: number): void {
    const kv = this.ctx.store.get('kubevirts', 'kubevirt', 'kubevirt');
    if ((kv?.status as { outdatedVirtualMachineInstanceWorkloads?: number } | undefined)?.outdatedVirtualMachineInstanceWorkloads === n) return;
    this.ctx.store.update('kubevirts', 'kubevirt', 'kubevirt', (o) => {
      (o.status as Record<string, unknown>).outdatedVirtualMachineInstanceWorkloads = n;
    });
  }

  /** Every component runs the target version (KubeVirt's observed deployment ID equals the target's). */
  rolledOut(): boolean {
    return this.observed.version === this.target.version && this.observed.registry === this.target.registry;
  }

  phase(): string {
    return String((this.ctx.store.get('kubevirts', 'kubevirt', 'kubevirt')?.status as { phase?: string } | undefined)?.phase ?? '');
  }

  /** The virt-handler pod on a node (the one whose logs show the node's errors). */
  handlerPodOn(node: string): KubeObject | undefined {
    return this.workloads.pods('kubevirt', 'virt-handler').find((p) => (p.spec as { nodeName?: string }).nodeName === node);
  }

  private rollKubevirt(wanted: Deployed): void {
    const gen = ++this.rolloutGeneration;
    const from = this.observed;
    this.target = wanted;
    const at = nowStamp(this.ctx);
    const msg = `Transitioning from previous version ${from.version} with registry ${from.registry} to target version ${wanted.version} using registry ${wanted.registry}`;
    const kv = this.ctx.store.update('kubevirts', 'kubevirt', 'kubevirt', (o) => {
      const st = o.status as Record<string, unknown>;
      // An update keeps phase Deployed: only an empty phase becomes Deploying (kubevirt pkg/virt-operator/kubevirt.go);
      // the conditions say UpdateInProgress and `Created` is dropped until the new version is in.
      st.targetKubeVirtVersion = wanted.version;
      st.targetKubeVirtRegistry = wanted.registry;
      st.targetDeploymentID = deploymentId(wanted.version, wanted.registry);
      st.conditions = [cond('Available', 'True', 'UpdateInProgress', msg, at), cond('Progressing', 'True', 'UpdateInProgress', msg, at), cond('Degraded', 'True', 'UpdateInProgress', msg, at)];
    });
    if (kv) recordEvent(this.ctx, kv, 'Normal', 'UpdateInProgress', msg, 'virt-operator');
    const image = (c: string) => [{ name: c, image: `${wanted.registry}/${c}:${wanted.version}` }];
    const stillCurrent = () => gen === this.rolloutGeneration;
    const rollDeployment = (name: string, next: () => void) => {
      if (!stillCurrent()) return;
      const spec = this.workloads.spec('kubevirt', name);
      this.workloads.update('kubevirt', name, { containers: image(name), labels: versioned(spec?.labels, wanted.version) }, { stepMs: timings.kubevirtDeploymentRoll / Math.max(1, spec?.replicas ?? 1), done: next });
    };
    const workers = Math.max(1, this.nodes.workers().length);
    rollDeployment('virt-operator', () =>
      rollDeployment('virt-api', () =>
        rollDeployment('virt-controller', () => {
          if (!stillCurrent()) return;
          this.launcher = wanted.launcherImage;
          this.listener.launcherChanged(wanted.launcherImage);
          this.rollHandlers(wanted, Math.max(1, Math.ceil(workers / 10)), () =>
            rollDeployment('virt-exportproxy', () => {
              if (stillCurrent()) this.finishKubevirt(wanted);
            }),
          );
        }),
      ),
    );
  }

  /** virt-handler: a canary pod first, then batches of 10% of the nodes. */
  private rollHandlers(wanted: Deployed, batch: number, done: () => void): void {
    const gen = this.rolloutGeneration;
    this.workloads.update('kubevirt', 'virt-handler', { ...handlerContainers(wanted), labels: versioned(this.workloads.spec('kubevirt', 'virt-handler')?.labels, wanted.version) }, {
      batch: (step) => (step === 0 ? 1 : batch),
      stepMs: timings.handlerBatch,
      done: () => {
        if (gen === this.rolloutGeneration) done();
      },
    });
  }

  private finishKubevirt(wanted: Deployed): void {
    this.observed = wanted;
    const at = nowStamp(this.ctx);
    const ok = 'All components are ready.';
    const kv = this.ctx.store.update('kubevirts', 'kubevirt', 'kubevirt', (o) => {
      const st = o.status as Record<string, unknown>;
      st.phase = 'Deployed';
      st.observedKubeVirtVersion = wanted.version;
      st.observedKubeVirtRegistry = wanted.registry;
      st.observedDeploymentID = deploymentId(wanted.version, wanted.registry);
      st.operatorVersion = wanted.version;
      st.conditions = deployedConditions(at, ok);
    });
    if (kv) recordEvent(this.ctx, kv, 'Normal', 'AllComponentsReady', `KubeVirt ${wanted.version} deployed`, 'virt-operator');
    this.ctx.logs.append('kubevirt', this.workloads.pods('kubevirt', 'virt-operator')[0]?.metadata.name ?? '', kubevirtLine(this.ctx.clock.now(), 'virt-operator', 'info', `All KubeVirt components ready, version ${wanted.version}`, { pos: 'kubevirt.go:1013' }));
    this.listener.deployed();
  }

  private rollCdi(version: string): void {
    const gen = ++this.cdiGeneration;
    const from = this.cdiObserved;
    this.cdiTarget = version;
    const at = nowStamp(this.ctx);
    this.ctx.store.update('cdis', undefined, 'cdi', (o) => {
      const st = o.status as Record<string, unknown>;
      st.phase = 'Upgrading';
      st.targetVersion = version;
      st.conditions = [
        cdiCond('Available', 'True', 'UpgradeStarted', `Started upgrade to version ${version}`, at),
        cdiCond('Progressing', 'True', 'UpgradeStarted', `Started upgrade to version ${version}`, at),
        cdiCond('Degraded', 'False', '', '', at),
      ];
    });
    const chain = (i: number): void => {
      if (gen !== this.cdiGeneration) return;
      const name = cdiComponents[i];
      if (name === undefined) {
        this.finishCdi(version, from);
        return;
      }
      this.workloads.update('cdi', name, { containers: [{ name, image: cdiImage(name, version) }] }, { stepMs: timings.cdiDeploymentRoll, done: () => chain(i + 1) });
    };
    chain(0);
  }

  private finishCdi(version: string, from: string): void {
    this.cdiObserved = version;
    const at = nowStamp(this.ctx);
    const cdi = this.ctx.store.update('cdis', undefined, 'cdi', (o) => {
      const st = o.status as Record<string, unknown>;
      st.phase = 'Deployed';
      st.observedVersion = version;
      st.operatorVersion = version;
      st.conditions = [cdiCond('Available', 'True', 'DeployCompleted', 'Deployment Completed', at), cdiCond('Progressing', 'False', 'DeployCompleted', '', at), cdiCond('Degraded', 'False', '', '', at)];
    });
    if (cdi) recordEvent(this.ctx, cdi, 'Normal', 'UpgradeSucceeded', `Successfully upgraded from version ${from} to ${version}`, 'cdi-operator');
  }

  private kubevirtObject(config: ClusterConfig): KubeObject {
    const at = nowStamp(this.ctx);
    const d = this.observed;
    return {
      apiVersion: 'kubevirt.io/v1',
      kind: 'KubeVirt',
      metadata: {
        name: 'kubevirt',
        namespace: 'kubevirt',
        finalizers: ['foregroundDeleteKubeVirt'],
        generation: 1,
        labels: { 'app.kubernetes.io/managed-by': 'Helm' },
        annotations: { 'kubevirt.io/latest-observed-api-version': 'v1', 'kubevirt.io/storage-observed-api-version': 'v1', 'meta.helm.sh/release-name': 'virtual-machine-orchestrator', 'meta.helm.sh/release-namespace': 'vm-dashboard' },
      },
      spec: kubevirtSpec(config),
      status: {
        phase: 'Deployed',
        observedKubeVirtVersion: d.version,
        targetKubeVirtVersion: d.version,
        observedKubeVirtRegistry: d.registry,
        targetKubeVirtRegistry: d.registry,
        observedDeploymentID: deploymentId(d.version, d.registry),
        targetDeploymentID: deploymentId(d.version, d.registry),
        operatorVersion: d.version,
        defaultArchitecture: 'amd64',
        outdatedVirtualMachineInstanceWorkloads: 0,
        conditions: deployedConditions(at, 'All components are ready.'),
      },
    };
  }

  private cdiObject(): KubeObject {
    const at = nowStamp(this.ctx);
    return {
      apiVersion: 'cdi.kubevirt.io/v1beta1',
      kind: 'CDI',
      metadata: { name: 'cdi', finalizers: ['operator.cdi.kubevirt.io'], generation: 1, labels: { 'app.kubernetes.io/managed-by': 'Helm' } },
      spec: {
        config: { featureGates: ['HonorWaitForFirstConsumer'], filesystemOverhead: { global: '0.08' }, podResourceRequirements: { limits: { cpu: '1', memory: '8G' }, requests: { cpu: '250m', memory: '1G' } } },
        imagePullPolicy: 'IfNotPresent',
        infra: { nodeSelector: { 'kubernetes.io/os': 'linux' }, tolerations: [{ key: 'CriticalAddonsOnly', operator: 'Exists' }] },
        workload: { nodeSelector: { 'kubernetes.io/os': 'linux' } },
      },
      status: {
        phase: 'Deployed',
        observedVersion: this.cdiObserved,
        operatorVersion: this.cdiObserved,
        targetVersion: this.cdiObserved,
        conditions: [cdiCond('Available', 'True', 'DeployCompleted', 'Deployment Completed', at), cdiCond('Progressing', 'False', 'DeployCompleted', '', at), cdiCond('Degraded', 'False', '', '', at)],
      },
    };
  }
}

/**
 * virt-handler's pod as virt-operator renders it (kubevirt pkg/virt-operator/resource/generate/
 * components/daemonsets.go): the init container `virt-launcher` (the node labeller), the
 * `virt-handler` container, and, because the CR names image pull secrets, the
 * `virt-launcher-image-holder` that keeps the launcher image on the node. A log read without a
 * container name is then refused (400), as on a real cluster.
 */
function handlerContainers(d: Deployed): { containers: ContainerInput[]; initContainers: ContainerInput[] } {
  return {
    containers: [
      { name: 'virt-handler', image: `${d.registry}/virt-handler:${d.version}`, command: ['virt-handler'] },
      { name: 'virt-launcher-image-holder', image: d.launcherImage, command: ['/bin/sh', '-c'], args: ['sleep infinity'] },
    ],
    initContainers: [{ name: 'virt-launcher', image: d.launcherImage, command: ['/bin/sh', '-c'], args: ['node-labeller.sh'] }],
  };
}

const kubevirtComponents = [
  { name: 'virt-operator', replicas: 2 },
  { name: 'virt-api', replicas: 2 },
  { name: 'virt-controller', replicas: 2 },
  { name: 'virt-handler', replicas: 0 },
  { name: 'virt-exportproxy', replicas: 2 },
];

/** virt-operator labels what it deploys with the version it deploys (the real virt-handler pod in test/fixtures/real shows it): new pods carry the new one. */
function versioned(labels: Record<string, string> | undefined, version: string): Record<string, string> {
  return { ...labels, 'app.kubernetes.io/version': version };
}

const cdiComponents = ['cdi-operator', 'cdi-apiserver', 'cdi-deployment', 'cdi-uploadproxy'];

function cdiImage(component: string, version: string): string {
  const image = component === 'cdi-deployment' ? 'cdi-controller' : component;
  return `quay.io/kubevirt/${image}:${version}`;
}

/** A KubeVirt CR condition that changed: virt-operator stamps both times (pkg/virt-operator/util/client.go `SetConditionTimestamps`). */
function cond(type: string, status: string, reason: string, message: string, at: string): Record<string, unknown> {
  return { type, status, lastProbeTime: at, lastTransitionTime: at, ...(reason ? { reason } : {}), ...(message ? { message } : {}) };
}

/** A CDI CR condition (openshift/custom-resource-status conditions/v1): a heartbeat and a transition time. */
function cdiCond(type: string, status: string, reason: string, message: string, at: string): Record<string, unknown> {
  return { type, status, lastHeartbeatTime: at, lastTransitionTime: at, ...(reason ? { reason } : {}), ...(message ? { message } : {}) };
}

/** Deployed: the three conditions changed now; `Created` is new (removed while updating), so it has a probe time and no transition time. */
function deployedConditions(at: string, ok: string): Array<Record<string, unknown>> {
  return [
    cond('Available', 'True', 'AllComponentsReady', ok, at),
    cond('Progressing', 'False', 'AllComponentsReady', ok, at),
    cond('Degraded', 'False', 'AllComponentsReady', ok, at),
    { type: 'Created', status: 'True', lastProbeTime: at, lastTransitionTime: null, reason: 'AllResourcesCreated', message: 'All resources were created.' },
  ];
}

export function kubevirtSpec(config: ClusterConfig): Record<string, unknown> {
  const k = config.kubevirt;
  return {
    certificateRotateStrategy: {},
    configuration: {
      developerConfiguration: { featureGates: k.featureGates },
      evictionStrategy: k.evictionStrategy,
      migrations: { allowAutoConverge: true, completionTimeoutPerGiB: 800 },
      vmRolloutStrategy: 'LiveUpdate',
    },
    customizeComponents: {},
    imagePullPolicy: 'IfNotPresent',
    // Images come from a registry that needs credentials; virt-operator then adds the launcher image holder to virt-handler.
    imagePullSecrets: [{ name: 'vmo-registry-pull-secret' }],
    imageRegistry: k.registry,
    imageTag: k.version,
    monitorAccount: 'prometheus-operator-prometheus',
    monitorNamespace: 'monitoring',
    serviceMonitorNamespace: 'monitoring',
    workloadUpdateStrategy: {
      workloadUpdateMethods: k.workloadUpdateMethods,
      batchEvictionSize: timings.batchEvictionSize,
      batchEvictionInterval: '1m0s',
    },
    workloads: {},
    uninstallStrategy: '',
  };
}
