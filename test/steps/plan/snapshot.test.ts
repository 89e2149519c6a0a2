import { describe, expect, it } from 'vitest';
import { findStep } from '../../../src/engine/state.js';
import type { Vm, Vmi } from '../../../src/kube/schemas.js';
import { summarizeBaseline } from '../../../src/steps/snapshot/baseline.js';
import { profileDrift } from '../../../src/steps/snapshot/drift.js';
import type { SnapshotOutput } from '../../../src/steps/snapshot/snapshot.js';
import { seedHealthyCluster } from './support/cluster-seed.js';
import { startDoubles } from './support/doubles.js';
import { kubeFor, runSteps } from './support/run-steps.js';

describe('snapshot against the doubles', () => {
  it('records the deployed profiles and a baseline of the known VMs, networks, services, storage classes, nodes and versions; drift shows on resume', async () => {
    const d = await startDoubles({ seed: seedHealthyCluster });
    try {
      const r = await runSteps({ site: d.site, palette: d.palette, kube: kubeFor(d.kube.kubeconfig, 'lab'), kinds: ['snapshot', 'plan'] });
      expect(r.outcome.status).toBe('done');
      const out = r.step('snapshot').output as SnapshotOutput;
      const b = out.baseline;
      expect(b.deployedProfiles.map((p) => `${p.name} ${p.version}`)).toEqual(['vmo-core-addon 1.4.0', 'vmo-infra 1.4.0']);
      expect(b.deployedProfiles[0]!.packs).toEqual([
        { name: 'lb-metallb-helm', tag: '0.14.8' },
        { name: 'nginx', tag: '1.10.1' },
        { name: 'virtual-machine-orchestrator', tag: '4.4.10' },
        { name: 'prometheus-operator', tag: '58.7.2' },
      ]);
      expect(b.vms).toEqual([
        { vm: 'vms/build-cache-01', runStrategy: 'Always', phase: 'Running', node: 'node-3' },
        { vm: 'vms/db-01', runStrategy: 'Always', phase: 'Running', node: 'node-2' },
        { vm: 'vms/legacy-app-01', runStrategy: 'Halted', phase: 'Stopped' },
        { vm: 'vms/web-01', runStrategy: 'Always', phase: 'Running', node: 'node-1' },
        { vm: 'vms/web-02', runStrategy: 'Always', phase: 'Running', node: 'node-2' },
      ]);
      expect(b.runningVmis).toEqual(['vms/build-cache-01', 'vms/db-01', 'vms/web-01', 'vms/web-02']);
      expect(b.nads).toEqual(['vms/vlan-128']);
      expect(b.loadBalancerServices).toEqual([{ service: 'ingress-nginx/ingress-nginx-controller', addresses: ['10.10.0.50'] }]);
      expect(b.storageClasses).toEqual(['px-vm-block']);
      expect(b.nodes).toEqual({ total: 3, notReady: [] });
      expect([b.kubevirtVersion, b.cdiVersion]).toEqual(['v1.2.0', 'v1.58.0']);
      expect(out.counts).toEqual({ vms: 5, runningVmis: 4, notRunning: 1, nads: 1, loadBalancerServices: 1, storageClasses: 1, nodes: 3, notReadyNodes: 0 });
      expect(r.step('snapshot').summary).toBe(
        'vmo-core-addon 1.4.0, vmo-infra 1.4.0; 5 VM(s) (4 running), 3 node(s), 1 network(s), 1 load-balancer service(s); KubeVirt v1.2.0, CDI v1.58.0',
      );

      // Someone else publishes the add-on profile while the session is stopped.
      const addon = d.store.get(d.profiles.addon.uid)!;
      d.store.writeDraft(addon.uid, { version: '1.4.1', packs: addon.published!.packs.map((p) => (p.name === 'nginx' ? { ...p, tag: '1.10.2' } : p)) });
      d.store.publish(addon.uid);
      const resumed = await r.resume();
      expect(findStep(resumed.state, 'snapshot')!.drift).toMatchObject({ ok: false, findings: ['vmo-core-addon: version 1.4.0 at the snapshot, now 1.4.1'] });
      expect(resumed.outcome.status).toBe('done'); // --approve drift
    } finally {
      await d.close();
    }
  });
});

describe('the baseline stays small', () => {
  it('keeps names and short fields only, whatever the objects carry: 5,000 VMs cost about 100 bytes each, not their 2 kB objects', () => {
    const padding = { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': 'x'.repeat(2000) } };
    const vms: Vm[] = [];
    const vmis: Vmi[] = [];
    for (let i = 0; i < 5000; i++) {
      const metadata = { name: `vm-${i}`, namespace: `tenant-${i % 40}`, uid: `uid-${i}`, ...padding };
      vms.push({ metadata, spec: { runStrategy: i % 10 === 0 ? 'Halted' : 'Always' }, status: { printableStatus: i % 10 === 0 ? 'Stopped' : 'Running' } });
      if (i % 10 !== 0) vmis.push({ metadata, status: { phase: 'Running', nodeName: `node-${i % 500}`, conditions: [{ type: 'LiveMigratable', status: 'True' }] } });
    }
    const baseline = summarizeBaseline({ vms, vmis, nads: [], services: [], storageClasses: [], nodes: [], kubevirt: undefined, cdi: undefined, deployedProfiles: [] });
    const bytes = JSON.stringify(baseline).length;
    expect(baseline.vms).toHaveLength(5000);
    expect(baseline.runningVmis).toHaveLength(4500);
    expect(bytes / 5000).toBeLessThan(128);
    expect(JSON.stringify(vms[0]).length).toBeGreaterThan(2000);
    expect(JSON.stringify(baseline)).not.toContain('last-applied');
    expect(baseline.vms[0]).toEqual({ vm: 'tenant-0/vm-0', runStrategy: 'Halted', phase: 'Stopped' });
  });

  it('counts a VMI without a VM, and the older `running: true` spelling of a run strategy', () => {
    const b = summarizeBaseline({
      vms: [{ metadata: { name: 'old', namespace: 'vms' }, spec: { running: true } }],
      vmis: [{ metadata: { name: 'lonely', namespace: 'vms' }, status: { phase: 'Running', nodeName: 'n1' } }],
      nads: [],
      services: [],
      storageClasses: [],
      nodes: [],
      kubevirt: undefined,
      cdi: undefined,
      deployedProfiles: [],
    });
    expect(b.vms).toEqual([
      { vm: 'vms/lonely', phase: 'Running', node: 'n1' },
      { vm: 'vms/old', runStrategy: 'Always' },
    ]);
  });
});

describe('snapshot of a cluster without Multus', () => {
  it('records no networks and says once that the group is not installed; the snapshot succeeds', async () => {
    const d = await startDoubles({ seed: seedHealthyCluster, absentGroups: ['k8s.cni.cncf.io'] });
    try {
      const r = await runSteps({ site: d.site, palette: d.palette, kube: kubeFor(d.kube.kubeconfig, 'lab'), kinds: ['snapshot'] });
      expect(r.outcome.status).toBe('done');
      const step = r.step('snapshot');
      const out = step.output as SnapshotOutput;
      expect(out.baseline.nads).toEqual([]);
      expect(out.notes).toEqual(['Multus (k8s.cni.cncf.io) is not installed on this cluster: no network attachment definitions']);
      expect(step.summary?.match(/Multus/g)).toHaveLength(1);
    } finally {
      await d.close();
    }
  });
});

describe('profileDrift', () => {
  const recorded = [
    { name: 'vmo-core-addon', version: '1.4.0', packs: [{ name: 'virtual-machine-orchestrator', tag: '4.4.10' }] },
    { name: 'vmo-infra', version: '1.4.0', packs: [{ name: 'cni-cilium-oss', tag: '1.16.6' }] },
  ];
  const plan = {
    hops: [{ index: 1, from: '4.4.10', to: '4.5.4', profiles: [{ role: 'addon' as const, uid: 'a', name: 'vmo-core-addon', fromVersion: '1.4.0', toVersion: '1.5.0', packs: [] }] }],
  };

  it('is silent while nothing changed, and about what this session itself published', () => {
    expect(profileDrift(recorded, recorded, plan)).toEqual([]);
    const afterHop = [{ ...recorded[0]!, version: '1.5.0', packs: [{ name: 'virtual-machine-orchestrator', tag: '4.5.4' }] }, recorded[1]!];
    expect(profileDrift(recorded, afterHop, plan)).toEqual([]);
  });

  it('reports a changed label, a changed pack tag, a profile gone and one added', () => {
    const now = [
      { name: 'vmo-core-addon', version: '1.4.0', packs: [{ name: 'virtual-machine-orchestrator', tag: '4.4.11' }] },
      { name: 'other', version: '3.0.0', packs: [] },
    ];
    expect(profileDrift(recorded, now, plan)).toEqual([
      'vmo-core-addon: virtual-machine-orchestrator 4.4.10 at the snapshot, now 4.4.11',
      'vmo-infra is no longer deployed on the cluster (was 1.4.0)',
      'other 3.0.0 is deployed now but was not at the snapshot',
    ]);
    expect(profileDrift(recorded, [{ ...recorded[0]!, version: '1.9.0' }, recorded[1]!], plan)).toEqual(['vmo-core-addon: version 1.4.0 at the snapshot, now 1.9.0']);
  });
});
