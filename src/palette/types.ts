/**
 * What the profile API client hands to the steps: profiles normalized across the two dialects
 * (the spec's `spec.template`, real Palette's `spec.draft` / `spec.published`), with the raw JSON
 * kept so a PUT can carry back every field the tool does not know about.
 */

export type PaletteDialect = 'spec' | 'palette';

export interface ManifestDoc {
  name: string;
  uid?: string;
  /** Known inline (spec dialect) or after reading the manifests endpoint (palette dialect). */
  content?: string;
}

export interface PackDoc {
  name: string;
  tag: string;
  /** The pack version's uid (`uid`, or Palette's `packUid` in GET answers). */
  uid?: string;
  registryUid?: string;
  layer?: string;
  type?: string;
  /** The pack's values: one YAML string ('' when the API sent none). */
  values: string;
  manifests: ManifestDoc[];
  /** The pack entry exactly as the API sent it. */
  raw: Record<string, unknown>;
}

export interface ProfileDoc {
  /** The whole GET answer, untouched: unknown fields survive a GET → PUT round trip from here. */
  raw: Record<string, unknown>;
  dialect: PaletteDialect;
  uid: string;
  name: string;
  /** `spec.version`: the label of what the GET shows (the draft while one exists). */
  version: string;
  type: string;
  cloudType: string;
  /** `status.isPublished` (derived from draft/published when the API leaves it out). */
  isPublished: boolean;
  /** What the profile holds now: `spec.template.packs`, else the draft's, else the published packs. */
  packs: PackDoc[];
  /** Known when the answer tells the published content apart (palette dialect, or spec with status). */
  publishedPacks?: PackDoc[];
  publishedVersion?: string;
  /** Present only while a draft exists. */
  draftPacks?: PackDoc[];
  draftVersion?: string;
  /** Every published label, oldest first (`spec.versions[]`; the spec dialect has none). */
  versions: string[];
  /** `spec.versions[]` with their uids: on a real Palette each version is its own object. */
  versionRefs: Array<{ version: string; uid?: string }>;
  packServerRefs: unknown[];
  annotations: Record<string, string>;
  labels: Record<string, string>;
}

export interface ProfileSummary {
  uid: string;
  name: string;
  version: string;
}

export interface PackManifest {
  name: string;
  uid: string;
  /** The draft's content while one exists, else the published content. */
  content: string;
  draftContent?: string;
  publishedContent?: string;
}

export interface DeployedPack {
  name: string;
  tag: string;
  /** The spec's cluster-profiles read gives them; a real Palette's cluster object is read without them (no step compares them: the profile versions' own values are what the customization reads). */
  values?: string;
}

/** One profile as deployed on a cluster (the cluster-profiles read). */
export interface DeployedProfileDoc {
  name: string;
  uid?: string;
  /** The profile version label ('' when the API gave only Palette's integer revision). */
  version: string;
  /** Palette's integer revision of the profile, when the API gave one. */
  revision?: number;
  packs: DeployedPack[];
}

/** A pack to write into a draft: a new tag and, optionally, new values or manifests. */
export interface PackChange {
  name: string;
  tag: string;
  values?: string;
  manifests?: Array<{ name: string; content: string }>;
  /** The uid of the new pack version in its registry (a real Palette wants it for every spectro pack whose tag changes). */
  uid?: string;
  /** The registry that uid comes from (default: the one the pack names now). */
  registryUid?: string;
}

export interface DraftManifest {
  name: string;
  content: string;
  uid?: string;
}

export interface DraftPack {
  name: string;
  tag: string;
  uid?: string;
  registryUid?: string;
  layer?: string;
  type?: string;
  values?: string;
  manifests?: DraftManifest[];
  [field: string]: unknown;
}

/**
 * The PUT body: the spec's (section 4: metadata, spec with type, cloudType, version, template with
 * cloudType, type, packs, packServerRefs) or a real Palette's `v1ClusterProfileUpdateEntity`
 * (metadata, spec with version and template with type and packs).
 */
export interface DraftBody {
  metadata: { name: string; uid: string; [field: string]: unknown };
  spec: {
    type?: string;
    cloudType?: string;
    version: string;
    template: { cloudType?: string; type?: string; packs: DraftPack[]; packServerRefs?: unknown[]; [field: string]: unknown };
    [field: string]: unknown;
  };
  [field: string]: unknown;
}

/** The read-back after a PUT: does the draft hold exactly what was sent? */
export interface DraftCheck {
  matches: boolean;
  /** One line per difference, e.g. `virtual-machine-orchestrator: tag is 4.6.3, sent 4.7.1`. */
  differences: string[];
}

export interface ReadOptions {
  signal?: AbortSignal;
}
