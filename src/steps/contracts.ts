/**
 * What one step hands to the next. The plan says which packs move to which tags in each hop and
 * which version label each profile gets; customization says which values each pack carries; the
 * draft, publish and reconcile steps of a hop act on exactly that.
 */
import type { StepContext } from '../engine/context.js';
import type { ProfileRole } from '../engine/params.js';
import { steps } from '../engine/state.js';
import type { MigrationLimits } from '../domain/window/types.js';
import type { PlannedHop, PlannedProfile, PlannedProfileVariable } from '../domain/plan/planned-hop.js';
import type { VmImpact } from '../domain/impact/vm-impact.js';
import type { WayBack } from '../domain/flavor/way-back.js';

/** The fields of the plan step's output that later steps read. */
export interface PlanContract {
  hops: PlannedHop[];
  /** Which profile API the session talks to: the spec's service, or a real Palette (issue 15). */
  flavor?: 'spec' | 'palette';
  /** The previous version of each profile and how to go back to it (plan, report, stop screens). */
  wayBack?: WayBack[];
  impact?: VmImpact[];
  /** KubeVirt's migration limits as the plan read them (the migrations screen reschedules what is left under them). */
  window?: { limits: MigrationLimits };
  /** A real Palette: the profile variables the deployed versions' values reference, with this cluster's values. */
  profileVariables?: PlannedProfileVariable[];
  /** Expectations for verification once every hop is done. */
  expectations?: {
    profiles?: Array<{ name: string; version?: string; packs?: Array<{ name: string; tag: string }> }>;
    kubevirtVersion?: string;
    cdiVersion?: string;
  };
}

/** The baseline the snapshot step records (bounded summaries), read by verification, drift and recovery. */
export interface SnapshotContract {
  baseline: {
    /** VMIs Running at the snapshot (`namespace/name`): only these may ever be restarted. */
    runningVmis: string[];
    nads: string[];
    vms: Array<{ vm: string; runStrategy?: string; phase?: string; node?: string }>;
    loadBalancerServices: Array<{ service: string; addresses: string[] }>;
    storageClasses: string[];
    /** Each StorageClass's annotations before the upgrade (without Helm's bookkeeping): verification tells a lost one from one never set. */
    storageClassAnnotations?: Record<string, Record<string, string>>;
    nodes: { total: number; notReady: string[] };
    kubevirtVersion?: string;
    cdiVersion?: string;
    deployedProfiles: Array<{ name: string; version: string; packs: Array<{ name: string; tag: string }> }>;
  };
}

/** The fields of the recover step's output that later steps read. */
export interface RecoverContract {
  restarted: string[];
  /** VMs the operator skipped (or that could not be restarted): still on the old launcher. */
  outstanding: string[];
}

/** One pack's new content for one hop, as customization computed it. */
export interface CustomizedPack {
  name: string;
  tag: string;
  values: string;
  /** Manifests the pack carries (site-added ones included); undefined = keep the profile's. */
  manifests?: Array<{ name: string; content: string }>;
  /** How many site values were carried into the new defaults. */
  carried: number;
}

export interface RuleOutcome {
  id: string;
  title: string;
  profile: ProfileRole;
  /**
   * A rule judges the change (values/rule-judgment.ts): `fail` is a loss (or a `required` rule not
   * met) and blocks before any write; `notOnSite`: the site did not have it before the upgrade
   * either (amber, never blocks); `notApplicable`: the site runs no pack of the rule's kind, or its
   * pack has no such setting (grey, never blocks).
   */
  status: 'pass' | 'fail' | 'notOnSite' | 'notApplicable';
  message: string;
  reason: string;
  /** The pack the rule was checked on, when the site runs one. */
  pack?: string;
  /** Where the setting lives (the values path, or `manifest <name>`). */
  target?: string;
  /** The rule on what the site ran before this hop. */
  before?: 'pass' | 'fail';
  /** The judgment in words ("not on this site before the upgrade (left as it is)"). */
  verdict?: string;
  /** The profile variables the setting is held by, and this cluster's value of each as judged (masked: sensitive, not judged). */
  variables?: Array<{ name: string; state: 'value' | 'masked' | 'unset' | 'undeclared'; value?: string }>;
}

/** The fields of the customize step's output that later steps read. */
export interface CustomizeContract {
  byHop: Array<{ index: number; profiles: Array<{ role: ProfileRole; packs: CustomizedPack[]; rules: RuleOutcome[]; fixes?: Array<{ accepted: boolean; variables?: Array<{ name: string; value: string }> }> }> }>;
}

/** The plan: the latest finished step output carrying hops (as the runner expands groups from it). */
export function latestPlan(ctx: StepContext<unknown>): PlanContract | undefined {
  const finished = steps(ctx.state()).filter((s) => s.status === 'succeeded' && Array.isArray((s.output as { hops?: unknown } | undefined)?.hops));
  return finished.at(-1)?.output as PlanContract | undefined;
}

/** The plan of the hop this step belongs to. */
export function currentHop(ctx: StepContext<unknown>): PlannedHop | undefined {
  const index = ctx.step.hop?.index;
  return index === undefined ? undefined : latestPlan(ctx)?.hops.find((h) => h.index === index);
}

export function plannedProfile(ctx: StepContext<unknown>, role: ProfileRole): PlannedProfile | undefined {
  return currentHop(ctx)?.profiles.find((p) => p.role === role);
}

export function customizedProfile(ctx: StepContext<unknown>, role: ProfileRole): CustomizeContract['byHop'][number]['profiles'][number] | undefined {
  const index = ctx.step.hop?.index;
  const custom = ctx.outputsOfKind<CustomizeContract>('customize').at(-1);
  return custom?.byHop.find((h) => h.index === index)?.profiles.find((p) => p.role === role);
}

/** Outputs of the steps of a kind in the same hop as this step. */
export function hopOutputs<T>(ctx: StepContext<unknown>, kind: string): T[] {
  const hop = ctx.step.hop?.index;
  return steps(ctx.state())
    .filter((s) => s.kind === kind && s.hop?.index === hop && s.output !== undefined)
    .map((s) => s.output as T);
}
