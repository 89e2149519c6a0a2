/**
 * Contract between the lab's Palette API double (src/lab/palette) and the world (src/lab/world):
 * profiles with a published version and a draft, packs with values and manifests, and the hooks by
 * which publishing reaches the simulated cluster.
 */

export interface LabManifest {
  uid: string;
  name: string;
  content: string;
}

export interface LabPack {
  name: string;
  tag: string;
  uid: string;
  registryUid: string;
  /** `infra` layers: os, k8s, cni, csi; add-on packs: `addon`. */
  layer: string;
  type: 'spectro' | 'helm' | 'manifest';
  /** The pack's values: one YAML string, as in Palette. */
  values: string;
  manifests: LabManifest[];
}

export interface LabProfileContent {
  /** The profile version label (`spec.version`). */
  version: string;
  packs: LabPack[];
}

export interface LabProfile {
  uid: string;
  name: string;
  /** `add-on` or `infra` (real Palette also has `cluster`). */
  type: 'add-on' | 'infra' | 'cluster';
  cloudType: string;
  annotations: Record<string, string>;
  labels: Record<string, string>;
  packServerRefs: Array<Record<string, unknown>>;
  published: LabProfileContent | undefined;
  draft: LabProfileContent | undefined;
  /** Every version label published so far, oldest first. */
  history: string[];
  /** Extra top-level and spec fields the lab returns, to prove unknown fields survive a round trip. */
  extraMetadata?: Record<string, unknown>;
  extraSpec?: Record<string, unknown>;
}

/** A profile as deployed on the cluster (what the cluster-profiles read returns). */
export interface DeployedProfile {
  uid: string;
  name: string;
  version: string;
  packs: Array<{ name: string; tag: string; values: string }>;
}

export interface PaletteLabHooks {
  /** A profile was published; the world starts reconciling clusters that use it. */
  onPublish?(profile: LabProfile): void;
  /** The profiles deployed to a cluster, or undefined for an unknown cluster uid (404). */
  clusterProfiles(clusterUid: string): DeployedProfile[] | undefined;
}
