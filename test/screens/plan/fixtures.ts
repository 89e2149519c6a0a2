/** Outputs of the preflight, snapshot and plan steps as the screens receive them. */
import { initialState } from '../../../src/engine/reducer.js';
import type { SessionState, StepState } from '../../../src/engine/state.js';
import type { PlanOutput } from '../../../src/steps/plan/types.js';
import type { PreflightOutput } from '../../../src/steps/preflight/types.js';
import type { SnapshotOutput } from '../../../src/steps/snapshot/snapshot.js';
import { created, step } from '../../support/state-fixtures.js';

export const sessionState = (): SessionState => initialState(created([]));

export const stepWith = (kind: string, extra: Partial<StepState>): StepState => step(kind, { kind, title: { preflight: 'Preflight checks', snapshot: 'Record what is deployed', plan: 'Plan the upgrade' }[kind] ?? kind, status: 'succeeded', ...extra });

export function planOutput(): PlanOutput {
  const impact: PlanOutput['impact'] = [
    { vm: 'vms/web-01', node: 'node-1', fate: 'live-migrate', reason: 'live-migratable' },
    { vm: 'vms/build-cache-01', node: 'node-3', fate: 'restart', reason: 'cannot live-migrate (DisksNotLiveMigratable) and Evict is not a workload update method: stays on the old launcher' },
    { vm: 'vms/legacy-app-01', fate: 'not-running', reason: 'not running (runStrategy Halted): it starts on the new launcher when started' },
    { vm: 'vms/batch-01', node: 'node-2', fate: 'evict', reason: 'evicted by the workload updater (downtime), started again on the new launcher (runStrategy Always)' },
  ];
  return {
    status: 'planned',
    pack: 'virtual-machine-orchestrator',
    deployed: '4.4.10',
    target: '4.6.3',
    impactCounts: { 'live-migrate': 1, evict: 1, restart: 1, 'not-running': 1 },
    impact,
    hops: [
      {
        index: 1,
        from: '4.4.10',
        to: '4.5.4',
        kubevirtVersion: 'v1.3.1',
        cdiVersion: 'v1.60.3',
        profiles: [
          { role: 'infra', uid: 'infra-1', name: 'vmo-infra', fromVersion: '1.4.0', toVersion: '1.5.0', packs: [{ name: 'cni-cilium-oss', from: '1.16.6', to: '1.16.9' }], reference: { kind: 'profile', uid: 'ref-infra-454' } },
          { role: 'addon', uid: 'addon-1', name: 'vmo-core-addon', fromVersion: '1.4.0', toVersion: '1.5.0', packs: [{ name: 'virtual-machine-orchestrator', from: '4.4.10', to: '4.5.4' }], reference: { kind: 'folder', path: '/srv/values' } },
        ],
      },
      {
        index: 2,
        from: '4.5.4',
        to: '4.6.3',
        kubevirtVersion: 'v1.4.0',
        profiles: [{ role: 'addon', uid: 'addon-1', name: 'vmo-core-addon', fromVersion: '1.5.0', toVersion: '1.6.0', packs: [{ name: 'virtual-machine-orchestrator', from: '4.5.4', to: '4.6.3' }], reference: { kind: 'profile', uid: 'ref-addon-463' } }],
      },
    ],
    notes: ['KubeVirt v1.2.0: workload update methods LiveMigrate; eviction strategy LiveMigrate.'],
  };
}

export function refusedPlan(): PlanOutput {
  return {
    status: 'refused',
    refusal: {
      reason: 'No 4.5.x version is available to step through from 4.4.10 to 4.6.3; skipping a minor version makes the automatic live migrations of running VMs fail: the old and new launchers are incompatible (spec 9.1.1).',
      hint: 'Add a reference profile (or a values folder entry) for a 4.5.x version of the pack, then plan again.',
    },
    pack: 'virtual-machine-orchestrator',
    deployed: '4.4.10',
    target: '4.6.3',
    impactCounts: { 'live-migrate': 0, evict: 0, restart: 0, 'not-running': 0 },
    impact: [],
    hops: [],
    notes: [],
  };
}

export function preflightOutput(): PreflightOutput {
  return {
    overall: 'fail',
    kubectlVersion: 'v1.32.4',
    serverVersion: 'v1.32.2',
    items: [
      { id: 'profile-api', title: 'Profile API answers with this key and project', status: 'pass', summary: 'http://palette answered for project p1: 8 profile(s) visible.', lines: [], ms: 12 },
      { id: 'cluster', title: 'The cluster exists and runs the profiles', status: 'pass', summary: 'vmo-test runs vmo-core-addon 1.4.0, vmo-infra 1.4.0.', lines: ['vmo-core-addon 1.4.0: virtual-machine-orchestrator 4.4.10'] },
      {
        id: 'access-freshness',
        title: 'The cluster access file stays valid through the window',
        status: 'fail',
        failure: 'environment',
        summary: 'The client certificate (CN=operator) from client-certificate-data expires at 2026-03-01T13:00:00Z, in 1h: before the planned window of 4h ends.',
        lines: ['file /home/op/.kube/config, context lab, user operator'],
        hint: 'Obtain a fresh cluster access file (kubeconfig) from Palette, pass it with --kubeconfig (or update the params file), then resume: the session is saved.',
      },
      { id: 'nodes', title: 'Every node is Ready', status: 'warn', summary: '1 of 3 node(s) not Ready.', lines: ['node-3: not Ready (KubeletNotReady)'], hint: 'Live migrations need somewhere to go.' },
      { id: 'storage', title: 'The storage cluster is healthy', status: 'unknown', summary: 'Not checked: the cluster did not answer.', lines: [] },
    ],
  };
}

export function snapshotOutput(): SnapshotOutput {
  return {
    takenAt: '2026-03-01T12:00:00.000Z',
    baseline: {
      deployedProfiles: [
        { name: 'vmo-core-addon', version: '1.4.0', packs: [{ name: 'virtual-machine-orchestrator', tag: '4.4.10' }, { name: 'nginx', tag: '1.10.1' }] },
        { name: 'vmo-infra', version: '1.4.0', packs: [{ name: 'cni-cilium-oss', tag: '1.16.6' }] },
      ],
      runningVmis: ['vms/db-01', 'vms/web-01'],
      nads: ['vms/vlan-128'],
      vms: [
        { vm: 'vms/db-01', runStrategy: 'Always', phase: 'Running', node: 'node-2' },
        { vm: 'vms/legacy-app-01', runStrategy: 'Halted', phase: 'Stopped' },
        { vm: 'vms/web-01', runStrategy: 'Always', phase: 'Running', node: 'node-1' },
      ],
      loadBalancerServices: [{ service: 'ingress-nginx/ingress-nginx-controller', addresses: ['10.10.0.50'] }],
      storageClasses: ['px-vm-block'],
      nodes: { total: 3, notReady: ['node-3'] },
      kubevirtVersion: 'v1.2.0',
      cdiVersion: 'v1.58.0',
    },
    counts: { vms: 3, runningVmis: 2, notRunning: 1, nads: 1, loadBalancerServices: 1, storageClasses: 1, nodes: 3, notReadyNodes: 1 },
  };
}
