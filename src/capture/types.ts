/**
 * The capture file: one JSON document (gzip-compressed when its name ends in `.gz`) holding what
 * upgrade-pilot read from one site, and a manifest that says what each part is and how it was read.
 * Shared by the capture command (src/capture, src/commands/capture.ts) and the replay
 * (src/lab/replay). `formatVersion` changes whenever a reader of an older file would misread it.
 */

export const CAPTURE_FORMAT = 'upgrade-pilot-capture';
export const CAPTURE_FORMAT_VERSION = 1;

/** One read pass: which of the product's reads ran, and whether it finished. */
export interface PassRecord {
  name: string;
  /** What the product does with these reads (`plan`, `verify`, ...). */
  what: string;
  ok: boolean;
  ms: number;
  /** Why it stopped early (the capture holds what was read before). */
  error?: string;
}

/** One part of the capture, as the manifest lists it. */
export interface PartRecord {
  /** Where it is in the document: `kube.resources["pods"]`, `palette.answers`, ... */
  part: string;
  what: string;
  count: number;
  /** How it was read: the requests (deduplicated), and by which passes. */
  reads: string[];
  passes: string[];
}

export interface CaptureManifest {
  tool: { name: 'upgrade-pilot'; version: string };
  /** Wall-clock time of the capture. */
  capturedAt: string;
  /** The cluster's time then (the lab's simulated time for a lab, else the wall clock): a replay's clock starts here. */
  clusterTime: string;
  cluster: { uid: string; name?: string };
  kube: { serverVersion: string; context?: string; readBy: string };
  palette: { flavor: 'spec' | 'palette'; baseUrl: string; projectUid: string; clusterCollection: string; readBy: string };
  /**
   * What standalone `verify` judged the site's failures from (the start of the latest session on the
   * cluster in the operator's state dir, when there was one): a replay elsewhere has no session.
   */
  verifySince?: { at?: string; source: string };
  passes: PassRecord[];
  parts: PartRecord[];
  /** What was removed or blanked, with how many times. */
  redactions: Array<{ what: string; count: number }>;
  /** How a replay serves this: what it answers exactly, and what it cannot know. */
  notes: string[];
}

export interface KubeCollection {
  group: string;
  version: string;
  resource: string;
  objects: Array<Record<string, unknown>>;
}

export interface CapturedLog {
  namespace: string;
  pod: string;
  /** '' when the read named none. */
  container: string;
  tailLines?: number;
  text: string;
}

/** A read that found nothing: a missing object, or a collection the cluster does not serve (a CRD not installed). */
export interface CapturedAbsence {
  path: string;
  failure: string;
}

export interface PaletteAnswer {
  /** GET, or POST for a search that only reads (Palette's dashboard lists); GET when left out. */
  method?: 'GET' | 'POST';
  /** The request path with its query, as sent (`/v1/packs?filters=...`). */
  path: string;
  /** A POST search's body (its filter). */
  request?: unknown;
  status: number;
  body: unknown;
}

export interface CaptureDocument {
  format: typeof CAPTURE_FORMAT;
  formatVersion: number;
  manifest: CaptureManifest;
  /** The site parameters the reads used: no notification targets, no file paths of this machine. */
  params: Record<string, unknown>;
  kube: {
    version: Record<string, unknown> | undefined;
    /** Keyed like the apiserver names a resource: `pods`, `virtualmachineinstances.kubevirt.io`. */
    resources: Record<string, KubeCollection>;
    logs: CapturedLog[];
    absent: CapturedAbsence[];
  };
  palette: { answers: PaletteAnswer[] };
  /** The params' `valuesDir`, when it names one: `<pack>/<tag>.yaml` → text. */
  values: Record<string, string>;
}
