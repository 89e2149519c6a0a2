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
  /** Profile variables the version declares (palette dialect; variable-routes.ts). */
  variables?: LabVariable[];
  extraSpec?: Record<string, unknown>;
}

/** A profile variable's declaration (palette-sdk-go `v1Variable`). */
export interface LabVariable {
  name: string;
  displayName?: string | undefined;
  description?: string | undefined;
  format?: string | undefined;
  required?: boolean | undefined;
  hidden?: boolean | undefined;
  immutable?: boolean | undefined;
  isSensitive?: boolean | undefined;
  defaultValue?: string | undefined;
  regex?: string | undefined;
}

/** A profile as deployed on the cluster (what the cluster-profiles read returns). */
export interface DeployedProfile {
  uid: string;
  name: string;
  version: string;
  packs: Array<{ name: string; tag: string; values: string }>;
}

export interface PaletteLabHooks {
  /** A profile was published; the world starts reconciling clusters that use it (spec) or notifies them of the update (Palette). */
  onPublish?(profile: LabProfile): void;
  /** The profiles deployed to a cluster, or undefined for an unknown cluster uid (404). */
  clusterProfiles(clusterUid: string): DeployedProfile[] | undefined;
  /**
   * A real Palette's cluster (palette dialect): the cluster object, apply, repave, events,
   * notifications. Without it the double derives a settled cluster object from `clusterProfiles`.
   */
  cluster?: PaletteClusterHooks;
  /**
   * The clusters that run a profile version (palette dialect): its GET's `status.inUseClusters`,
   * `v1ObjectResReference {kind, name, projectUid, tenantUid, uid}` in palette-sdk-go's spec 4.8
   * (`v1ClusterProfileStatus`). Without it the list is left out, as for a version no cluster runs.
   */
  inUseClusters?(profileUid: string): Array<{ uid: string; name: string; projectUid: string }>;
}

/** One entry of an apply (`V1SpectroClusterProfileEntity`). */
export interface LabApplyEntry {
  uid: string;
  replaceWithProfile?: string;
}

/** What a cluster mutation did: the audit note, or the error the API answers. */
export type LabResult = { ok: true; note: string } | { ok: false; status: number; code: string; message: string };

/** A condition as Palette reports it (`V1ClusterCondition`). */
export interface LabCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

/** What the double renders as `V1SpectroCluster` (see cluster-shapes.ts). */
export interface LabClusterView {
  uid: string;
  name: string;
  state: string;
  createdAt: string;
  /** What is attached (`spec.clusterProfileTemplates`): the desired versions. */
  templates: Array<{ uid: string; name: string; version: string; type: string; cloudType: string; packs: LabPack[] }>;
  /** `status.packs`: each pack of each attached profile and how far the agent has got. */
  packs: Array<{ name: string; tag: string; profileUid: string; condition: LabCondition }>;
  conditions: LabCondition[];
  repave?: 'Pending' | 'Approved';
  canBeApplied: boolean;
  /** `spec.clusterTemplate.uid` (`v1SpectroClusterTemplateRef`): the cluster template that manages the cluster. */
  clusterTemplate?: { uid: string; projectUid: string };
  /** `metadata.labels`: the cluster's tags in Palette (a key-only tag has the value `spectro__tag`). */
  labels?: Record<string, string>;
}

/** A line of the cluster's event stream (`V1Event`). */
export interface LabClusterEvent {
  at: string;
  reason: string;
  message: string;
  severity: 'Info' | 'Warning' | 'Error';
}

/** A cluster notification (`V1Notification`): an update waiting to be applied. */
export interface LabNotification {
  uid: string;
  createdAt: string;
  message: string;
  isDone: boolean;
  /** The attached version it is about. */
  profileUid: string;
}

export interface PaletteClusterHooks {
  view(clusterUid: string): LabClusterView | undefined;
  apply(clusterUid: string, entries: LabApplyEntry[], resolveNotification: boolean): LabResult;
  approveRepave(clusterUid: string): LabResult;
  /** Why a rebuild is asked for: `{code, message, pack: {current, target}}` per reason. */
  repaveReasons(clusterUid: string): Array<{ code: string; message: string; pack?: { name: string; current?: string; target?: string } }> | undefined;
  /** Newest first. */
  events(clusterUid: string): LabClusterEvent[] | undefined;
  notifications(clusterUid: string): LabNotification[] | undefined;
}

/*
 * Added for the Palette API double (src/lab/palette/server.ts). Nothing above changed meaning.
 * Rendering notes: `extraMetadata` is merged into `metadata` and `extraSpec` into `spec` of every
 * profile document; a PUT replaces both with the unknown fields it carries (so a client that drops
 * unknown fields is caught by the next GET).
 */

/** How the palette dialect renders the cluster object: quirks of a real Palette a scenario may ask for. */
export interface ClusterShape {
  /** `spec.clusterProfileTemplates[].profileVersion` left out, as a real Palette may (the field is optional in `v1ClusterProfileTemplate`). */
  emptyProfileVersion?: boolean;
}

/** Which shapes a lab instance answers with: the spec's (`spec.template`, `/v1/clusters`) or real Palette's. */
export type PaletteDialect = 'spec' | 'palette';

/** The answer of a lab control route (`/_lab/...`) added by the lab assembly. */
export interface LabRouteResult {
  status: number;
  /** Sent as JSON when defined. */
  body?: unknown;
  headers?: Record<string, string>;
}

/** `body` is the raw request body (empty string when there was none). */
export type LabRouteHandler = (req: import('node:http').IncomingMessage, body: string) => LabRouteResult | Promise<LabRouteResult>;

export interface LabRegistryPack {
  name: string;
  tag: string;
  /** The pack version's uid. */
  uid: string;
  layer: string;
  type: string;
  values: string;
}

export interface LabRegistry {
  uid: string;
  name: string;
  packs: LabRegistryPack[];
}
