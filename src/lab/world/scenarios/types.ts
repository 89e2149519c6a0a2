/**
 * A scenario says what the lab's cluster looks like at start: which pack versions are deployed,
 * which version the operator is heading for, the nodes, the VMs, earlier migrations, and what is
 * already wrong. The world seeds itself from it.
 */
import type { SiteLayout, VmoVersion } from '../../data/pack-catalog.js';
import type { ClusterShape } from '../../palette/types.js';
import type { NodeCapacity, ServiceInput } from '../k8s-objects.js';
import type { VmDefinition } from '../kubevirt-objects.js';
import type { ScenarioName } from '../../scenario-catalog.js';

// The names (and each one's line) are the scenario catalog's: the one list help, picker and completion read.
export { scenarioNames, type ScenarioName } from '../../scenario-catalog.js';

export interface LabSizes {
  vms: number;
  nodes: number;
  pods: number;
}

export const defaultLargeSizes: LabSizes = { vms: 5000, nodes: 500, pods: 20000 };

export interface NodePlan {
  name: string;
  controlPlane: boolean;
  /** Has drives for the storage pack; compute-only workers are labelled `px/enabled=false`. */
  storage: boolean;
  /** Its machine, when not the default (a 64-core, 512 GiB worker). */
  capacity?: NodeCapacity;
}

/**
 * A migration a scenario starts with. A Failed one from the cluster's past carries its own `reason`
 * (without it, the skipped-minor symptoms are written too) and, for a migration KubeVirt gave up on
 * (`Live migration stuck for 150 seconds and has been aborted`), `abortStatus: Succeeded`.
 */
export type SeededMigration = { namespace: string; vmi: string; state: 'Succeeded' | 'Failed' | 'Stuck'; ageMs: number; reason?: string; abortStatus?: 'Succeeded' };

export interface ScenarioFaults {
  /** Nodes whose kubelet stopped reporting. */
  notReadyNodes: string[];
  /** Storage nodes whose Portworx is down. */
  offlineStorageNodes: string[];
  /** Workloads whose first container crash-loops. */
  crashLooping: Array<{ namespace: string; workload: string; message: string }>;
  /** Services holding a load-balancer address from before (not intended). */
  leakedAddresses: Array<{ namespace: string; name: string; ip: string }>;
}

export interface NetworkDefinition {
  namespace: string;
  name: string;
  vlan: number;
}

export interface ScenarioSpec {
  name: ScenarioName;
  /** One paragraph for `lab.json` and the TUI's first screen. */
  summary: string;
  /** Which packs the site's profiles hold (default `standard`: ingress, monitoring, Portworx). */
  layout?: SiteLayout;
  /** VMO version of the deployed profiles. */
  deployed: VmoVersion;
  /** VMO version the operator upgrades to (the params file's `target`). */
  target: VmoVersion;
  /** VMO version whose launcher the running VMIs still use (older than `deployed` after a skipped minor). */
  launcherFrom: VmoVersion;
  /** VMO versions the deployed profiles went through (default: each one up to `deployed`). */
  history?: VmoVersion[];
  nodes: NodePlan[];
  vms: VmDefinition[];
  networks: NetworkDefinition[];
  /** Migrations already in the cluster; `skip-minor` adds the failed and hanging ones itself. */
  migrations: SeededMigration[];
  /** Add the failed / hanging workload-update migrations a skipped minor leaves. */
  skippedMinorMigrations: boolean;
  /** Multus is installed (default): without it the `k8s.cni.cncf.io` group does not exist and its paths answer 404. */
  multus?: boolean;
  /** KubeVirt MigrationPolicies the cluster holds (`migrations.kubevirt.io/v1alpha1`, cluster-scoped). */
  migrationPolicies?: Array<{ name: string; spec: Record<string, unknown> }>;
  /** VMIs (`namespace/name`) whose migration's abort fails when the migration is cancelled (`abortStatus: Failed`; the migration goes on). */
  abortFails?: string[];
  /** Services beyond the platform's (VM services, a leaked LoadBalancer). */
  services: Array<Omit<ServiceInput, 'clusterIP' | 'created'>>;
  faults: ScenarioFaults;
  /** Ordinary application pods to add so the cluster holds this many pods in all (`large`). */
  totalPods?: number;
  /** Pack tags a VMO version's reference profiles carry instead of its stack's (`repave`: a new Kubernetes). */
  referenceTags?: Partial<Record<VmoVersion, Record<string, string>>>;
  /** Pack upgrades that fail in the cluster (`name@tag` → the helm error). */
  packFailures?: Record<string, string>;
  /** How a real Palette renders the cluster object here (palette flavor): e.g. without `profileVersion`. */
  clusterShape?: ClusterShape;
}

export const noFaults = (): ScenarioFaults => ({ notReadyNodes: [], offlineStorageNodes: [], crashLooping: [], leakedAddresses: [] });
