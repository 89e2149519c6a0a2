/**
 * A conflict's decisions in words: what the operator can choose, what is decided now, and what
 * `c` keeps for a conflict nobody decided (the review's proposal). Also the list of those
 * undecided conflicts, which `c` shows before it continues. Pure.
 */
import { decisionKey, type CustomizeEntry, type DecisionMap } from '../../steps/customize/types.js';
import { valueText } from './entry-rows.js';
import type { PackRow } from './pack-rows.js';

export type Decision = DecisionMap[string];
export type Choice = { kind: 'set'; decision: Decision } | { kind: 'proposal' } | { kind: 'enter' };

/** The options of a conflict's chooser; the values are shown above them, once. */
export function choicesFor(e: CustomizeEntry): Array<{ key: string; label: string; value: Choice }> {
  return [
    { key: 'keep', label: `Keep the site value${e.removed ? ' (at a key the new version no longer reads)' : ''}`, value: { kind: 'set', decision: 'keepSite' } },
    { key: 'new', label: e.removed ? 'Drop it (the new version removed this key)' : 'Take the new default', value: { kind: 'set', decision: 'takeNew' } },
    ...(e.suggestion !== undefined ? [{ key: 'merge', label: 'Merge both lists', value: { kind: 'set', decision: 'merge' } as Choice }] : []),
    { key: 'enter', label: 'Enter a value…', value: { kind: 'enter' } },
    { key: 'proposal', label: 'Back to the proposal', value: { kind: 'proposal' } },
  ];
}

/** What the review proposes for a conflict nobody decided, as `c` keeps it: "the site value", "both lists merged". */
export function proposalWords(e: CustomizeEntry): string {
  if (e.decision === 'merged') return "both lists merged (the new version's items, then the site's)";
  if (e.removed && e.decision === 'takeNew') return 'nothing: the key is dropped (the new version removed it)';
  if (e.decision === 'takeNew') return 'the new default';
  return 'the site value';
}

/** The decision on a conflict as it stands: the operator's, or the proposal (said so). */
export function decisionText(key: string, e: CustomizeEntry, pending: DecisionMap): string {
  const d = pending[key];
  if (d === undefined) {
    if (e.label !== 'conflict') return '';
    return e.decision === 'merged' ? 'merge both (proposed)' : e.removed ? 'drop: removed in the new version (proposed)' : 'keep site (proposed)';
  }
  if (d === 'keepSite') return 'keep site';
  if (d === 'takeNew') return 'take new default';
  if (d === 'merge') return 'merge both';
  return `value ${valueText(d.value)}`;
}

export const entryKey = (r: Pick<PackRow, 'hop' | 'role' | 'pack'>, e: Pick<CustomizeEntry, 'path'>): string => decisionKey(r.hop, r.role, r.pack.name, e.path);

export interface UndecidedConflict {
  row: PackRow;
  entry: CustomizeEntry;
  key: string;
}

/** The conflicts the operator has not decided (no decision of theirs, given now or earlier): `c` keeps the proposal for each. */
export function undecidedConflicts(rows: readonly PackRow[], pending: DecisionMap): UndecidedConflict[] {
  return rows.flatMap((row) => row.entries.filter((e) => e.label === 'conflict').map((entry) => ({ row, entry, key: entryKey(row, entry) }))).filter((c) => pending[c.key] === undefined);
}
