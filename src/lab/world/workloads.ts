/**
 * Ordinary workloads (Deployments, DaemonSets, StatefulSets, Jobs) and their pods: creation with
 * realistic generated names, rolling replacement when a pack changes their images, and health
 * (running, crash-looping, pending) that the world's customization effects set.
 */
import type { KubeObject } from '../kube/types.js';
import { nowStamp, recordRepeatingEvent, type WorldContext } from './context.js';
import { deploymentObject, deploymentStatus, hashOf, podObject, setPodState, type ContainerInput, type PodState } from './k8s-objects.js';
import type { PodNetwork } from './pod-network.js';
import { timings } from './timings.js';

/** `Static`: a kubelet static pod per node (control-plane components), named `<name>-<node>`. */
export type WorkloadKind = 'Deployment' | 'DaemonSet' | 'StatefulSet' | 'Job' | 'Static';

export interface WorkloadSpec {
  namespace: string;
  name: string;
  kind: WorkloadKind;
  /** Pod count for Deployments, StatefulSets and Jobs. */
  replicas?: number;
  /** DaemonSets: one pod per node listed. Others: nodes the pods are spread over. */
  nodes: string[];
  /** Pod labels (also the selector). */
  labels: Record<string, string>;
  containers: ContainerInput[];
  initContainers?: ContainerInput[];
  hostNetwork?: boolean;
  priorityClassName?: string;
  serviceAccountName?: string;
  /** How a pod on a node fares; default running. */
  health?: (node: string | undefined, index: number) => PodState;
}

interface Tracked {
  spec: WorkloadSpec;
  /** Pod name → node and index. */
  pods: Map<string, { node: string | undefined; index: number }>;
  generation: number;
  rolling: boolean;
  /** Bumped by each roll; a superseded roll stops at its next step. */
  rollToken: number;
}

const hashes = new Map<string, string>();

/** A pod-template-hash in Kubernetes' alphabet and length, stable for the same images. */
function templateHash(containers: ContainerInput[]): string {
  const images = containers.map((c) => c.image).join(',');
  let h = hashes.get(images);
  if (h === undefined) {
    h = hashOf(images)
      .replace(/[aeiou01]/g, '')
      .replace(/[^bcdfghjklmnpqrstvwxz2456789]/g, 'x')
      .slice(0, 10);
    if (hashes.size > 10_000) hashes.clear();
    hashes.set(images, h);
  }
  return h;
}

export class Workloads {
  private readonly tracked = new Map<string, Tracked>();
  /** Pods whose container crash-loops: their restart counts grow over time. */
  private readonly crashLooping = new Set<string>();

  constructor(
    private readonly ctx: WorldContext,
    private readonly network: PodNetwork,
  ) {}

  has(namespace: string, name: string): boolean {
    return this.tracked.has(`${namespace}/${name}`);
  }

  spec(namespace: string, name: string): WorkloadSpec | undefined {
    return this.tracked.get(`${namespace}/${name}`)?.spec;
  }

  /** Creates the workload's pods (and Deployment object) as they are now, all settled. */
  create(spec: WorkloadSpec): void {
    const key = `${spec.namespace}/${spec.name}`;
    const t: Tracked = { spec, pods: new Map(), generation: 1, rolling: false, rollToken: 0 };
    this.tracked.set(key, t);
    if (spec.kind === 'Deployment') {
      this.ctx.store.upsert('deployments', deploymentObject({ namespace: spec.namespace, name: spec.name, labels: spec.labels, replicas: spec.replicas ?? 1, containers: spec.containers, created: nowStamp(this.ctx) }));
    }
    this.placements(spec).forEach((node, index) => this.addPod(t, node, index, this.stateFor(spec, node, index)));
  }

  /** Pods of a workload, as stored. */
  pods(namespace: string, name: string): KubeObject[] {
    const t = this.tracked.get(`${namespace}/${name}`);
    if (!t) return [];
    return [...t.pods.keys()].flatMap((p) => this.ctx.store.get('pods', namespace, p) ?? []);
  }

  /**
   * Changes the workload: new images roll the pods (one batch per step, each new pod Running after
   * `podReplace`); new health or nodes apply at once. Calls `done` when every pod is current.
   */
  update(namespace: string, name: string, change: Partial<Pick<WorkloadSpec, 'containers' | 'initContainers' | 'health' | 'nodes' | 'replicas' | 'labels'>>, opts: { batch?: number | ((step: number) => number); stepMs?: number; done?: () => void } = {}): void {
    const t = this.tracked.get(`${namespace}/${name}`);
    if (!t) throw new Error(`no workload ${namespace}/${name}`);
    const imagesChanged = change.containers !== undefined && change.containers.map((c) => c.image).join() !== t.spec.containers.map((c) => c.image).join();
    t.spec = { ...t.spec, ...change };
    if (!imagesChanged) {
      this.reconcilePlacement(t);
      this.refresh(namespace, name);
      opts.done?.();
      return;
    }
    t.generation += 1;
    t.rolling = true;
    const token = ++t.rollToken;
    const old = [...t.pods.entries()];
    const batchAt = (step: number) => Math.max(1, typeof opts.batch === 'function' ? opts.batch(step) : (opts.batch ?? 1));
    let stepIndex = 0;
    const step = opts.stepMs ?? timings.podReplace;
    this.setDeploymentStatus(t, 0);
    let replaced = 0;
    const next = (): void => {
      if (this.tracked.get(`${namespace}/${name}`) !== t || t.rollToken !== token) return;
      const slice = old.slice(replaced, replaced + batchAt(stepIndex++));
      for (const [podName, where] of slice) {
        this.removePod(t, podName);
        this.addPod(t, where.node, where.index, { kind: 'pending', reason: 'ContainerCreating', message: '' });
      }
      replaced += slice.length;
      this.ctx.clock.after(step, () => {
        if (t.rollToken !== token) return;
        for (const [podName, where] of [...t.pods.entries()]) {
          const pod = this.ctx.store.get('pods', namespace, podName);
          if ((pod?.status as { phase?: string } | undefined)?.phase === 'Pending') this.setState(namespace, podName, this.stateFor(t.spec, where.node, where.index));
        }
        this.setDeploymentStatus(t, replaced);
        if (replaced < old.length) next();
        else {
          t.rolling = false;
          this.reconcilePlacement(t);
          opts.done?.();
        }
      });
    };
    next();
  }

  /** Re-evaluates the health of every pod of a workload (after a setting changed). */
  refresh(namespace: string, name: string): void {
    const t = this.tracked.get(`${namespace}/${name}`);
    if (!t) return;
    for (const [podName, where] of t.pods) {
      const pod = this.ctx.store.get('pods', namespace, podName);
      if ((pod?.status as { phase?: string } | undefined)?.phase === 'Pending' && t.rolling) continue;
      this.setState(namespace, podName, this.stateFor(t.spec, where.node, where.index));
    }
    this.setDeploymentStatus(t, t.pods.size);
  }

  /** Deletes a workload and its pods. */
  remove(namespace: string, name: string): void {
    const t = this.tracked.get(`${namespace}/${name}`);
    if (!t) return;
    for (const podName of [...t.pods.keys()]) this.removePod(t, podName);
    this.tracked.delete(`${namespace}/${name}`);
    if (t.spec.kind === 'Deployment') this.ctx.store.remove('deployments', namespace, name);
  }

  /** A pod of a tracked workload was deleted through the API: its controller makes a replacement. */
  podDeleted(pod: KubeObject): boolean {
    const ns = pod.metadata.namespace ?? '';
    for (const t of this.tracked.values()) {
      if (t.spec.namespace !== ns) continue;
      const where = t.pods.get(pod.metadata.name);
      if (!where) continue;
      t.pods.delete(pod.metadata.name);
      this.crashLooping.delete(`${ns}/${pod.metadata.name}`);
      this.ctx.logs.forget(ns, pod.metadata.name);
      if (t.spec.kind === 'Job') return true;
      this.addPod(t, where.node, where.index, { kind: 'pending', reason: 'ContainerCreating', message: '' });
      const created = [...t.pods.keys()].pop()!;
      this.ctx.clock.after(timings.podReplace, () => {
        if (t.pods.has(created)) this.setState(ns, created, this.stateFor(t.spec, where.node, where.index));
      });
      return true;
    }
    return false;
  }

  /**
   * Crash-looping containers restart again (restartCount grows), as the kubelet's back-off allows,
   * and the kubelet repeats its BackOff warning event (what `kubectl get events` shows).
   */
  tickCrashLoops(): void {
    for (const key of this.crashLooping) {
      const [ns, name] = key.split('/') as [string, string];
      const pod = this.ctx.store.update('pods', ns, name, (p) => {
        const statuses = (p.status as { containerStatuses?: Array<{ restartCount: number }> }).containerStatuses;
        if (statuses?.[0]) statuses[0].restartCount += 1;
      });
      if (pod) this.backOff(pod);
    }
  }

  private backOff(pod: KubeObject): void {
    const container = (pod.spec as { containers?: Array<{ name: string }> } | undefined)?.containers?.[0]?.name ?? 'main';
    recordRepeatingEvent(this.ctx, pod, 'Warning', 'BackOff', `Back-off restarting failed container ${container} in pod ${pod.metadata.name}_${pod.metadata.namespace ?? ''}(${pod.metadata.uid ?? ''})`, 'kubelet');
  }

  private placements(spec: WorkloadSpec): Array<string | undefined> {
    if (spec.kind === 'DaemonSet' || spec.kind === 'Static') return [...spec.nodes];
    const n = spec.replicas ?? 1;
    return Array.from({ length: n }, (_, i) => (spec.nodes.length > 0 ? spec.nodes[i % spec.nodes.length] : undefined));
  }

  /** DaemonSets follow their node list; other kinds their replica count. */
  private reconcilePlacement(t: Tracked): void {
    const wanted = this.placements(t.spec);
    const byIndex = new Map([...t.pods.entries()].map(([name, w]) => [w.index, { name, ...w }]));
    if (t.spec.kind === 'DaemonSet' || t.spec.kind === 'Static') {
      const current = new Map([...t.pods.entries()].map(([name, w]) => [w.node, name]));
      for (const [node, name] of current) if (!wanted.includes(node)) this.removePod(t, name);
      wanted.forEach((node, i) => {
        if (!current.has(node)) this.addPod(t, node, i, this.stateFor(t.spec, node, i));
      });
      return;
    }
    for (const [index, p] of byIndex) if (index >= wanted.length) this.removePod(t, p.name);
    wanted.forEach((node, i) => {
      if (!byIndex.has(i)) this.addPod(t, node, i, this.stateFor(t.spec, node, i));
    });
  }

  private stateFor(spec: WorkloadSpec, node: string | undefined, index: number): PodState {
    return spec.health?.(node, index) ?? { kind: 'running' };
  }

  private podName(t: Tracked, index: number, node: string | undefined): string {
    const { name, kind } = t.spec;
    if (kind === 'Static') return `${name}-${node ?? index}`;
    if (kind === 'StatefulSet') return `${name}-${index}`;
    if (kind === 'Deployment') return `${name}-${templateHash(t.spec.containers)}-${this.ctx.rng.suffix()}`;
    return `${name}-${this.ctx.rng.suffix()}`;
  }

  private addPod(t: Tracked, node: string | undefined, index: number, state: PodState): void {
    const { spec } = t;
    let name = this.podName(t, index, node);
    while (t.pods.has(name) && spec.kind !== 'Static') name = this.podName(t, index, node);
    const ownerKind = spec.kind === 'Deployment' ? 'ReplicaSet' : spec.kind === 'Static' ? 'Node' : spec.kind;
    const ownerName = spec.kind === 'Deployment' ? `${spec.name}-${templateHash(spec.containers)}` : spec.kind === 'Static' ? (node ?? '') : spec.name;
    const hostIP = node ? this.network.nodeIp(node) : undefined;
    const podIP = spec.hostNetwork ? hostIP : this.network.podIp(node);
    const labels: Record<string, string> = { ...spec.labels };
    if (spec.kind === 'Deployment') labels['pod-template-hash'] = templateHash(spec.containers);
    if (spec.kind === 'DaemonSet') labels['controller-revision-hash'] = templateHash(spec.containers).slice(0, 9);
    if (spec.kind === 'DaemonSet' || spec.kind === 'StatefulSet') labels['pod-template-generation'] = String(t.generation);
    this.ctx.store.upsert(
      'pods',
      podObject({
        namespace: spec.namespace,
        name,
        node,
        labels,
        owner: { apiVersion: spec.kind === 'Job' ? 'batch/v1' : spec.kind === 'Static' ? 'v1' : 'apps/v1', kind: ownerKind, name: ownerName },
        containers: spec.containers,
        ...(spec.initContainers ? { initContainers: spec.initContainers } : {}),
        ...(spec.hostNetwork ? { hostNetwork: true } : {}),
        ...(podIP ? { podIP } : {}),
        ...(hostIP ? { hostIP } : {}),
        ...(spec.priorityClassName ? { priorityClassName: spec.priorityClassName } : {}),
        ...(spec.serviceAccountName ? { serviceAccountName: spec.serviceAccountName } : {}),
        restartPolicy: spec.kind === 'Job' ? 'Never' : 'Always',
        created: nowStamp(this.ctx),
        state,
      }),
    );
    t.pods.set(name, { node, index });
    if (state.kind === 'crashLoop') {
      this.crashLooping.add(`${spec.namespace}/${name}`);
      const pod = this.ctx.store.get('pods', spec.namespace, name);
      if (pod) this.backOff(pod);
    }
  }

  private removePod(t: Tracked, name: string): void {
    t.pods.delete(name);
    this.crashLooping.delete(`${t.spec.namespace}/${name}`);
    this.ctx.store.remove('pods', t.spec.namespace, name);
    this.ctx.logs.forget(t.spec.namespace, name);
  }

  private setState(namespace: string, name: string, state: PodState): void {
    const key = `${namespace}/${name}`;
    const at = nowStamp(this.ctx);
    this.ctx.store.update('pods', namespace, name, (pod) => {
      const before = (pod.status as { containerStatuses?: Array<{ restartCount?: number }> } | undefined)?.containerStatuses?.[0]?.restartCount ?? 0;
      setPodState(pod, state.kind === 'crashLoop' ? { ...state, restarts: Math.max(state.restarts, before) } : state, at);
    });
    if (state.kind === 'crashLoop') {
      this.crashLooping.add(key);
      const pod = this.ctx.store.get('pods', namespace, name);
      if (pod) this.backOff(pod);
    } else this.crashLooping.delete(key);
  }

  private setDeploymentStatus(t: Tracked, updated: number): void {
    if (t.spec.kind !== 'Deployment') return;
    const replicas = t.spec.replicas ?? 1;
    const ready = this.pods(t.spec.namespace, t.spec.name).filter((p) => {
      const st = p.status as { phase?: string; conditions?: Array<{ type: string; status: string }> } | undefined;
      return st?.phase === 'Running' && st.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
    }).length;
    const at = nowStamp(this.ctx);
    this.ctx.store.update('deployments', t.spec.namespace, t.spec.name, (d) => {
      const spec = d.spec as { replicas: number; template: { spec: { containers: Array<{ name: string; image: string }> } } };
      spec.replicas = replicas;
      spec.template.spec.containers = t.spec.containers.map((c) => ({ name: c.name, image: c.image }));
      d.metadata.generation = t.generation;
      (d.metadata.annotations ??= {})['deployment.kubernetes.io/revision'] = String(t.generation);
      d.status = deploymentStatus(replicas, ready, Math.min(updated, replicas), at, t.generation);
    });
  }
}
