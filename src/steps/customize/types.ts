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
}

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
}

export interface CustomizeOutput {
  /** Per hop (named `byHop`, not `hops`: only the plan's output carries `hops`, which the runner expands). */
  byHop: Array<{ index: number; from: string; to: string; profiles: ProfileCustomization[] }>;
  conflicts: number;
  ruleFailures: number;
}

export interface CustomizeLive {
  headline: string;
  result?: CustomizeOutput;
}

/** Decisions keyed `hop/role/pack/path`; `merge` takes the item-level merge of a list. */
export type DecisionMap = Record<string, 'keepSite' | 'takeNew' | 'merge' | { value: unknown }>;

export const decisionKey = (hop: number, role: string, pack: string, path: string) => `${hop}/${role}/${pack}/${path}`;
