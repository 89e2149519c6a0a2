/**
 * The restart subresource as virt-api answers it, the VM's downtime, the new VMI, the Halted VM's
 * refusal, and the secure-boot VM that cannot start without the SMM feature gate.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isMap, isScalar, isSeq } from 'yaml';
import { parseValues, printValues } from '../../../src/lab/data/yaml-edit.js';
import { outdatedLabel } from '../../../src/lab/world/kubevirt-objects.js';
import { createHarness, phaseOf, type Harness } from '../support/world-harness.js';

const min = 60_000;
const restart = (h: Harness, namespace: string, name: string) => h.world.kubeHooks.subresource!({ resource: 'virtualmachines', namespace, name, subresource: 'restart', method: 'PUT', body: {} });
const printable = (h: Harness, ns: string, name: string) => (h.get('virtualmachines', ns, name)!.status as { printableStatus: string }).printableStatus;

let h: Harness;
afterEach(() => h?.close());

describe('restart subresource', () => {
  it('answers 202, takes the VM down for a while, then boots a new VMI', () => {
    h = createHarness('healthy');
    const before = h.get('virtualmachineinstances', 'ns-product', 'api-01')!;
    const podBefore = h.list('pods', { namespace: 'ns-product', labelSelector: 'vm.kubevirt.io/name=api-01' })[0]!;
    expect(restart(h, 'ns-product', 'api-01')).toEqual({ status: 202 });
    expect(h.get('virtualmachineinstances', 'ns-product', 'api-01')!.metadata.deletionTimestamp).toBeDefined();
    expect(printable(h, 'ns-product', 'api-01')).toBe('Stopping');
    h.clock.advance(31_000);
    expect(h.get('virtualmachineinstances', 'ns-product', 'api-01')).toBeUndefined();
    expect(h.get('pods', 'ns-product', podBefore.metadata.name)).toBeUndefined();
    expect(printable(h, 'ns-product', 'api-01')).toBe('Starting');
    expect(h.runUntil(() => phaseOf(h.get('virtualmachineinstances', 'ns-product', 'api-01')) === 'Running', 3 * min, 1000)).toBe(true);
    const after = h.get('virtualmachineinstances', 'ns-product', 'api-01')!;
    expect(after.metadata.uid).not.toBe(before.metadata.uid);
    expect(after.metadata.creationTimestamp! > before.metadata.creationTimestamp!).toBe(true);
    expect(printable(h, 'ns-product', 'api-01')).toBe('Running');
    expect(h.list('pods', { namespace: 'ns-product', labelSelector: `kubevirt.io/created-by=${after.metadata.uid!}`, fieldSelector: 'status.phase=Running' })).toHaveLength(1);
  });

  it('refuses a VM whose RunStrategy is Halted, as virt-api does', () => {
    h = createHarness('healthy');
    expect(restart(h, 'ns-adv', 'legacy-app-01')).toEqual({
      code: 409,
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on virtualmachine.kubevirt.io "legacy-app-01": RunStategy Halted does not support manual restart requests',
      details: { name: 'legacy-app-01', group: 'kubevirt.io', kind: 'virtualmachine' },
    });
    h.clock.advance(5 * min);
    expect(h.get('virtualmachineinstances', 'ns-adv', 'legacy-app-01')).toBeUndefined();
  });

  it('keeps a node-local VM on its node and boots it on the new launcher after a hop', () => {
    h = createHarness('healthy');
    h.publishHop('4.5.4');
    expect(h.runUntil(() => !h.world.reconciler.busy(), 30 * min)).toBe(true);
    expect(h.get('virtualmachineinstances', 'ns-packs', 'build-cache-01')!.metadata.labels?.[outdatedLabel]).toBe('');
    restart(h, 'ns-packs', 'build-cache-01');
    expect(h.runUntil(() => h.get('virtualmachineinstances', 'ns-packs', 'build-cache-01')?.metadata.labels?.[outdatedLabel] === undefined && phaseOf(h.get('virtualmachineinstances', 'ns-packs', 'build-cache-01')) === 'Running', 5 * min, 1000)).toBe(true);
    expect((h.get('virtualmachineinstances', 'ns-packs', 'build-cache-01')!.status as { nodeName: string }).nodeName).toBe('vmo-worker-3');
  });
});

describe('deletions through the API', () => {
  const del = (h: Harness, resource: string, namespace: string, name: string) => h.world.kubeHooks.afterDelete!(resource, h.store.remove(resource, namespace, name)!);

  it('a deleted VMI is started again by its VM; a deleted VM takes its VMI and launcher with it', () => {
    h = createHarness('healthy');
    const before = h.get('virtualmachineinstances', 'virtual-machines', 'web-01')!;
    del(h, 'virtualmachineinstances', 'virtual-machines', 'web-01');
    expect(h.runUntil(() => phaseOf(h.get('virtualmachineinstances', 'virtual-machines', 'web-01')) === 'Running', 3 * min, 1000)).toBe(true);
    expect(h.get('virtualmachineinstances', 'virtual-machines', 'web-01')!.metadata.uid).not.toBe(before.metadata.uid);

    del(h, 'virtualmachines', 'ns-product', 'api-02');
    h.clock.advance(min);
    expect(h.get('virtualmachineinstances', 'ns-product', 'api-02')).toBeUndefined();
    expect(h.list('pods', { namespace: 'ns-product', labelSelector: 'vm.kubevirt.io/name=api-02' })).toHaveLength(0);
  });

  it('deleting a running migration\'s target pod fails that migration; the VMI stays on its source', () => {
    h = createHarness('healthy');
    h.publishHop('4.5.4');
    expect(h.runUntil(() => h.list('virtualmachineinstancemigrations').some((m) => phaseOf(m) === 'Running'), 40 * min, 1000)).toBe(true);
    const m = h.list('virtualmachineinstancemigrations').find((x) => phaseOf(x) === 'Running')!;
    const vmiName = (m.spec as { vmiName: string }).vmiName;
    const source = (h.get('virtualmachineinstances', m.metadata.namespace, vmiName)!.status as { nodeName: string }).nodeName;
    const target = (h.get('virtualmachineinstances', m.metadata.namespace, vmiName)!.status as { migrationState: { targetPod: string } }).migrationState.targetPod;
    del(h, 'pods', m.metadata.namespace!, target);
    expect(phaseOf(h.get('virtualmachineinstancemigrations', m.metadata.namespace, m.metadata.name))).toBe('Failed');
    expect((h.get('virtualmachineinstances', m.metadata.namespace, vmiName)!.status as { nodeName: string }).nodeName).toBe(source);
  });
});

describe('secure boot without SMM', () => {
  it('fails to start after a restart when SMM is missing from the published gates, and recovers once it is back', () => {
    h = createHarness('lost-customizations');
    h.publishVersion('addon', '4.5.4', { without: new Set(['kubevirt-smm-feature-gate']), label: '1.5.1' });
    expect(h.runUntil(() => !h.world.reconciler.busy(), 20 * min)).toBe(true);
    const gates = (h.get('kubevirts', 'kubevirt', 'kubevirt')!.spec as { configuration: { developerConfiguration: { featureGates: string[] } } }).configuration.developerConfiguration.featureGates;
    expect(gates).not.toContain('SMM');
    // Running VMs are unaffected until they restart
    expect(phaseOf(h.get('virtualmachineinstances', 'ns-adv', 'win-sb-01'))).toBe('Running');
    restart(h, 'ns-adv', 'win-sb-01');
    expect(h.runUntil(() => phaseOf(h.get('virtualmachineinstances', 'ns-adv', 'win-sb-01')) === 'Failed', 3 * min, 1000)).toBe(true);
    expect(printable(h, 'ns-adv', 'win-sb-01')).toBe('CrashLoopBackOff');
    const vmi = h.get('virtualmachineinstances', 'ns-adv', 'win-sb-01')!;
    expect(JSON.stringify(vmi.status)).toContain('Secure boot requires SMM feature enabled');
    const pod = h.list('pods', { namespace: 'ns-adv', labelSelector: `kubevirt.io/created-by=${vmi.metadata.uid!}` })[0]!;
    expect(phaseOf(pod)).toBe('Failed');
    expect(h.world.kubeHooks.logs!('ns-adv', pod.metadata.name, { container: 'compute' })).toContain('Secure boot requires SMM feature enabled');
    // Other VMs restart fine
    restart(h, 'ns-product', 'api-02');
    expect(h.runUntil(() => printable(h, 'ns-product', 'api-02') === 'Running', 3 * min, 1000)).toBe(true);

    // The site's setting published again: the next crash-loop retry boots it
    h.publishVersion('addon', '4.5.4', { label: '1.5.2' });
    expect(h.runUntil(() => phaseOf(h.get('virtualmachineinstances', 'ns-adv', 'win-sb-01')) === 'Running', 20 * min, 5000)).toBe(true);
    expect(printable(h, 'ns-adv', 'win-sb-01')).toBe('Running');
  });
});

describe('workload update methods', () => {
  it('with Evict as well, the node-local VMI is shut down and started again on the new launcher', () => {
    h = createHarness('healthy');
    const addEvict = (values: string): string => {
      const doc = parseValues(values);
      const methods = doc.getIn(['charts', 'virtual-machine-orchestrator', 'kubevirt', 'kubevirtResource', 'workloadsUpdateStrategy', 'workloadUpdateMethods'], true);
      if (isSeq(methods) && !methods.items.some((i) => isScalar(i) && i.value === 'Evict')) methods.items.push(doc.createNode('Evict'));
      expect(isMap(doc.contents)).toBe(true);
      return printValues(doc, values);
    };
    const before = h.get('virtualmachineinstances', 'ns-packs', 'build-cache-01')!;
    const webBefore = h.get('virtualmachineinstances', 'virtual-machines', 'web-01')!;
    h.publishVersion('addon', '4.5.4', { edit: (p) => (p.name === 'virtual-machine-orchestrator' ? { ...p, values: addEvict(p.values) } : p) });
    expect(h.runUntil(() => (h.get('kubevirts', 'kubevirt', 'kubevirt')!.spec as { workloadUpdateStrategy: { workloadUpdateMethods: string[] } }).workloadUpdateStrategy.workloadUpdateMethods.includes('Evict'), 20 * min)).toBe(true);
    expect(h.runUntil(() => (h.get('kubevirts', 'kubevirt', 'kubevirt')!.status as { observedKubeVirtVersion: string }).observedKubeVirtVersion === 'v1.3.1', 20 * min)).toBe(true);
    expect(h.runUntil(() => h.list('virtualmachineinstances', { labelSelector: outdatedLabel }).length === 0 && h.list('virtualmachineinstances', { fieldSelector: 'metadata.name=build-cache-01' }).every((v) => phaseOf(v) === 'Running'), 30 * min, 1000)).toBe(true);
    const after = h.get('virtualmachineinstances', 'ns-packs', 'build-cache-01')!;
    expect(after.metadata.uid).not.toBe(before.metadata.uid);
    expect((after.status as { nodeName: string }).nodeName).toBe('vmo-worker-3');
    // The migratable ones still went by live migration: same VMI, new node
    expect(h.get('virtualmachineinstances', 'virtual-machines', 'web-01')!.metadata.uid).toBe(webBefore.metadata.uid);
    expect((h.get('virtualmachineinstances', 'virtual-machines', 'web-01')!.status as { migrationState: { completed: boolean } }).migrationState.completed).toBe(true);
  });
});
