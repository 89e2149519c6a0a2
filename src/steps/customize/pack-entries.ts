/**
 * A pack's differences as the review lists them, from the values diff: each labelled (a site value
 * at a key the new version removed becomes a conflict, dropped unless kept), with the decision
 * taken (the operator's, else the proposal: keep the site's value; merge a list both sides changed;
 * drop a removed key) and where a moved key came from. Pure.
 */
import type { Decision, ValuesDiff } from '../../values/index.js';
import type { Move } from '../../values/relocate.js';
import { under } from './pack-state.js';
import type { CustomizeEntry, DecisionMap } from './types.js';

export interface EntriesInput {
  diff: ValuesDiff;
  /** The operator's decision for a path, if any. */
  given: (path: string) => DecisionMap[string] | undefined;
  /** Keys the version notes say were removed, with why and since when. */
  removedKeys: ReadonlyArray<{ path: string; reason: string }>;
  /** The keys moved before comparing. */
  moved: readonly Move[];
  /** The pack and the version it goes to (for "no longer has this key"). */
  pack: string;
  to: string;
}

export interface PackEntries {
  entries: CustomizeEntry[];
  /** The decision per path, for `decide`. */
  decisions: Record<string, Decision>;
  /** Paths whose values someone typed at the review. */
  entered: Array<{ path: string; value: unknown }>;
  ignored: number;
}

type DiffEntry = ValuesDiff['entries'][number];

/** Why a site value sits at a key the new version removed, or undefined when it does not. */
function removedReason(e: DiffEntry, input: EntriesInput): string | undefined {
  if (!('deployed' in e) || 'newDefault' in e) return undefined;
  // A value at a key nothing reads any more is not a customization carried, it is a dead key.
  const noted = input.removedKeys.find((r) => under(e.path, r.path) !== undefined || under(r.path, e.path) !== undefined);
  if (noted) return noted.reason;
  return input.diff.mode === 'threeWay' && e.label === 'conflict' && 'oldDefault' in e ? `${input.pack} ${input.to} no longer has this key` : undefined;
}

type Taken = [Decision, CustomizeEntry['decision']];

/**
 * The decision on an entry: the operator's; else a removed key is dropped; else a conflict keeps the
 * site's value, except a list both sides changed (feature gates), where the site's items join the
 * new version's so neither side's are lost.
 */
function taken(given: DecisionMap[string] | undefined, removed: boolean, conflict: boolean, suggestion: unknown): Taken | undefined {
  const merge = suggestion !== undefined ? { value: suggestion } : undefined;
  if (given === 'merge' && merge) return [merge, 'merged'];
  if (given !== undefined && given !== 'merge') return [given, given === 'keepSite' ? 'keepSite' : given === 'takeNew' ? 'takeNew' : 'value'];
  if (removed) return ['takeNew', 'takeNew'];
  if (conflict) return merge ? [merge, 'merged'] : ['keepSite', 'keepSite'];
  return undefined;
}

export function packEntries(input: EntriesInput): PackEntries {
  const out: PackEntries = { entries: [], decisions: {}, entered: [], ignored: 0 };
  for (const e of input.diff.entries) {
    if (e.label === 'ignored') {
      out.ignored++;
      continue;
    }
    const given = input.given(e.path);
    const removed = removedReason(e, input);
    const label = removed ? 'conflict' : e.label;
    const decision = taken(given, removed !== undefined, label === 'conflict', e.suggestion);
    if (decision) out.decisions[e.path] = decision[0];
    if (given !== undefined && given !== 'merge' && given !== 'keepSite' && given !== 'takeNew') out.entered.push({ path: e.path, value: given.value });
    const moved = input.moved.map((m) => ({ m, rest: under(e.path, m.to) })).find((x) => x.rest !== undefined);
    const note = removed ? `removed in the new version: dropped unless kept (${removed})` : e.note;
    out.entries.push({
      path: e.path,
      label,
      ...('deployed' in e ? { deployed: e.deployed } : {}),
      ...('oldDefault' in e ? { oldDefault: e.oldDefault } : {}),
      ...('newDefault' in e ? { newDefault: e.newDefault } : {}),
      ...(label === 'conflict' && decision?.[1] ? { decision: decision[1] } : {}),
      ...(e.suggestion !== undefined ? { suggestion: e.suggestion } : {}),
      ...(note ? { note } : {}),
      ...(moved ? { movedFrom: `${moved.m.from}${moved.rest}` } : {}),
      ...(removed ? { removed } : {}),
    } as CustomizeEntry);
  }
  return out;
}
