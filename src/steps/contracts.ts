/**
 * What one step hands to the next. The plan says which packs move to which tags in each hop and
 * which version label each profile gets; customization says which values each pack carries; the
 * draft, publish and reconcile steps of a hop act on exactly that.
 */
import type { StepContext } from '../engine/context.js';
import type { ProfileRole } from '../engine/params.js';
import { steps } from '../engine/state.js';
import type { HopRoom, MigrationLimits } from './plan/eta/types.js';

export interface PlannedPack {
  name: string;
  from: string;
  to: string;
  /** Why it moves to that tag: `the hop's version`, `moveWith: latest patch`, `reference profile`. */
  source?: string;
}

export interface PlannedProfile {
  role: ProfileRole;
  uid: string;
  name: string;
  /** Profile version label before the hop, and the new one it publishes (new, increasing). */
  fromVersion: string;
  toVersion: string;
  /** Packs whose tag changes in this hop. */
  packs: PlannedPack[];
  /** Where the new defaults of this hop come from: a reference profile, a values folder, or the pack registry. */
  reference?: { kind: 'profile'; uid: string } | { kind: 'folder'; path: string } | { kind: 'registry'; registryUid: string; label: string };
  /** Without a reference profile: the packs that keep their tag in this hop (`kubernetes 1.32.2`). */
  stays?: string[];
}

export interface PlannedHop {
  index: number;
  from: string;
  to: string;
  /** Where this hop's version came from (`the target`, `highest 4.5.x tag in registry ...`). */
  source?: string;
  profiles: PlannedProfile[];
  /** Component versions this hop deploys, when the pack values say (e.g. KubeVirt v1.3.1). */
  kubevirtVersion?: string;
  cdiVersion?: string;
  /**
   * Profile variables the hop's new version introduces (version notes): declared on the profile
   * holding the orchestration pack before its draft, their values asked at the draft gate.
   */
  variables?: PlannedVariable[];
  /** How long the hop is predicted to take (issue 27): pack rollout, then the VMs' moves. */
  eta?: HopEtaContract;
  /** When the hop changes a pack that rebuilds nodes: whether the VMs of each drained node fit elsewhere (issue 27). */
  room?: HopRoom;
}

/** A hop's predicted duration, median and pessimistic, and what it is made of. */
export interface HopEtaContract {
  p50Seconds: number;
  p90Seconds: number;
  parts: Array<{ what: 'pack-rollout' | 'migrations' | 'restarts'; p50Seconds: number; p90Seconds: number; basis: string }>;
  summary: string;
}

export interface PlannedVariable {
  name: string;
  /** The profile that declares it (the one holding the pack whose version introduces it). */
  role: ProfileRole;
  displayName?: string;
  description: string;
  sensitive: boolean;
  format: string;
  /** The version that introduced it, and where that is said. */
  since: string;
  source: string;
}

/** A profile variable the cluster's profile uses: where its values reference it, and this cluster's value. */
export interface PlannedProfileVariable {
  role: ProfileRole;
  /** The profile's name. */
  profile: string;
  name: string;
  /** value: this cluster's value is known; masked: sensitive (Palette masks it); unset: none set (`value` is the declared default, if any); undeclared: referenced but not declared. */
  state: 'value' | 'masked' | 'unset' | 'undeclared';
  value?: string;
  /** `pack \`path\`` of each reference. */
  at: string[];
}

/** What each VM will go through when the pack is published (from the plan, before anything is sent). */
export interface VmImpact {
  /** `namespace/name` */
  vm: string;
  node?: string;
  /** live-migrate: moved without downtime; evict: restarted by KubeVirt; restart: stays on the old launcher until the operator restarts it. */
  fate: 'live-migrate' | 'evict' | 'restart' | 'not-running';
  reason: string;
  /** KubeVirt's `LiveMigratable=False` reason code (e.g. DisksNotLiveMigratable), when it cannot live-migrate. */
  reasonCode?: string;
  /** That reason in an operator's words: what blocks the move and what would lift it. */
  explanation?: string;
  /** The eviction strategy (the VMI's, else the cluster's) and the VM's run strategy that decided the fate. */
  evictionStrategy?: string;
  runStrategy?: string;
  /** Guest memory, bytes. */
  memoryBytes?: number;
  /** The MigrationPolicy that selects it. */
  migrationPolicy?: string;
  /** Predicted, in each hop's migration phase: seconds after the workload updater starts, and how long (median, pessimistic). */
  predicted?: { startSeconds: number; durationSeconds: { p50: number; p90: number }; downtimeSeconds?: number };
  /** Why its migration may never finish (completion timeout, dirty rate), with the remedies. */
  mayNotConverge?: string[];
  /** Its owner's limits, from the VM's annotations upgrade-pilot.io/max-downtime and upgrade-pilot.io/restart-window. */
  ownLimits?: { maxDowntimeSeconds?: number; restartWindow?: string };
  /** Its own limits (annotations) that the predicted fate breaks, or that cannot be read. */
  limitsBroken?: string[];
}

/**
 * The way back: per profile, the version the cluster ran before the upgrade, and how to return to
 * it (re-attach the old version on a real Palette, which keeps it; re-publish its packs under a new
 * label on the spec's service, whose PUT replaces the version in place).
 */
export interface WayBack {
  role: ProfileRole;
  name: string;
  /** The uid of the version the cluster ran before. */
  uid: string;
  version: string;
  /** One line an operator can follow. */
  how: string;
}

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
