/**
 * From a labelled diff and the operator's choices to the carry list. Conflicts have no default:
 * guessing either way loses a customization or a fix the new version brings.
 */
import { InputError } from '../errors.js';
import type { CarryItem } from './carry.js';
import type { DiffEntry, ValuesDiff } from './diff.js';

/** keepSite: the deployed value (or its absence); takeNew: the new default; value: what the operator typed. */
export type Decision = 'keepSite' | 'takeNew' | { value: unknown };
export type Decisions = Readonly<Record<string, Decision>>;

/**
 * What happens to an entry the operator did not decide:
 * - carried: keep the site's value;
 * - newDefault, ignored: take the new default;
 * - candidate: keep the site's value. Not its item-level `suggestion` for lists of scalars: a 2-way
 *   comparison cannot tell an item the site replaced from one the new version added (the union
 *   would put back a literal pod CIDR the site replaced by a macro), so the union is only offered.
 *   When the site lacks the key, it is most likely new in this version, so the new default is taken;
 * - conflict: none, a decision is required.
 */
export function defaultDecision(entry: DiffEntry): Decision | undefined {
  switch (entry.label) {
    case 'carried':
      return 'keepSite';
    case 'newDefault':
    case 'ignored':
      return 'takeNew';
    case 'candidate':
      return 'deployed' in entry ? 'keepSite' : 'takeNew';
    case 'conflict':
      return undefined;
  }
}

/** Conflicts still waiting for a decision. */
export function pendingConflicts(diff: ValuesDiff, decisions: Decisions = {}): DiffEntry[] {
  return diff.entries.filter((e) => e.label === 'conflict' && !Object.hasOwn(decisions, e.path));
}

function carryFor(entry: DiffEntry, decision: Decision): CarryItem | undefined {
  if (decision === 'takeNew') return undefined;
  if (decision === 'keepSite') return 'deployed' in entry ? { path: entry.path, value: entry.deployed } : { path: entry.path, remove: true };
  return { path: entry.path, value: decision.value };
}

/** The carry list for `mergeValues`, in the diff's order. Throws when a conflict is undecided or a decision names no entry. */
export function decide(diff: ValuesDiff, decisions: Decisions = {}): CarryItem[] {
  const known = new Set(diff.entries.map((e) => e.path));
  const stray = Object.keys(decisions).filter((p) => !known.has(p));
  if (stray.length > 0) {
    throw new InputError('values.decision-unknown', `Decisions name settings the diff does not list: ${stray.join(', ')}.`, {
      hint: 'The values changed since the decisions were made; review the diff again.',
    });
  }
  const open = pendingConflicts(diff, decisions);
  if (open.length > 0) {
    throw new InputError('values.conflicts-undecided', `${open.length} conflicting setting(s) need a decision: ${open.map((e) => e.path).join(', ')}.`, {
      hint: 'For each conflict choose: keep the site value, take the new default, or enter a value.',
    });
  }
  const carry: CarryItem[] = [];
  for (const entry of diff.entries) {
    const decision = Object.hasOwn(decisions, entry.path) ? (decisions[entry.path] as Decision) : defaultDecision(entry);
    if (decision === undefined) continue;
    const item = carryFor(entry, decision);
    if (item) carry.push(item);
  }
  return carry;
}
