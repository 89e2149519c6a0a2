/**
 * The hop steps' outputs and live data, which the steps, their flavors, the way back and the screens
 * all read: here so no two hop modules import each other for a type.
 */
import type { ProfileRole } from '../../engine/params.js';
import type { PackState } from '../../palette/cluster-types.js';
import type { ValuesDiff } from './payload-diff.js';
import type { NodeDrain } from '../../domain/repave/repave-impact.js';
import type { AppliedVersion } from '../../domain/flavor/way-back.js';


export interface ApplyOutput {
  cluster: { uid: string; name: string };
  replaced: AppliedVersion[];
  /** `replace`: new versions attached with replaceWithProfile; `update`: the pending update of edited versions applied. */
  how: 'replace' | 'update';
  /** `attached`: read back on the cluster; `already`: found attached before anything was sent; `rehearsal`: nothing sent. */
  confirmed: 'attached' | 'already' | 'rehearsal';
}

export interface ApplyLive {
  headline: string;
  replaced: AppliedVersion[];
}

export interface DraftPackSummary {
  name: string;
  from: string;
  to: string;
  carried: number;
  diff: ValuesDiff;
  manifests: string[];
}

export interface DraftOutput {
  role: ProfileRole;
  /** The hop this draft belongs to. */
  hop?: number;
  /** The version object the draft was written to (on a real Palette with clones, the new version). */
  uid: string;
  name: string;
  fromVersion: string;
  toVersion: string;
  /** The version the cluster ran before this hop (a real Palette keeps it: the way back). */
  source?: { uid: string; version: string };
  /** How the draft reached its object: relabel (spec), clone / existing (Palette, new version), in-place. */
  how?: DraftHow;
  /** Changed packs whose layer rebuilds nodes when it changes (os, k8s). */
  rebuilds?: string[];
  packs: DraftPackSummary[];
  /** `matched` after the read-back; `rehearsal` when nothing was sent; `not-applied`: the silent no-op. */
  readBack: 'matched' | 'rehearsal' | 'not-applied';
  notApplied?: string[];
  /**
   * The version already existed, published, holding exactly this hop's content (another cluster that
   * shares the profile made it, e.g. earlier in a fleet): nothing was written and nothing is published.
   */
  shared?: boolean;
}

export interface DraftLive {
  headline: string;
  draft?: Omit<DraftOutput, 'readBack'>;
  /** The read-back found the draft different from what was sent. */
  notApplied?: string[];
}

export interface PublishOutput {
  role: ProfileRole;
  uid: string;
  name: string;
  version: string;
  confirmed: 'published' | 'rehearsal';
}

export type RowState = 'matches' | 'waiting' | 'not-published' | 'not-attached' | 'error';

export interface ReconcileRow {
  profile: string;
  expected: string;
  /** The version label the cluster shows for this profile (`not deployed` when none). */
  deployed: string;
  state: RowState;
  differences: string[];
}

/** The palette flavor's view of the cluster object: the live panel under the rows. */
export interface ClusterPanel {
  cluster: string;
  state: string;
  /** Each pack of each new version: how far the cluster's agent has got. */
  packs: Array<{ profile: string; version: string; pack: string; tag: string; state: PackState; detail: string }>;
  conditions: Array<{ type: string; status: string; detail: string }>;
  /** The latest events, newest first (already sanitized). */
  events: Array<{ at: string; severity: string; reason: string; message: string }>;
  repave?: string;
}

export interface ReconcileLive {
  headline: string;
  rows: ReconcileRow[];
  elapsedMs: number;
  nextPollInMs: number;
  polls: number;
  cluster?: ClusterPanel;
}

export interface ReconcileOutput {
  rows: ReconcileRow[];
  elapsedMs: number;
  polls: number;
  rehearsal?: { wouldWaitFor: string[] };
  cluster?: ClusterPanel;
}

export interface RepaveOutput {
  /** Palette asked for a node rebuild (and the gate was answered). */
  requested: boolean;
  approval?: RepaveApproval;
  /** Rehearsal: what a live run would most likely meet. */
  rehearsal?: string;
}

export interface RepaveLive {
  headline: string;
  elapsedMs: number;
  polls: number;
}

export interface RepaveApproval {
  reasons: string[];
  nodes: NodeDrain[];
  /** Running VMs that live-migrate, and that are shut down and started again. */
  migrate: number;
  restart: number;
  outcome: 'approved' | 'settled' | 'rehearsal';
}

/** How the draft of a hop reaches its version object. */
export type DraftHow = 'relabel' | 'clone' | 'existing' | 'in-place';
