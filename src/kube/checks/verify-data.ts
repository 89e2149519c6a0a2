/** What the verification checks read of the cluster and the profile API (gather.ts), fetched once per round; the domain judges it (domain/checks/). */
import type { Cdi, KubeVirt, Nad, Node, Pod, Service, StorageClass, StorageCluster, Vm, VmiPhase, Vmim } from '../schemas.js';

/** A deployed profile as the profile API reports it. */
export interface DeployedProfileView {
  name: string;
  version: string;
  packs: Array<{ name: string; tag: string }>;
}

/** Everything the checks read, fetched once per round. A fetch that failed holds its error. */
export interface VerifyData {
  profiles?: Fetched<DeployedProfileView[]>;
  nodes?: Fetched<Node[]>;
  /** Pods not Running and not Succeeded (server-side field selector). */
  unhealthyPods?: Fetched<Pod[]>;
  /** Pods of the components, per namespace. */
  componentPods?: Fetched<Pod[]>;
  agentPods?: Fetched<Pod[]>;
  /** Pods the kubelet reports crash-looping (BackOff events), read back to confirm: phase Running hides them. */
  backOffPods?: Fetched<Pod[]>;
  kubevirt?: Fetched<KubeVirt | undefined>;
  cdi?: Fetched<Cdi | undefined>;
  vms?: Fetched<Vm[]>;
  vmis?: Fetched<VmiPhase[]>;
  migrations?: Fetched<Vmim[]>;
  services?: Fetched<Service[]>;
  storageClasses?: Fetched<StorageClass[]>;
  storageCluster?: Fetched<StorageCluster | undefined>;
  nads?: Fetched<Nad[]>;
}

/** `note`: something the check says along with its verdict (an optional API group that is not installed). */
export type Fetched<T> = { ok: true; value: T; ms: number; note?: string } | { ok: false; reason: string; ms: number };
