/**
 * `healthy`: two one-minor hops, 4.4.10 → 4.5.4 → 4.6.3, published the way a careful tool would
 * (new defaults plus the site's customizations), observed over simulated time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/lab/kube/types.js';
import { outdatedLabel } from '../../../src/lab/world/kubevirt-objects.js';
import { createHarness, phaseOf, type Harness } from '../support/world-harness.js';

const min = 60_000;
const kv = (h: Harness) => h.get('kubevirts', 'kubevirt', 'kubevirt')!;
const kvStatus = (h: Harness) => kv(h).status as Record<string, unknown>;
const imageOf = (pod: KubeObject) => (pod.spec as { containers: Array<{ image: string }> }).containers[0]!.image;
const deployedVersions = (h: Harness) => Object.fromEntries(h.world.paletteHooks.clusterProfiles('c0ffee00c0ffee00c0ffee00')!.map((p) => [p.name, p.version]));

describe('healthy: one-minor hops', () => {
  let h: Harness;
  beforeAll(() => {
    h = createHarness('healthy');
  });
  afterAll(() => h.close());

  it('starts on KubeVirt v1.2.0, Deployed, nothing outdated', () => {
    expect(kvStatus(h)).toMatchObject({ phase: 'Deployed', observedKubeVirtVersion: 'v1.2.0', targetKubeVirtVersion: 'v1.2.0', outdatedVirtualMachineInstanceWorkloads: 0 });
    expect(h.list('virtualmachineinstances')).toHaveLength(8);
    expect(h.list('virtualmachineinstances', { labelSelector: outdatedLabel })).toHaveLength(0);
    expect(phaseOf(h.get('virtualmachines', 'ns-adv', 'legacy-app-01'))).toBe('');
    expect((h.get('virtualmachines', 'ns-adv', 'legacy-app-01')!.status as { printableStatus: string }).printableStatus).toBe('Stopped');
    expect(deployedVersions(h)).toEqual({ 'vmo-infra': '1.4.0', 'vmo-core-addon': '1.4.0' });
  });

  it('hop 1: publish → pickup → KubeVirt updating (still Deployed, UpdateInProgress) → components roll → observed = target; the profiles read moves last', () => {
    const handlersBefore = h.list('pods', { namespace: 'kubevirt', labelSelector: 'kubevirt.io=virt-handler' }).map((p) => p.metadata.name);
    const publishedAt = Math.floor(h.clock.now() / 1000) * 1000;
    h.publishHop('4.5.4');
    // Nothing happens before the agent picks the change up, and the read still shows the old version
    h.clock.advance(10_000);
    expect(deployedVersions(h)).toEqual({ 'vmo-infra': '1.4.0', 'vmo-core-addon': '1.4.0' });
    expect(kvStatus(h).targetKubeVirtVersion).toBe('v1.2.0');

    // The add-on profile reconciles after the infra one; its VMO pack moves KubeVirt's target
    // An update keeps phase Deployed (virt-operator sets Deploying only on a first install); the
    // conditions say UpdateInProgress and observed lags target until every component is in.
    expect(h.runUntil(() => kvStatus(h).targetKubeVirtVersion === 'v1.3.1', 15 * min)).toBe(true);
    expect(kvStatus(h).phase).toBe('Deployed');
    expect(kvStatus(h).observedKubeVirtVersion).toBe('v1.2.0');
    expect(deployedVersions(h)['vmo-core-addon']).toBe('1.4.0');
    const progressing = (kvStatus(h).conditions as Array<{ type: string; status: string; reason: string }>).find((c) => c.type === 'Progressing');
    expect(progressing).toMatchObject({ status: 'True', reason: 'UpdateInProgress' });
    expect((kvStatus(h).conditions as Array<{ type: string }>).map((c) => c.type)).not.toContain('Created');

    // Outdated labels appear once the new virt-controller runs; the updater waits for the rollout to end
    expect(h.runUntil(() => h.list('virtualmachineinstances', { labelSelector: outdatedLabel }).length === 8, 10 * min, 1000)).toBe(true);
    expect(kvStatus(h).observedKubeVirtVersion).toBe('v1.2.0');
    expect(h.list('virtualmachineinstancemigrations').filter((m) => Date.parse(m.metadata.creationTimestamp!) >= publishedAt)).toHaveLength(0);

    expect(h.runUntil(() => kvStatus(h).observedKubeVirtVersion === 'v1.3.1', 15 * min, 1000)).toBe(true);
    expect(kvStatus(h).phase).toBe('Deployed');
    expect((kvStatus(h).conditions as Array<{ type: string; lastTransitionTime: string | null }>).find((c) => c.type === 'Created')).toMatchObject({ lastTransitionTime: null });
    expect(kvStatus(h).observedKubeVirtVersion).toBe('v1.3.1');
    const handlers = h.list('pods', { namespace: 'kubevirt', labelSelector: 'kubevirt.io=virt-handler' });
    expect(handlers).toHaveLength(4);
    expect(handlers.every((p) => imageOf(p).endsWith('/virt-handler:v1.3.1'))).toBe(true);
    expect(handlers.some((p) => handlersBefore.includes(p.metadata.name))).toBe(false);
    for (const c of ['virt-api', 'virt-controller', 'virt-operator']) {
      const pods = h.list('pods', { namespace: 'kubevirt', labelSelector: `kubevirt.io=${c}` });
      expect(pods.map(imageOf).every((i) => i.endsWith(`/${c}:v1.3.1`))).toBe(true);
    }
    expect(h.runUntil(() => phaseOf(h.get('cdis', undefined, 'cdi')) === 'Deployed', 5 * min)).toBe(true);
    expect((h.get('cdis', undefined, 'cdi')!.status as { observedVersion: string }).observedVersion).toBe('v1.60.3');

    expect(h.runUntil(() => deployedVersions(h)['vmo-core-addon'] === '1.5.0', 10 * min)).toBe(true);
    const addon = h.world.paletteHooks.clusterProfiles('c0ffee00c0ffee00c0ffee00')!.find((p) => p.name === 'vmo-core-addon')!;
    expect(Object.fromEntries(addon.packs.map((p) => [p.name, p.tag]))).toEqual({ 'lb-metallb-helm': '0.14.9', nginx: '1.11.3', 'virtual-machine-orchestrator': '4.5.4', 'prometheus-operator': '62.3.1' });
    expect(deployedVersions(h)['vmo-infra']).toBe('1.5.0');
  });

  it('hop 1: the workload updater migrates every migratable VMI in batches; the node-local one stays outdated', () => {
    const seen = new Map<string, Set<string>>();
    let maxActive = 0;
    const before = new Map(h.list('virtualmachineinstances').map((v) => [`${v.metadata.namespace}/${v.metadata.name}`, (v.status as { nodeName: string }).nodeName]));
    const done = h.runUntil(
      () => {
        const migs = h.list('virtualmachineinstancemigrations').filter((m) => m.metadata.annotations?.['kubevirt.io/workloadUpdateMigration'] !== undefined);
        for (const m of migs) {
          const set = seen.get(m.metadata.name) ?? new Set<string>();
          set.add(phaseOf(m));
          seen.set(m.metadata.name, set);
        }
        maxActive = Math.max(maxActive, migs.filter((m) => !['Pending', 'Succeeded', 'Failed'].includes(phaseOf(m))).length);
        return h.list('virtualmachineinstances', { labelSelector: outdatedLabel }).length === 1;
      },
      30 * min,
      1000,
    );
    expect(done).toBe(true);
    const created = h.list('virtualmachineinstancemigrations').filter((m) => m.metadata.name.startsWith('kubevirt-workload-update-') && phaseOf(m) === 'Succeeded' && m.metadata.labels?.['kubevirt.io/vmi-name'] !== undefined);
    expect(created.length).toBeGreaterThanOrEqual(7);
    expect(maxActive).toBeLessThanOrEqual(5);
    // Phases walk the real sequence
    const walked = [...seen.values()].find((s) => s.size >= 5);
    expect(walked).toBeDefined();
    for (const p of walked!) expect(['Pending', 'Scheduling', 'Scheduled', 'PreparingTarget', 'TargetReady', 'Running', 'Succeeded']).toContain(p);

    const outdated = h.list('virtualmachineinstances', { labelSelector: outdatedLabel });
    expect(outdated.map((v) => `${v.metadata.namespace}/${v.metadata.name}`)).toEqual(['ns-packs/build-cache-01']);
    const local = outdated[0]!;
    expect((local.status as { conditions: Array<{ type: string; status: string; reason?: string }> }).conditions.find((c) => c.type === 'LiveMigratable')).toMatchObject({ status: 'False', reason: 'DisksNotLiveMigratable' });

    const web = h.get('virtualmachineinstances', 'virtual-machines', 'web-01')!;
    const st = web.status as { nodeName: string; launcherContainerImageVersion: string; migrationState: Record<string, unknown> };
    expect(st.launcherContainerImageVersion.endsWith('/virt-launcher:v1.3.1')).toBe(true);
    expect(st.migrationState).toMatchObject({ completed: true, sourceNode: before.get('virtual-machines/web-01'), targetNode: st.nodeName });
    // kubevirt/api's MigrationState fields are omitempty: a migration that did not fail has no `failed`
    expect(st.migrationState).not.toHaveProperty('failed');
    expect(st.migrationState.startTimestamp).toBeDefined();
    expect(st.migrationState.endTimestamp).toBeDefined();
    expect(st.nodeName).not.toBe(before.get('virtual-machines/web-01'));
    const launchers = h.list('pods', { namespace: 'virtual-machines', labelSelector: 'vm.kubevirt.io/name=web-01,kubevirt.io=virt-launcher', fieldSelector: 'status.phase=Running' });
    expect(launchers).toHaveLength(1);
    expect(imageOf(launchers[0]!).endsWith('/virt-launcher:v1.3.1')).toBe(true);
    expect((launchers[0]!.spec as { nodeName: string }).nodeName).toBe(st.nodeName);
    // The Halted VM was never started
    expect(h.get('virtualmachineinstances', 'ns-adv', 'legacy-app-01')).toBeUndefined();
    h.clock.advance(min);
    expect(kvStatus(h).outdatedVirtualMachineInstanceWorkloads).toBe(1);
  });

  it('hop 2 to 4.6.3 migrates cleanly too, and the site settings hold throughout', () => {
    h.publishHop('4.6.3');
    expect(h.runUntil(() => deployedVersions(h)['vmo-core-addon'] === '1.6.0', 30 * min)).toBe(true);
    expect(kvStatus(h)).toMatchObject({ phase: 'Deployed', observedKubeVirtVersion: 'v1.4.0' });
    expect(h.runUntil(() => h.list('virtualmachineinstances', { labelSelector: outdatedLabel }).length === 1, 30 * min)).toBe(true);
    // No migration of this hop failed; the failures kept from a week ago are db-01's, superseded since
    const failed = h.list('virtualmachineinstancemigrations').filter((m) => phaseOf(m) === 'Failed');
    expect(failed.every((m) => m.spec?.vmiName === 'db-01' && Date.parse(m.metadata.creationTimestamp!) < h.clock.now() - 5 * 24 * 3_600_000)).toBe(true);
    // Customizations carried: fixed ingress address, no unintended addresses, block class intact, SMM on
    const lb = h.list('services', { fieldSelector: 'spec.type=LoadBalancer' }).filter((s) => ((s.status as { loadBalancer: { ingress?: unknown[] } }).loadBalancer.ingress ?? []).length > 0);
    expect(lb.map((s) => `${s.metadata.namespace}/${s.metadata.name}`).sort()).toEqual(['ingress-nginx/ingress-nginx-controller', 'virtual-machines/web-frontend-lb']);
    expect(h.get('services', 'kubevirt', 'virt-exportproxy-lb')!.spec).toMatchObject({ type: 'LoadBalancer' });
    const sc = h.get('storageclasses', undefined, 'px-vm-block')!;
    expect(sc.metadata.annotations?.['storageclass.kubevirt.io/is-default-virt-class']).toBe('true');
    expect(sc.parameters).toEqual({ repl: '3', io_profile: 'db_remote', priority_io: 'high' });
    expect((kv(h).spec as { configuration: { developerConfiguration: { featureGates: string[] } } }).configuration.developerConfiguration.featureGates).toContain('SMM');
    expect(phaseOf(h.list('storageclusters')[0])).toBe('Running');
    expect(h.list('pods', { fieldSelector: 'status.phase!=Running,status.phase!=Succeeded' }).map((p) => p.metadata.name)).toEqual(['coredns-7c65d6cfc9-x2q7r', 'etcd-defrag-29012960-8kq4z']);
  });
});
