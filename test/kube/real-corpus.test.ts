/**
 * The corpus of real objects (test/fixtures/real): every reader parses every file it applies to,
 * keeping what the product reads (a null is "not set", never a throw), and each verification
 * check's verdict on the corpus is asserted with its reason.
 */
import { describe, expect, it } from 'vitest';
import { CheckSpecSchema, type CheckSpec } from '../../src/kube/check-schema.js';
import { podFailedAt } from '../../src/domain/checks/history.js';
import { runChecks } from '../../src/domain/checks/run.js';
import type { VerifyExpectations } from '../../src/domain/checks/types.js';
import type { Fetched, VerifyData } from '../../src/kube/checks/verify-data.js';
import { ClusterReader } from '../../src/kube/reader.js';
import { liveMigratable } from '../../src/steps/migrations/cluster-view.js';
import { LifecycleReader } from '../../src/steps/migrations/lifecycle.js';
import { readUpdateConfig } from '../../src/steps/plan/kubevirt-config.js';
import { corpusKubectl, loadCorpus, ofKind, type CorpusObject } from './real-corpus.js';

const corpus = loadCorpus();
const readerOf = (items: CorpusObject[]) => new ClusterReader(corpusKubectl(items.map((c) => c.obj)));
const lifecycleOf = (items: CorpusObject[]) => new LifecycleReader(corpusKubectl(items.map((c) => c.obj)));
const files = (kind: string) => [...new Set(ofKind(corpus, kind).map((c) => c.file))];
const ns = (c: CorpusObject) => c.obj.metadata.namespace ?? '';
const name = (c: CorpusObject) => c.obj.metadata.name;

/** Which reader reads each kind: a file of a kind no reader knows fails the first test. */
const readers: Record<string, string> = {
  VirtualMachineInstance: 'vmis, vmiPhases, LifecycleReader.vmi',
  VirtualMachine: 'vms, LifecycleReader.vm',
  VirtualMachineInstanceMigration: 'migrations, LifecycleReader.migration',
  KubeVirt: 'kubeVirt, readUpdateConfig',
  CDI: 'cdi',
  Pod: 'pods, pod',
  Node: 'nodes',
  Event: 'events',
  Service: 'services',
  StorageClass: 'storageClasses',
  NetworkAttachmentDefinition: 'networkAttachmentDefinitions',
  CephCluster: 'storageCluster(CephCluster)',
  StorageCluster: 'storageCluster(StorageCluster)',
};

describe('the corpus of real objects: every reader parses every file it applies to', () => {
  it('holds every kind the issue names, each with a reader', () => {
    const kinds = [...new Set(corpus.map((c) => c.obj.kind))].sort();
    expect(kinds).toEqual(Object.keys(readers).sort());
    expect(corpus.length).toBeGreaterThan(60);
  });

  it.each(files('VirtualMachineInstance'))('VMIs: %s', async (file) => {
    const items = ofKind(corpus, 'VirtualMachineInstance', file);
    const reader = readerOf(items);
    const vmis = await reader.vmis();
    expect(vmis).toHaveLength(items.length);
    for (const v of vmis) {
      // Real KubeVirt writes null timestamps on LiveMigratable: read as not set, never as a value.
      const lm = v.status?.conditions?.find((c) => c.type === 'LiveMigratable');
      expect(lm).toBeDefined();
      expect(lm!.lastTransitionTime).toBeUndefined();
      expect(v.status?.phase).toBe('Running');
    }
    expect((await reader.vmiPhases()).map((v) => v.status?.phase)).toEqual(items.map(() => 'Running'));
    for (const c of items) expect((await lifecycleOf(items).vmi(ns(c), name(c)))?.metadata.uid).toBe((c.obj.metadata as unknown as { uid: string }).uid);
  });

  it('one VMI per LiveMigratable=False reason, each read with its reason and KubeVirt’s message', async () => {
    const vmis = await readerOf(ofKind(corpus, 'VirtualMachineInstance', 'vmi/not-live-migratable.yaml')).vmis();
    expect(vmis.map((v) => liveMigratable(v).reason?.split(':')[0])).toEqual([
      'DisksNotLiveMigratable',
      'DisksNotLiveMigratable',
      'InterfaceNotLiveMigratable',
      'HotplugNotLiveMigratable',
      'CPUModeLiveMigratable',
      'VirtIOFSNotLiveMigratable',
      'HostDeviceNotLiveMigratable',
      'SEVNotLiveMigratable',
      'NoTSCFrequencyNotLiveMigratable',
      'HypervPassthroughNotLiveMigratable',
      'PersistentReservationNotLiveMigratable',
    ]);
    expect(vmis.every((v) => !liveMigratable(v).migratable)).toBe(true);
  });

  it('migration states: in progress, failed (v1.3+ failureReason), aborted, abort failed', async () => {
    const state = async (file: string) => (await readerOf(ofKind(corpus, 'VirtualMachineInstance', file)).vmis())[0]!.status?.migrationState;
    expect(await state('vmi/migrating.yaml')).toMatchObject({ sourceNode: 'worker-1', targetNode: 'worker-2', startTimestamp: '2025-03-11T14:02:37Z' });
    expect((await state('vmi/migrating.yaml'))?.completed).toBeUndefined();
    expect(await state('vmi/last-migration-failed.yaml')).toMatchObject({ completed: true, failed: true, failureReason: expect.stringContaining('client socket is closed') });
    expect(await state('vmi/migration-aborted.yaml')).toMatchObject({ abortRequested: true, abortStatus: 'Succeeded', failed: true });
    expect(await state('vmi/migration-abort-failed.yaml')).toMatchObject({ abortRequested: true, abortStatus: 'Failed' });
  });

  it.each(files('VirtualMachine'))('VMs: %s', async (file) => {
    const items = ofKind(corpus, 'VirtualMachine', file);
    const vms = await readerOf(items).vms();
    expect(vms).toHaveLength(items.length);
    for (const c of items) expect(await lifecycleOf(items).vm(ns(c), name(c))).toBeDefined();
  });

  it('VMs carry each runStrategy (and the legacy running: true)', async () => {
    const vms = await readerOf(ofKind(corpus, 'VirtualMachine')).vms();
    expect(vms.map((v) => v.spec?.runStrategy ?? `running=${v.spec?.running}`).sort()).toEqual(['Always', 'Halted', 'Manual', 'Once', 'RerunOnFailure', 'running=true']);
    expect(vms.find((v) => v.spec?.runStrategy === 'Halted')?.status).toMatchObject({ printableStatus: 'Stopped' });
  });

  it.each(files('VirtualMachineInstanceMigration'))('migrations: %s', async (file) => {
    const items = ofKind(corpus, 'VirtualMachineInstanceMigration', file);
    const migrations = await readerOf(items).migrations();
    expect(migrations).toHaveLength(items.length);
    for (const c of items) expect((await lifecycleOf(items).migration(ns(c), name(c)))?.status?.phase).toBe((c.obj.status as { phase: string }).phase);
  });

  it('a migration deleted to cancel it is read with its deletionTimestamp and its abort status', async () => {
    const read = async (file: string) => (await readerOf(ofKind(corpus, 'VirtualMachineInstanceMigration', file)).migrations())[0]!;
    expect(await read('vmim/aborting-deleted.yaml')).toMatchObject({ metadata: { deletionTimestamp: '2025-03-11T14:09:31Z' }, status: { phase: 'Running', migrationState: { abortStatus: 'Aborting' } } });
    expect((await read('vmim/abort-failed.yaml')).status?.migrationState?.abortStatus).toBe('Failed');
    expect((await read('vmim/rhel10-scheduling-deleting.json')).metadata.deletionTimestamp).toBe('2026-07-11T14:42:32Z');
    const phases = (await readerOf(ofKind(corpus, 'VirtualMachineInstanceMigration', 'vmim/phases.yaml')).migrations()).map((m) => m.status?.phase);
    expect(phases).toEqual(['Pending', 'Scheduling', 'Scheduled', 'PreparingTarget', 'TargetReady', 'Running', 'Succeeded', 'Failed']);
  });

  it.each(files('KubeVirt'))('the KubeVirt CR: %s', async (file) => {
    const items = ofKind(corpus, 'KubeVirt', file);
    const kv = await readerOf(items).kubeVirt('kubevirt', 'kubevirt');
    expect(kv?.status?.phase).toBe('Deployed');
    expect(kv?.status?.targetKubeVirtVersion).toMatch(/^v1\.[1-5]\./);
    // A new condition's null transition time (Created) reads as not set.
    const created = kv?.status?.conditions?.find((c) => c.type === 'Created');
    if (created) expect(created.lastTransitionTime).toBeUndefined();
    expect(await readUpdateConfig(readerOf(items), 'kubevirt', 'kubevirt')).toMatchObject({ found: true, methods: ['LiveMigrate'] });
  });

  it.each(files('CDI'))('the CDI CR: %s', async (file) => {
    const cdi = await readerOf(ofKind(corpus, 'CDI', file)).cdi('cdi');
    expect(cdi?.status?.observedVersion).toMatch(/^v1\.(5[89]|6[01])\./);
  });

  it.each(files('Pod'))('pods: %s', async (file) => {
    const items = ofKind(corpus, 'Pod', file);
    const pods = await readerOf(items).pods();
    expect(pods).toHaveLength(items.length);
    for (const c of items) expect((await readerOf(items).pod(ns(c), name(c)))?.metadata.name).toBe(name(c));
  });

  it('failed pods are dated by what their status records', async () => {
    const pods = await readerOf(ofKind(corpus, 'Pod')).pods();
    const at = (n: string) => new Date(podFailedAt(pods.find((p) => p.metadata.name === n)!)!).toISOString();
    expect(at('istiod-b7c9f6f6d-q8zdb')).toBe('2025-03-04T07:30:02.000Z');
    expect(at('etcd-defrag-28998720-9xk4m')).toBe('2025-03-07T00:00:41.000Z');
    // An old kubelet's evicted pod records only its start.
    expect(at('grafana-6d8f7c5b9d-x2q7r')).toBe('2025-03-04T02:11:09.000Z');
    expect(pods.find((p) => p.metadata.name === 'virt-handler-7q2xk')?.status?.containerStatuses?.map((c) => c.name)).toEqual(['virt-handler', 'virt-launcher-image-holder']);
  });

  it('nodes, events, services, storage classes and network attachment definitions', async () => {
    const all = readerOf(corpus);
    expect((await all.nodes()).map((n) => `${n.metadata.name} ${n.status?.conditions?.find((c) => c.type === 'Ready')?.status} ${n.spec?.unschedulable ?? false}`)).toEqual(['worker-3 True true', 'worker-2 Unknown false', 'worker-1 True false']);
    const events = await all.events();
    expect(events).toHaveLength(5);
    // events.k8s.io writers leave the core timestamps null
    expect(events.find((e) => e.reason === 'Scheduled')?.lastTimestamp).toBeUndefined();
    expect((await all.services()).map((s) => s.status?.loadBalancer?.ingress?.map((i) => i.ip) ?? null)).toEqual([null, ['10.10.20.50'], null]);
    expect((await all.storageClasses()).map((s) => s.metadata.name)).toEqual(['px-vm-block', 'rook-ceph-block']);
    expect((await all.networkAttachmentDefinitions()).items).toHaveLength(3);
  });

  it.each([...files('CephCluster'), ...files('StorageCluster')])('storage clusters: %s', async (file) => {
    const c = [...ofKind(corpus, 'CephCluster', file), ...ofKind(corpus, 'StorageCluster', file)][0]!;
    const sc = await readerOf([c]).storageCluster(ns(c), name(c), c.obj.kind as 'CephCluster' | 'StorageCluster');
    expect(sc?.status?.phase).toBeDefined();
  });
});

// ------------------------------------------------------------------------------------------ verdicts

const ok = <T>(value: T): Fetched<T> => ({ ok: true, value, ms: 1 });
const check = (raw: object): CheckSpec => CheckSpecSchema.parse(raw);
const specs = {
  components: check({ id: 'components', kind: 'components', title: 'Components', with: { kubevirtPods: ['virt-handler'], cdiPods: [] } }),
  workloads: check({ id: 'workloads', kind: 'workloads', title: 'Workloads' }),
  ceph: check({ id: 'storage', kind: 'storage', title: 'Storage', with: { storageCluster: 'rook-ceph/rook-ceph', clusterKind: 'CephCluster', storageClass: 'rook-ceph-block', annotations: { 'storageclass.kubevirt.io/is-default-virt-class': 'true' }, parameters: { pool: 'replicapool' } } }),
  portworx: check({ id: 'storage', kind: 'storage', title: 'Storage', with: { storageCluster: 'portworx/px-cluster', storageClass: 'px-vm-block', parameters: { repl: '3' } } }),
  network: check({ id: 'network', kind: 'network', title: 'Network', with: { loadBalancerServices: [], ingressService: 'ingress-nginx/ingress-nginx-controller', ingressIP: '10.10.20.50' } }),
  nodes: check({ id: 'nodes', kind: 'nodes', title: 'Nodes', with: { agentNamespaces: [] } }),
};
const verdictOf = (spec: CheckSpec, data: VerifyData, exp: VerifyExpectations = {}) => runChecks([spec], data, exp)[0]!;
/** A session that began on 2025-03-11 at 12:00 (the corpus's failures of 2025-03-04/07 are before it). */
const session: VerifyExpectations = { since: Date.parse('2025-03-11T12:00:00Z'), now: Date.parse('2025-03-11T15:00:00Z') };
const objectsOf = (...filesOrKinds: string[]) => corpus.filter((c) => filesOrKinds.includes(c.file) || filesOrKinds.includes(c.obj.kind));

describe('each check’s verdict on the corpus', () => {
  describe('components (9.3.2)', () => {
    const data = async (kvFile: string, cdiFile: string, podFiles = ['pod/virt-handler-image-holder.yaml', 'pod/virt-handler-pr-helper.yaml']): Promise<VerifyData> => {
      const r = readerOf(objectsOf(kvFile, cdiFile, ...podFiles));
      return { kubevirt: ok(await r.kubeVirt('kubevirt', 'kubevirt')), cdi: ok(await r.cdi('cdi')), componentPods: ok(await r.pods()) };
    };
    it.each([
      ['kubevirt/kubevirt-v1.1.1.yaml', 'cdi/cdi-v1.58.1.yaml', 'v1.1.1', 'v1.58.1'],
      ['kubevirt/kubevirt-v1.2.2.yaml', 'cdi/cdi-v1.59.0.yaml', 'v1.2.2', 'v1.59.0'],
      ['kubevirt/kubevirt-v1.3.1.yaml', 'cdi/cdi-v1.60.3.yaml', 'v1.3.1', 'v1.60.3'],
      ['kubevirt/kubevirt-v1.4.0.yaml', 'cdi/cdi-v1.61.0.yaml', 'v1.4.0', 'v1.61.0'],
      ['kubevirt/kubevirt-v1.5.0.yaml', 'cdi/cdi-v1.61.2.yaml', 'v1.5.0', 'v1.61.2'],
    ])('green: %s with %s and virt-handler pods of two containers', async (kv, cdi, kvVersion, cdiVersion) => {
      const v = verdictOf(specs.components, await data(kv, cdi), { kubevirtVersion: kvVersion, cdiVersion });
      expect(v.status).toBe('pass');
      expect(v.summary).toBe(`Deployed and healthy: KubeVirt ${kvVersion}, CDI ${cdiVersion}.`);
    });
    it('red mid-update: the CR stays Deployed, but observed is not yet target', async () => {
      const v = verdictOf(specs.components, await data('kubevirt/kubevirt-v1.4.0-updating-from-v1.3.1.yaml', 'cdi/cdi-v1.61.0.yaml'), { kubevirtVersion: 'v1.4.0' });
      expect(v.status).toBe('fail');
      expect(v.evidence).toEqual(['KubeVirt rollout not finished: observed v1.3.1, target v1.4.0', 'KubeVirt observed version v1.3.1, expected v1.4.0']);
    });
    it('red while CDI upgrades', async () => {
      const v = verdictOf(specs.components, await data('kubevirt/kubevirt-v1.4.0.yaml', 'cdi/cdi-v1.61.0-upgrading.yaml'));
      expect(v.evidence).toEqual(['CDI phase Upgrading, expected Deployed']);
    });
  });

  describe('workloads (9.3.3)', () => {
    const data = async (...files: string[]): Promise<VerifyData> => {
      const r = readerOf(objectsOf(...files));
      return { vmis: ok(await r.vmiPhases()), migrations: ok(await r.migrations()) };
    };
    it('green: VMIs running on the current launcher, a history where db-01 failed twice then succeeded', async () => {
      const v = verdictOf(specs.workloads, await data('vmi/running-live-migratable-agent.yaml', 'vmi/paused.yaml', 'vmim/history-superseded.yaml'), session);
      expect(v.status).toBe('pass');
      expect(v.summary).toBe('2 VM instance(s), 0 outdated, 4 migration(s) (2 succeeded, 2 failed earlier and superseded by a later success)');
    });
    it('red: outdated VMIs and migrations in every unfinished phase', async () => {
      const v = verdictOf(specs.workloads, await data('vmi/migrating.yaml', 'vmim/phases.yaml'), session);
      expect(v.status).toBe('fail');
      expect(v.evidence).toEqual([
        'vms/db-01: on an outdated launcher',
        'migration vms/kubevirt-workload-update-4x8zt of web-01: Pending',
        'migration vms/kubevirt-workload-update-9k2fd of web-02: Scheduling',
        'migration vms/kubevirt-workload-update-h7wqn of api-01: Scheduled',
        // made in the same second as h7wqn, it sorts after it by name: api-01's latest, failed in this session
        "migration vms/kubevirt-workload-update-r8dvy of api-01: Failed: Live migration failed error encountered during MigrateToURI3 libvirt api call: virError(Code=1, Domain=7, Message='internal error: client socket is closed')",
        'migration vms/kubevirt-workload-update-tm5cv of api-02: PreparingTarget',
        'migration vms/kubevirt-workload-update-b3sjr of edge-gw-01: TargetReady',
        'migration vms/kubevirt-workload-update-p6lxm of db-01: Running',
      ]);
    });
    it('red: a cancel still aborting, and one whose abort failed, each said for what it is', async () => {
      const v = verdictOf(specs.workloads, await data('vmim/aborting-deleted.yaml', 'vmim/abort-failed.yaml'), session);
      expect(v.evidence).toEqual([
        'migration vms/kubevirt-workload-update-f5qxr of api-02: Running: its cancel failed (abort failed), the migration goes on',
        'migration vms/kubevirt-workload-update-c4nwe of edge-gw-01: Running: being cancelled (abort in progress)',
      ]);
    });
    it('without a session start, a VMI’s latest migration that failed is amber with its age', async () => {
      const v = verdictOf(specs.workloads, await data('vmim/phases.yaml'), { now: session.now! });
      expect(v.evidence.filter((e) => e.includes('Failed'))).toEqual([`migration vms/kubevirt-workload-update-r8dvy of api-01: Failed 57m ago (pre-existing): Live migration failed error encountered during MigrateToURI3 libvirt api call: virError(Code=1, Domain=7, Message='internal error: client socket is closed')`]);
    });
  });

  describe('storage (9.3.4)', () => {
    const data = async (clusterFile: string, classFile: string): Promise<VerifyData> => {
      const c = objectsOf(clusterFile)[0]!;
      const r = readerOf(objectsOf(clusterFile, classFile));
      return { storageCluster: ok(await r.storageCluster(ns(c), name(c), c.obj.kind as 'CephCluster' | 'StorageCluster')), storageClasses: ok(await r.storageClasses()) };
    };
    it.each([
      ['storage/cephcluster-health-ok.yaml', 'storage/storageclass-rook-ceph-block.yaml', 'ceph', 'pass', /^Storage cluster Ready, HEALTH_OK; StorageClass rook-ceph-block as configured\.$/],
      ['storage/cephcluster-health-warn.yaml', 'storage/storageclass-rook-ceph-block.yaml', 'ceph', 'fail', /Ceph reports HEALTH_WARN: OSD_DOWN: 1 osds down; PG_DEGRADED: Degraded data redundancy/],
      ['storage/portworx-running.yaml', 'storage/storageclass-px-vm-block.yaml', 'portworx', 'pass', /^Storage cluster Running; StorageClass px-vm-block as configured\.$/],
      ['storage/portworx-online-legacy.yaml', 'storage/storageclass-px-vm-block.yaml', 'portworx', 'pass', /^Storage cluster Online;/],
      ['storage/portworx-degraded.yaml', 'storage/storageclass-px-vm-block.yaml', 'portworx', 'fail', /phase Degraded.*RuntimeState Degraded \(Storage cluster px-cluster is degraded: 1 of 6 storage nodes are offline\)/s],
    ] as const)('%s: %s', async (clusterFile, classFile, which, status, shows) => {
      const v = verdictOf(specs[which], await data(clusterFile, classFile));
      expect(v.status).toBe(status);
      expect([v.summary, ...v.evidence].join('\n')).toMatch(shows);
    });
  });

  describe('network (9.3.5)', () => {
    it('green: the ingress holds its fixed address through MetalLB (ipMode VIP); a LoadBalancer without one and the NADs read', async () => {
      const r = readerOf(objectsOf('Service', 'NetworkAttachmentDefinition'));
      const data: VerifyData = { services: ok(await r.services()), nads: ok((await r.networkAttachmentDefinitions()).items) };
      const v = verdictOf(specs.network, data, { baseline: { runningVmis: [], nads: ['vms/vlan-128', 'vms/linux-bridge-net-ipam'] } });
      expect(v.status).toBe('pass');
      expect(v.summary).toBe('1 service(s) with load-balancer addresses; 3 network attachment definition(s); ingress at 10.10.20.50.');
    });
  });

  describe('nodes and pods (9.3.6)', () => {
    const data = async (...files: string[]): Promise<VerifyData> => {
      const r = readerOf(objectsOf(...files));
      const pods = await r.pods();
      return { nodes: ok(await r.nodes()), unhealthyPods: ok(pods.filter((p) => p.status?.phase !== 'Running' && p.status?.phase !== 'Succeeded')), agentPods: ok([]), backOffPods: ok(pods.filter((p) => p.status?.containerStatuses?.some((c) => c.state?.waiting?.reason === 'CrashLoopBackOff'))) };
    };
    it('amber: evicted pods and a failed Job pod from before the session are pre-existing, with their age; a cordoned node', async () => {
      const v = verdictOf(specs.nodes, await data('node/ready.yaml', 'node/cordoned.yaml', 'pod/evicted-kubelet-legacy.yaml', 'pod/evicted-disruption-target.yaml', 'pod/job-failed.yaml'), session);
      expect(v.status).toBe('warn');
      expect(v.evidence).toEqual([
        'node worker-3: cordoned (unschedulable)',
        'pod istio-system/istiod-b7c9f6f6d-q8zdb: Failed (Evicted) 7d07h ago, before this session (pre-existing)',
        // an old kubelet recorded only when it started: dated by that
        'pod monitoring/grafana-6d8f7c5b9d-x2q7r: Failed (Evicted) 7d12h ago, before this session (pre-existing)',
        'pod kube-system/etcd-defrag-28998720-9xk4m: Failed 4d14h ago, before this session (pre-existing)',
      ]);
    });
    it('red: a NotReady node and a crash loop are the present', async () => {
      const v = verdictOf(specs.nodes, await data('node/ready.yaml', 'node/not-ready.yaml', 'pod/crashloop-backoff.yaml', 'pod/virt-launcher-fedora02.yaml'), session);
      expect(v.status).toBe('fail');
      expect(v.evidence).toEqual(['node worker-2: not Ready (NodeStatusUnknown)', 'pod monitoring/kube-state-metrics-5c6f8d7b9c-7hz4w: CrashLoopBackOff (restarts 37)']);
    });
    it('green: Ready nodes and running pods (the virt-launcher and two-container virt-handlers)', async () => {
      const v = verdictOf(specs.nodes, await data('node/ready.yaml', 'pod/virt-launcher-fedora02.yaml', 'pod/virt-handler-image-holder.yaml', 'pod/virt-handler-pr-helper.yaml'), session);
      expect(v.status).toBe('pass');
    });
  });
});
