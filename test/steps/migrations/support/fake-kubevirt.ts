/**
 * A small KubeVirt on the Kubernetes double: the restart subresource gives the VM a new VMI on the
 * current launcher (at once, slowly, or never quite), deleting a VMIM is recorded, pod logs come
 * from a map. Every mutating call lands in an audit log, so tests count exactly what was sent.
 */
import { randomUUID } from 'node:crypto';
import { AuditLog, type AuditEntry } from '../../../../src/lab/audit.js';
import type { ResourceStore } from '../../../../src/lab/kube/store.js';
import type { KubeLabHooks, KubeObject } from '../../../../src/lab/kube/types.js';
import { startLab, type Lab } from '../../../lab/kube/lab-fixture.js';
import { OUTDATED } from './objects.js';

export type RestartMode = 'instant' | 'slow' | 'never-back';

export interface FakeKubevirt {
  lab: Lab;
  store: ResourceStore;
  audit: AuditLog;
  logs: Map<string, string>;
  mode: RestartMode;
  /** Accepted restart PUTs, `ns/name` each. */
  restarted(): string[];
  /** Accepted VMIM deletes, `ns/name` each. */
  cancelled(): string[];
  mutations(): AuditEntry[];
  /**
   * Holds the slow restart's later stages (the old VMI gone, the new one scheduled, then running)
   * until `release`, which starts their delays from then: a test can look at "still shutting down"
   * without racing the 60 ms it lasts.
   */
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

const stamp = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

function newVmi(old: KubeObject, phase: string): KubeObject {
  const labels = { ...(old.metadata.labels ?? {}) };
  delete labels[OUTDATED];
  const status = { ...(old.status ?? {}), phase, launcherContainerImageVersion: 'registry.example/kubevirt/virt-launcher:v1.4.0' };
  delete (status as { migrationState?: unknown }).migrationState;
  return { ...old, metadata: { name: old.metadata.name, namespace: old.metadata.namespace, uid: randomUUID(), creationTimestamp: stamp(), labels }, status };
}

export async function startFakeKubevirt(seed: (store: ResourceStore) => void, mode: RestartMode = 'instant'): Promise<FakeKubevirt> {
  const audit = new AuditLog();
  const logs = new Map<string, string>();
  let lab: Lab | undefined;
  const timers = new Set<NodeJS.Timeout>();
  let held: Array<[number, () => void]> | undefined;
  const later = (ms: number, fn: () => void) => {
    if (held) return void held.push([ms, fn]);
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };
  const fake = { mode } as FakeKubevirt;
  const hooks: KubeLabHooks = {
    subresource: (req) => {
      if (req.resource !== 'virtualmachines' || req.subresource !== 'restart' || req.method !== 'PUT') return undefined;
      const store = lab!.store;
      const vm = store.get('virtualmachines', req.namespace, req.name);
      if ((vm?.spec as { runStrategy?: string } | undefined)?.runStrategy === 'Halted') return { code: 409, reason: 'Conflict', message: 'RunStategy Halted does not support manual restart requests' };
      const old = store.get('virtualmachineinstances', req.namespace, req.name);
      if (!old) return { code: 409, reason: 'Conflict', message: 'VM is not running' };
      if (fake.mode === 'instant') {
        store.upsert('virtualmachineinstances', newVmi(old, 'Running'));
        return { status: 202 };
      }
      store.update('virtualmachineinstances', req.namespace, req.name, (o) => {
        o.metadata.deletionTimestamp = stamp();
      });
      later(60, () => store.remove('virtualmachineinstances', req.namespace, req.name));
      later(120, () => store.upsert('virtualmachineinstances', newVmi(old, 'Scheduling')));
      if (fake.mode === 'slow') {
        later(200, () =>
          store.update('virtualmachineinstances', req.namespace, req.name, (o) => {
            const st = o.status as Record<string, unknown>;
            st.phase = 'Running';
            st.phaseTransitionTimestamps = [{ phase: 'Running', phaseTransitionTimestamp: stamp() }];
          }),
        );
      }
      return { status: 202 };
    },
    logs: (ns, pod, o) => logs.get(`${ns}/${pod}/${o.container ?? ''}`) ?? logs.get(`${ns}/${pod}/`) ?? '',
  };
  lab = await startLab({ seed, hooks, audit, now: () => Date.now() });
  const applied = (method: string) => audit.entries({ api: 'kube', method, effect: 'applied' });
  Object.assign(fake, {
    lab,
    store: lab.store,
    audit,
    logs,
    restarted: () => applied('PUT').map((e) => e.path.replace(/^.*\/namespaces\/([^/]+)\/virtualmachines\/([^/]+)\/restart$/, '$1/$2')),
    cancelled: () => applied('DELETE').map((e) => e.path.replace(/^.*\/namespaces\/([^/]+)\/virtualmachineinstancemigrations\/([^/]+)$/, '$1/$2')),
    mutations: () => audit.entries({ api: 'kube' }).filter((e) => e.method !== 'GET'),
    hold: () => {
      held ??= [];
    },
    release: () => {
      const queued = held ?? [];
      held = undefined;
      for (const [ms, fn] of queued) later(ms, fn);
    },
    close: async () => {
      for (const t of timers) clearTimeout(t);
      await lab!.close();
    },
  });
  return fake;
}
