/** The plan step's output: the contract later steps read, plus what the screen and the command show. */
import type { PlanContract } from '../contracts.js';
import type { VmImpact } from '../../domain/impact/vm-impact.js';
import type { ImpactCounts } from '../../domain/impact/impact.js';
import type { WindowView } from '../../domain/window/window.js';

export interface PlanOutput extends PlanContract {
  status: 'planned' | 'refused';
  /** The orchestration pack's name, its deployed tag (the cluster's profiles read) and the target. */
  pack: string;
  deployed: string;
  target: string;
  /** Where the ladder's versions came from (`registry "Palette Registry" (uid)`, the reference profiles, ...). */
  versionSource?: string;
  impact: VmImpact[];
  impactCounts: ImpactCounts;
  /** KubeVirt's migration limits as the cluster has them, the policies and whom they select, the bandwidth (issue 27). */
  window?: Omit<WindowView, 'eta'>;
  /** The whole upgrade's duration against the window the params book, in one sentence (issue 27). */
  windowTotal?: string;
  /** The window the params book for the change (`window`, default 4h), which each hop's estimate is held against. */
  bookedWindowMs?: number;
  /** Facts worth a line: patch-only hops, an already-reached target, KubeVirt's update methods. */
  notes: string[];
  /** Why the plan was refused, and what to do (spec 9.1.1 for a skipped minor). */
  refusal?: { reason: string; hint: string };
}

/** What the plan step shows while it reads. */
export interface PlanLive {
  headline: string;
}
