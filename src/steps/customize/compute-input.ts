/** What the customization computes from, and what one profile of one hop works on while it is computed. */
import type { Params, ProfileRole } from '../../engine/params.js';
import type { RuleSpec } from '../../values/rule-schema.js';
import type { VersionNote } from '../../values/version-notes-schema.js';
import type { ValuesDocument, ValuesSettings } from '../../values/index.js';
import type { VariableView } from '../../values/rule-variables.js';
import type { ValuesCache } from '../../values/values-cache.js';
import type { PlanContract } from '../contracts.js';
import type { PlannedProfile } from '../../domain/plan/planned-hop.js';
import { parsedValues } from '../../values/parsed-values.js';
import type { PackState } from './pack-state.js';
import type { PackSources } from './sources.js';
import type { DecisionMap, FixChoices, PackCustomization } from './types.js';

export interface ComputeInput {
  plan: PlanContract;
  site: Params;
  rules: RuleSpec[];
  settings: ValuesSettings;
  sources: PackSources;
  decisions: DecisionMap;
  /** The runbook's version notes: keys a version moved or removed. */
  notes?: readonly VersionNote[] | undefined;
  /** Fixes and additions chosen so far (rule id, or an addition's key → who chose it). */
  fixes?: FixChoices | undefined;
  /**
   * Per profile, the variables it declares with this cluster's values (a real Palette): a rule whose
   * setting is a `{{.spectro.var.NAME}}` reference is judged on the cluster's value of NAME.
   */
  variables?: Partial<Record<ProfileRole, VariableView>> | undefined;
  /** Where values documents are parsed once (default: the process's cache, `values/parsed-values.ts`). */
  parsed?: ValuesCache | undefined;
}

/** A values text parsed, or taken from the cache when this process parsed it before. */
export const readValues = (input: ComputeInput, text: string, what: string): ValuesDocument => (input.parsed ?? parsedValues).parse(text, what);

/** One profile in one hop, while it is computed. */
export interface ProfileRun {
  input: ComputeInput;
  hop: PlanContract['hops'][number];
  planned: PlannedProfile;
  /** The hop's new version of this profile; undefined when the hop leaves the profile alone. */
  changes: PlannedProfile | undefined;
  /** Each pack's values after what was computed so far (hop by hop), by `role/pack`. */
  current: Map<string, PackState>;
  /** The pack versions this hop writes (fixes chosen for an unchanged pack add to it). */
  packs: PackCustomization[];
  /** What the site runs before this hop, per pack. */
  beforeOf(pack: string): Promise<PackState | undefined>;
  /** The pack's state as deployed (or as an earlier hop left it). */
  deployedState(pack: string): Promise<PackState | undefined>;
  /** The new defaults of each pack this hop changes. */
  defaultsOf: Map<string, PackState>;
  /** Per pack, the values typed at the review. */
  entered: Map<string, Array<{ path: string; value: unknown }>>;
}
