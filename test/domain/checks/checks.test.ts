import { describe, expect, it } from 'vitest';
import { CheckSpecSchema, type CheckSpec } from '../../../src/kube/check-schema.js';
import { runChecks } from '../../../src/domain/checks/run.js';
import type { VerifyExpectations } from '../../../src/domain/checks/types.js';
import type { Fetched, VerifyData } from '../../../src/kube/checks/verify-data.js';
import type { Pod } from '../../../src/kube/schemas.js';

const ok = <T>(value: T): Fetched<T> => ({ ok: true, value, ms: 5 });
const meta = (ns: string | undefined, name: string, extra: Record<string, unknown> = {}) => ({ name, ...(ns ? { namespace: ns } : {}), ...extra });
const runningPod = (ns: string, name: string): Pod => ({ metadata: meta(ns, name), status: { phase: 'Running', containerStatuses: [{ name: 'c', ready: true, restartCount: 0 }] } });

const specs: CheckSpec[] = [
  { id: 'profiles', kind: 'profiles', title: 'Profiles' },
  { id: 'components', kind: 'components', title: 'Components', with: {} },
  { id: 'workloads', kind: 'workloads', title: 'Workloads' },
  { id: 'storage', kind: 'storage', title: 'Storage', with: { storageCluster: 'portworx/px-cluster', storageClass: 'px-vm-block', parameters: { repl: '3' } } },
  { id: 'network', kind: 'network', title: 'Network', with: { loadBalancerServices: [], ingressService: 'ingress-nginx/ingress-nginx-controller', ingressIP: '10.10.0.50' } },
  { id: 'nodes', kind: 'nodes', title: 'Nodes', with: { agentNamespaces: ['cluster-c1', 'palette-system'] } },
].map((s) => CheckSpecSchema.parse(s));

function healthy(): VerifyData {
  return {
    profiles: ok([
      { name: 'vmo-core-addon', version: '1.4.0', packs: [{ name: 'virtual-machine-orchestrator', tag: '4.6.3' }] },
      { name: 'vmo-infra', version: '1.4.0', packs: [{ name: 'csi-portworx-generic', tag: '3.2.1' }] },
    ]),
    kubevirt: ok({ metadata: meta('kubevirt', 'kubevirt'), status: { phase: 'Deployed', observedKubeVirtVersion: 'v1.4.0', targetKubeVirtVersion: 'v1.4.0' } }),
    cdi: ok({ metadata: meta(undefined, 'cdi'), status: { phase: 'Deployed', observedVersion: 'v1.61.0' } }),
    componentPods: ok([
      ...['virt-operator-1', 'virt-api-1', 'virt-controller-1', 'virt-handler-a', 'virt-handler-b'].map((n) => runningPod('kubevirt', n)),
      ...['cdi-operator-1', 'cdi-apiserver-1', 'cdi-deployment-1', 'cdi-uploadproxy-1'].map((n) => runningPod('cdi', n)),
    ]),
    vmis: ok([
      { metadata: meta('vms', 'web-1', { labels: { app: 'web' } }), status: { phase: 'Running', nodeName: 'w1' } },
      { metadata: meta('vms', 'db-1'), status: { phase: 'Running', nodeName: 'w2' } },
    ]),
    migrations: ok([{ metadata: meta('vms', 'kubevirt-workload-update-x'), spec: { vmiName: 'web-1' }, status: { phase: 'Succeeded' } }]),
    storageCluster: ok({ metadata: meta('portworx', 'px-cluster'), status: { phase: 'Running', conditions: [{ type: 'RuntimeState', status: 'Online' }] } }),
    storageClasses: ok([
      { metadata: meta(undefined, 'px-vm-block', { annotations: { 'storageclass.kubevirt.io/is-default-virt-class': 'true' } }), provisioner: 'pxd.portworx.com', parameters: { repl: '3' } },
    ]),
    services: ok([
      { metadata: meta('ingress-nginx', 'ingress-nginx-controller'), spec: { type: 'LoadBalancer' }, status: { loadBalancer: { ingress: [{ ip: '10.10.0.50' }] } } },
      { metadata: meta('kubevirt', 'virt-exportproxy'), spec: { type: 'LoadBalancer' }, status: { loadBalancer: {} } },
    ]),
    nads: ok([{ metadata: meta('vms', 'vlan-100') }]),
    nodes: ok([
      { metadata: meta(undefined, 'w1'), status: { conditions: [{ type: 'Ready', status: 'True' }] } },
      { metadata: meta(undefined, 'w2'), status: { conditions: [{ type: 'Ready', status: 'True' }] } },
    ]),
    unhealthyPods: ok([]),
    backOffPods: ok([]),
    agentPods: ok([runningPod('cluster-c1', 'cluster-management-agent-1'), runningPod('palette-system', 'palette-webhook-1')]),
  };
}

const expectations: VerifyExpectations = {
  profiles: [{ name: 'vmo-core-addon', version: '1.4.0', packs: [{ name: 'virtual-machine-orchestrator', tag: '4.6.3' }] }, { name: 'vmo-infra', version: '1.4.0' }],
  kubevirtVersion: 'v1.4.0',
  cdiVersion: 'v1.61.0',
  baseline: { runningVmis: ['vms/web-1', 'vms/db-1'], nads: ['vms/vlan-100'] },
  // A session's verification: what failed since its snapshot is this upgrade's doing.
  since: Date.parse('2026-03-01T00:00:00Z'),
  now: Date.parse('2026-03-01T02:00:00Z'),
};

const statuses = (data: VerifyData, exp = expectations) => Object.fromEntries(runChecks(specs, data, exp).map((r) => [r.id, r.status]));
const allPass = { profiles: 'pass', components: 'pass', workloads: 'pass', storage: 'pass', network: 'pass', nodes: 'pass' };

// [what changed, the change, the check that must turn red, evidence it must show]
const flips: Array<[string, string, (d: VerifyData) => void, RegExp]> = [
  ['a profile still at the old version', 'profiles', (d) => ((d.profiles as { value: Array<{ version: string }> }).value[0]!.version = '1.3.0'), /vmo-core-addon: version 1\.3\.0, expected 1\.4\.0/],
  ['a pack tag not picked up', 'profiles', (d) => ((d.profiles as { value: Array<{ packs: Array<{ tag: string }> }> }).value[0]!.packs[0]!.tag = '4.5.4'), /pack virtual-machine-orchestrator at 4\.5\.4, expected 4\.6\.3/],
  ['KubeVirt still rolling out', 'components', (d) => Object.assign((d.kubevirt as { value: { status: object } }).value.status, { phase: 'Deploying', observedKubeVirtVersion: 'v1.3.1' }), /KubeVirt phase Deploying, expected Deployed/],
  ['a virt-handler crash-looping', 'components', (d) => ((d.componentPods as { value: Pod[] }).value[3] = { metadata: meta('kubevirt', 'virt-handler-a'), status: { phase: 'Running', containerStatuses: [{ name: 'virt-handler', ready: false, restartCount: 6, state: { waiting: { reason: 'CrashLoopBackOff' } } }] } }), /kubevirt\/virt-handler-a: CrashLoopBackOff \(restarts 6\)/],
  ['CDI missing its uploadproxy', 'components', (d) => ((d.componentPods as { value: Pod[] }).value = (d.componentPods as { value: Pod[] }).value.filter((p) => !p.metadata.name.startsWith('cdi-uploadproxy'))), /cdi\/cdi-uploadproxy-\*: no pod found/],
  ['a VMI that was running is not', 'workloads', (d) => ((d.vmis as { value: Array<{ status: { phase: string } }> }).value[1]!.status.phase = 'Failed'), /vms\/db-1: phase Failed \(was Running before the upgrade\)/],
  ['a VMI on an outdated launcher', 'workloads', (d) => ((d.vmis as { value: Array<{ metadata: { labels: Record<string, string> } }> }).value[0]!.metadata.labels['kubevirt.io/outdatedLauncherImage'] = ''), /vms\/web-1: on an outdated launcher/],
  ['a failed migration', 'workloads', (d) => ((d.migrations as { value: unknown[] }).value.push({ metadata: meta('vms', 'm2'), spec: { vmiName: 'db-1' }, status: { phase: 'Failed', migrationState: { failureReason: 'client socket is closed' } } })), /migration vms\/m2 of db-1: Failed: client socket is closed/],
  ['a migration still running', 'workloads', (d) => ((d.migrations as { value: unknown[] }).value.push({ metadata: meta('vms', 'm3'), spec: { vmiName: 'db-1' }, status: { phase: 'Running' } })), /migration vms\/m3 of db-1: Running/],
  ['a degraded storage cluster', 'storage', (d) => ((d.storageCluster as { value: { status: { phase: string } } }).value.status.phase = 'Degraded'), /storage cluster portworx\/px-cluster: phase Degraded/],
  ['a renamed StorageClass', 'storage', (d) => ((d.storageClasses as { value: Array<{ metadata: { name: string } }> }).value[0]!.metadata.name = 'px-csi-db'), /StorageClass px-vm-block not found \(present: px-csi-db\)/],
  ['a StorageClass without the VM annotation', 'storage', (d) => ((d.storageClasses as { value: Array<{ metadata: { annotations: object } }> }).value[0]!.metadata.annotations = {}), /annotation storageclass\.kubevirt\.io\/is-default-virt-class is missing, expected "true"/],
  ['a StorageClass with default parameters', 'storage', (d) => ((d.storageClasses as { value: Array<{ parameters: object }> }).value[0]!.parameters = { repl: '1' }), /parameter repl is "1", expected "3"/],
  ['a leaked load-balancer address', 'network', (d) => ((d.services as { value: Array<{ status: object }> }).value[1]!.status = { loadBalancer: { ingress: [{ ip: '10.10.0.51' }] } }), /kubevirt\/virt-exportproxy holds 10\.10\.0\.51 but should hold no load-balancer address/],
  ['the ingress at another address', 'network', (d) => ((d.services as { value: Array<{ status: object }> }).value[0]!.status = { loadBalancer: { ingress: [{ ip: '10.10.0.52' }] } }), /ingress service ingress-nginx\/ingress-nginx-controller holds 10\.10\.0\.52, expected 10\.10\.0\.50/],
  ['a missing network attachment definition', 'network', (d) => ((d.nads as { value: unknown[] }).value = []), /network attachment definition vms\/vlan-100 is gone/],
  ['a NotReady node', 'nodes', (d) => ((d.nodes as { value: Array<{ status: { conditions: Array<{ status: string; reason?: string }> } }> }).value[1]!.status.conditions[0] = { type: 'Ready', status: 'False', reason: 'KubeletNotReady' } as never), /node w2: not Ready \(KubeletNotReady\)/],
  ['a pending pod', 'nodes', (d) => ((d.unhealthyPods as { value: Pod[] }).value = [{ metadata: meta('apps', 'web-7'), status: { phase: 'Pending', reason: 'Unschedulable' } }]), /pod apps\/web-7: Pending \(Unschedulable\)/],
  ['a crash-looping pod that stays in phase Running', 'nodes', (d) => ((d.backOffPods as { value: Pod[] }).value = [{ metadata: meta('monitoring', 'kube-state-metrics-1'), status: { phase: 'Running', containerStatuses: [{ name: 'ksm', ready: false, restartCount: 37, state: { waiting: { reason: 'CrashLoopBackOff' } } }] } }]), /pod monitoring\/kube-state-metrics-1: CrashLoopBackOff \(restarts 37\)/],
  ['the platform agent gone', 'nodes', (d) => ((d.agentPods as { value: Pod[] }).value = [runningPod('palette-system', 'palette-webhook-1')]), /platform agent: no pods in cluster-c1/],
];

describe('verification checks', () => {
  it('all pass on a healthy cluster', () => {
    expect(statuses(healthy())).toEqual(allPass);
  });

  it.each(flips)('%s turns exactly %s red', (_n, check, change, evidence) => {
    const data = healthy();
    change(data);
    const results = runChecks(specs, data, expectations);
    expect(Object.fromEntries(results.map((r) => [r.id, r.status]))).toEqual({ ...allPass, [check]: 'fail' });
    const r = results.find((x) => x.id === check)!;
    expect(r.evidence.join('\n')).toMatch(evidence);
    expect(r.remediation).toBeTruthy();
  });

  it.each<[string, Record<string, string> | undefined, string]>([
    ['without a baseline (verify on its own): red', undefined, 'fail'],
    ['the class had it before the upgrade: lost, red', { 'storageclass.kubevirt.io/is-default-virt-class': 'true' }, 'fail'],
    ['the class never had it: amber, not on this site before the upgrade', {}, 'warn'],
  ])('a StorageClass without the VM annotation, %s', (_n, before, status) => {
    const data = healthy();
    (data.storageClasses as { value: Array<{ metadata: { annotations: object } }> }).value[0]!.metadata.annotations = {};
    const exp: VerifyExpectations = { ...expectations, ...(before ? { baseline: { runningVmis: [], nads: [], storageClassAnnotations: { 'px-vm-block': before } } } : {}) };
    const r = runChecks(specs, data, exp).find((x) => x.id === 'storage')!;
    expect(r.status).toBe(status);
    if (status === 'warn') expect(r.evidence.join('\n')).toContain('(not on this site before the upgrade either)');
  });

  it('a check that cannot read its data is unknown with the reason, never pass', () => {
    const data = healthy();
    data.storageCluster = { ok: false, reason: 'The cluster access file is not allowed to get storageclusters.core.libopenstorage.org', ms: 3 };
    const r = runChecks(specs, data, expectations).find((x) => x.id === 'storage')!;
    expect(r.status).toBe('unknown');
    expect(r.summary).toMatch(/Could not check: .*not allowed to get storageclusters/);
  });

  it('caps evidence so panels stay readable at any size', () => {
    const data = healthy();
    (data.unhealthyPods as { value: Pod[] }).value = Array.from({ length: 500 }, (_, i) => ({ metadata: meta('apps', `p${i}`), status: { phase: 'Pending' } }));
    const r = runChecks(specs, data, expectations).find((x) => x.id === 'nodes')!;
    expect(r.evidence).toHaveLength(21);
    expect(r.evidence.at(-1)).toBe('… and 480 more');
  });

  it('without expectations (verify outside a session) checks consistency only', () => {
    const data = healthy();
    Object.assign((data.kubevirt as { value: { status: object } }).value.status, { observedKubeVirtVersion: 'v1.3.1', targetKubeVirtVersion: 'v1.3.1' });
    expect(statuses(data, {})).toEqual(allPass);
  });

  it('a failed migration of a VMI restarted since is resolved, counted, not red', () => {
    const data = healthy();
    (data.vmis as { value: Array<{ metadata: Record<string, unknown> }> }).value[1]!.metadata.creationTimestamp = '2026-11-22T05:00:00Z';
    (data.migrations as { value: unknown[] }).value.push({ metadata: meta('vms', 'old', { creationTimestamp: '2026-11-22T04:00:00Z' }), spec: { vmiName: 'db-1' }, status: { phase: 'Failed', migrationState: { failureReason: 'client socket is closed' } } });
    const r = runChecks(specs, data, expectations).find((x) => x.id === 'workloads')!;
    expect(r.status).toBe('pass');
    expect(r.summary).toMatch(/1 failed earlier and resolved by a restart/);
    // The same failure on the VMI as it is now stays red.
    (data.migrations as { value: Array<{ metadata: Record<string, unknown> }> }).value.at(-1)!.metadata.creationTimestamp = '2026-11-22T06:00:00Z';
    expect(runChecks(specs, data, expectations).find((x) => x.id === 'workloads')!.status).toBe('fail');
  });

  it('a cordoned node is a warning', () => {
    const data = healthy();
    (data.nodes as { value: Array<{ spec?: object }> }).value[0]!.spec = { unschedulable: true };
    expect(statuses(data).nodes).toBe('warn');
  });

  describe('judging this upgrade, not the cluster\'s past', () => {
    type M = { metadata: Record<string, unknown>; spec: { vmiName: string }; status: Record<string, unknown> };
    const mig = (name: string, vmi: string, phase: string, created: string, extra: Record<string, unknown> = {}): M => ({ metadata: meta('vms', name, { creationTimestamp: created, ...extra }), spec: { vmiName: vmi }, status: { phase, migrationState: { endTimestamp: created, ...(phase === 'Failed' ? { failureReason: 'client socket is closed' } : {}) } } });
    const withMigrations = (...ms: M[]) => {
      const data = healthy();
      (data.migrations as { value: unknown[] }).value = ms;
      return data;
    };
    const evicted = (failedAt: string): Pod => ({ metadata: meta('monitoring', 'grafana-x'), status: { phase: 'Failed', reason: 'Evicted', startTime: '2026-02-20T00:00:00Z', conditions: [{ type: 'DisruptionTarget', status: 'True', lastTransitionTime: failedAt }] } });
    const workloads = (data: VerifyData, exp: VerifyExpectations = expectations) => runChecks(specs, data, exp).find((x) => x.id === 'workloads')!;
    const nodes = (data: VerifyData, exp: VerifyExpectations = expectations) => runChecks(specs, data, exp).find((x) => x.id === 'nodes')!;

    // [case, migrations of db-1, status, evidence or summary that must show]
    const cases: Array<[string, M[], string, RegExp]> = [
      ['a failure superseded by a later success counts for nothing', [mig('a', 'db-1', 'Failed', '2026-02-23T10:00:00Z'), mig('b', 'db-1', 'Failed', '2026-02-23T10:20:00Z'), mig('c', 'db-1', 'Succeeded', '2026-02-24T10:00:00Z')], 'pass', /2 failed earlier and superseded by a later success/],
      ['a latest failure from before the session is pre-existing, with its age', [mig('a', 'db-1', 'Succeeded', '2026-02-20T10:00:00Z'), mig('b', 'db-1', 'Failed', '2026-02-22T02:00:00Z')], 'warn', /migration vms\/b of db-1: Failed 7d00h ago, before this session \(pre-existing\): client socket is closed/],
      ['a latest failure in this session is red', [mig('a', 'db-1', 'Failed', '2026-02-22T02:00:00Z'), mig('b', 'db-1', 'Failed', '2026-03-01T01:00:00Z')], 'fail', /migration vms\/b of db-1: Failed: client socket is closed/],
      ['a success in this session supersedes a failure in it', [mig('a', 'db-1', 'Failed', '2026-03-01T00:10:00Z'), mig('b', 'db-1', 'Succeeded', '2026-03-01T00:20:00Z')], 'pass', /1 failed earlier and superseded/],
      ['a cancel whose abort failed is red, and says so', [mig('a', 'db-1', 'Running', '2026-03-01T00:10:00Z', { deletionTimestamp: '2026-03-01T00:30:00Z' })].map((m) => ({ ...m, status: { phase: 'Running', migrationState: { abortRequested: true, abortStatus: 'Failed' } } })), 'fail', /migration vms\/a of db-1: Running: its cancel failed \(abort failed\), the migration goes on/],
      ['a cancel still aborting is not yet cancelled', [mig('a', 'db-1', 'Running', '2026-03-01T00:10:00Z', { deletionTimestamp: '2026-03-01T00:30:00Z' })].map((m) => ({ ...m, status: { phase: 'Running', migrationState: { abortRequested: true, abortStatus: 'Aborting' } } })), 'fail', /being cancelled \(abort in progress\)/],
      ['an old migration still in flight is red: it is the present', [mig('a', 'db-1', 'Running', '2026-02-20T00:10:00Z')], 'fail', /migration vms\/a of db-1: Running/],
    ];
    it.each(cases)('%s', (_name, ms, status, shows) => {
      const r = workloads(withMigrations(...ms));
      expect(r.status).toBe(status);
      expect([r.summary, ...r.evidence].join('\n')).toMatch(shows);
    });

    it('without a session start every recorded failure is amber with its age', () => {
      const r = workloads(withMigrations(mig('b', 'db-1', 'Failed', '2026-03-01T01:00:00Z')), { ...expectations, since: undefined });
      expect(r.status).toBe('warn');
      expect(r.evidence.join('\n')).toMatch(/Failed 1h00m ago \(pre-existing\)/);
    });

    it('a pod evicted a week before the session is pre-existing (amber with its age); one evicted during it is red', () => {
      const data = healthy();
      (data.unhealthyPods as { value: Pod[] }).value = [evicted('2026-02-22T01:00:00Z')];
      const before = nodes(data);
      expect(before.status).toBe('warn');
      expect(before.evidence).toEqual(['pod monitoring/grafana-x: Failed (Evicted) 7d01h ago, before this session (pre-existing)']);
      expect(before.summary).toMatch(/1 pod\(s\) failed before this upgrade/);
      (data.unhealthyPods as { value: Pod[] }).value = [evicted('2026-03-01T00:30:00Z')];
      expect(nodes(data).status).toBe('fail');
    });

    it('an evicted pod that only says when it started is dated by its start (older kubelets record no more)', () => {
      const data = healthy();
      (data.unhealthyPods as { value: Pod[] }).value = [{ metadata: meta('monitoring', 'grafana-y'), status: { phase: 'Failed', reason: 'Evicted', startTime: '2026-02-20T00:00:00Z' } }];
      expect(nodes(data).evidence[0]).toMatch(/Failed \(Evicted\) 9d02h ago, before this session/);
    });

    it('a pending pod is the present, whatever its age', () => {
      const data = healthy();
      (data.unhealthyPods as { value: Pod[] }).value = [{ metadata: meta('apps', 'p', { creationTimestamp: '2025-01-01T00:00:00Z' }), status: { phase: 'Pending', startTime: '2025-01-01T00:00:00Z' } }];
      expect(nodes(data, { ...expectations, since: undefined }).status).toBe('fail');
    });

    it('a component pod that failed before the session does not turn the components red', () => {
      const data = healthy();
      (data.componentPods as { value: Pod[] }).value.push({ ...evicted('2026-02-22T01:00:00Z'), metadata: meta('kubevirt', 'virt-handler-old') });
      const r = runChecks(specs, data, expectations).find((x) => x.id === 'components')!;
      expect(r.status).toBe('warn');
      expect(r.evidence).toEqual(['kubevirt/virt-handler-old: Failed (Evicted) 7d01h ago, before this session (pre-existing)']);
    });
  });
});
