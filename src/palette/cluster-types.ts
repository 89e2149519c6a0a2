/**
 * A real Palette cluster as the client hands it to the steps (palette-sdk-go `V1SpectroCluster`,
 * `V1Events`, `V1Notifications`, `V1SpectroClusterRepave`), normalized: what is attached, how far
 * each pack of each attached profile has got, the cluster's conditions, and whether a node rebuild
 * waits for approval. Strings here came from the network: screens sanitize them before showing.
 */
import type { DeployedPack } from './types.js';

export interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

/** `spec.clusterProfileTemplates[]`: a profile version attached to the cluster. */
export interface AttachedProfile {
  uid: string;
  name: string;
  /** `profileVersion`: the semver label (the deprecated integer `version` is not used). */
  version: string;
  type: string;
  /** Names and tags: the packs' values in the cluster object are left unread (cluster-reads.ts). */
  packs: Array<Omit<DeployedPack, 'values'>>;
}

/** `status.packs[]`: one pack of one attached profile, as the cluster's agent reports it. */
export interface PackStatus {
  name: string;
  version: string;
  profileUid: string;
  condition?: Condition;
}

export interface ClusterDoc {
  uid: string;
  name: string;
  /** `status.state`, e.g. `Running`. */
  state: string;
  profiles: AttachedProfile[];
  packs: PackStatus[];
  conditions: Condition[];
  /** `status.repave.state`: `Pending` (waits for approval), `Approved`, `Reverted`; undefined when none. */
  repave?: string;
  spcApply?: { canBeApplied?: boolean; actionType?: string };
  /** `spec.clusterTemplate.uid`: a cluster template manages this cluster (its profiles change only through the template). */
  templateUid?: string;
  /** Palette's tags on the cluster (`metadata.labels`): `key=value`, or `key` for a key-only tag. */
  tags: string[];
}

export interface ClusterEvent {
  /** `metadata.creationTimestamp` (ISO). */
  at: string;
  reason: string;
  message: string;
  severity: string;
  /** `involvedObject`: `kind/name`. */
  object: string;
}

export interface ClusterNotification {
  uid: string;
  /** `action.actionType`, e.g. `NotifyActionClusterProfileUpdate`. */
  actionType: string;
  message: string;
  isDone: boolean;
  ack: boolean;
}

export interface RepaveReason {
  code: string;
  message: string;
  /** `pack.current` → `pack.target`, when the reason names a pack: `kubernetes 1.32.2 → 1.32.3`. */
  pack?: string;
}

export interface RepaveStatus {
  state?: string;
  reasons: RepaveReason[];
}

export type PackState = 'ready' | 'error' | 'progressing';

/** As the terraform provider decides it: `Error` is an error; `Ready` with status True is done; anything else is still going. */
export function packState(condition: Condition | undefined): PackState {
  if (condition?.type === 'Error') return 'error';
  return condition?.type === 'Ready' && condition.status === 'True' ? 'ready' : 'progressing';
}
