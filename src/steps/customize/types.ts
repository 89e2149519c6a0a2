/** What customization computes for each hop, profile and pack (a superset of `CustomizeContract`). */
import type { ProfileRole } from '../../engine/params.js';
import type { DiffLabel } from '../../values/index.js';
import type { RuleOutcome } from '../contracts.js';

export type EntryLabel = DiffLabel | 'ruleFix';

export interface CustomizeEntry {
  path: string;
  label: EntryLabel;
  deployed?: unknown;
  oldDefault?: unknown;
  newDefault?: unknown;
  /** What the draft will hold at this path. */
  result?: unknown;
  /**
   * For conflicts: the decision taken. Proposed until the operator says otherwise: `merged` for a
   * list both sides changed (the new items and the site's), else `keepSite`.
   */
  decision?: 'keepSite' | 'takeNew' | 'value' | 'merged';
  /** For lists both sides changed: the item-level merge (new default's items plus the site's). */
  suggestion?: unknown;
  note?: string;
  /** The site's value came from this key, which the new version moved here (version notes). */
  movedFrom?: string;
  /** The new version removed this key (no new place known): why. Dropped unless the operator keeps it. */
  removed?: string;
}

/** Who chose something the draft holds: the operator at the review (with the key), or a flag. */
export type Chooser = { by: 'operator'; key?: string; at?: string } | { by: 'flag'; flag: string };

/**
 * A rule's fix: settings that would make a rule hold that does not hold in the draft. Never written
 * unless chosen (`--accept-fix RULE-ID`, or a key at the review): a value nobody chose is not added.
 */
export interface FixOffer {
  rule: string;
  title: string;
  pack: string;
  /** The settings the fix writes into the draft. */
  items: Array<{ path: string; value: unknown }>;
  /**
   * For a setting the profile holds as a profile variable: this cluster's values of those variables
   * the fix sets (sent with the apply's `profiles[].variables`); `items` is then empty.
   */
  variables?: Array<{ name: string; value: string }>;
  /** What adding it changes on the cluster, in words. */
  effect: string;
  accepted: boolean;
  chosenBy?: Chooser;
}

/**
 * A value the draft would hold that is neither the site's (before the hop) nor the new default: a
 * rule's fix, a value typed at the review, or anything else. In the draft only when chosen.
 */
export interface DraftAddition {
  pack: string;
  path: string;
  value: unknown;
  source: 'ruleFix' | 'entered' | 'other';
  /** The rule whose fix it is. */
  rule?: string;
  /** What it changes, in words. */
  what: string;
  included: boolean;
  chosenBy?: Chooser;
}

/** Fixes chosen so far: rule id → who chose it. */
export type FixChoices = Record<string, Chooser>;

export interface PackCustomization {
  name: string;
  from: string;
  tag: string;
  /** The merged values the draft will carry. */
  values: string;
  manifests?: Array<{ name: string; content: string }>;
  carried: number;
  mode: 'threeWay' | 'twoWay';
  counts: Record<EntryLabel, number>;
  /** Every difference except the ignored ones (which are counted only). */
  entries: CustomizeEntry[];
  manifestChanges: string[];
  sources: { deployed: string; newDefaults: string; oldDefaults?: string };
  /** The deployed values (for the YAML diff on screen and in the report). */
  deployedValues: string;
}

export interface ProfileCustomization {
  role: ProfileRole;
  name: string;
  packs: PackCustomization[];
  rules: RuleOutcome[];
  /** Fixes offered for rules that do not hold in the draft (accepted or not). */
  fixes: FixOffer[];
  /** Every value of the drafts that is neither the site's nor a new default, and whether it is in. */
  additions: DraftAddition[];
}

export interface CustomizeOutput {
  /** Per hop (named `byHop`, not `hops`: only the plan's output carries `hops`, which the runner expands). */
  byHop: Array<{ index: number; from: string; to: string; profiles: ProfileCustomization[] }>;
  conflicts: number;
  /** Rules that block: a loss, or a `required` rule not met. */
  ruleFailures: number;
  /** Rules the site did not have before the upgrade and the draft does not add (amber). */
  notOnSite: number;
  /** Set when this Palette does not serve profile variables (read as none): what that means, for the review, `diff` and the report. */
  variablesUnserved?: string;
}

export interface CustomizeLive {
  headline: string;
  result?: CustomizeOutput;
}

/** Decisions keyed `hop/role/pack/path`; `merge` takes the item-level merge of a list. */
export type DecisionMap = Record<string, 'keepSite' | 'takeNew' | 'merge' | { value: unknown }>;

export const decisionKey = (hop: number, role: string, pack: string, path: string) => `${hop}/${role}/${pack}/${path}`;
