/**
 * Writing the carried settings into the new defaults' document by editing its text where the
 * settings sit, so every other line (comments, order, quoting, indentation) stays byte-identical.
 * Values copied from the deployed document keep the text they were written as: a Palette macro or a
 * `${variable}` is never resolved or re-quoted.
 *
 * The result is checked before it is returned: it must read back as exactly the new defaults with
 * the carry list applied (`applyCarryToJs`), or the merge throws instead of writing a wrong profile.
 */
import { visit } from 'yaml';
import { InputError, PilotError } from '../errors.js';
import { applyCarryToJs, orderForMerge, type CarryItem } from './carry.js';
import { deepEqual } from '../io/deep-equal.js';
import { OverlayWriter } from './overlay-edits.js';
import { CarryPlan } from './overlay.js';
import { formatPath, type PathSegment } from './path.js';
import { pairedJs } from './paired-js.js';
import { parseValues, toValuesDocument, type ValuesDocument, type ValuesInput } from './values-document.js';

export interface MergeValuesInput {
  newDefaults: ValuesInput;
  /**
   * Settings to write, applied in order; a list position (`l[2]`) names the item at that position
   * in the new defaults (removals of positioned items are applied last, so none shifts another).
   */
  carry: readonly CarryItem[];
  /** The deployed values the carried settings come from: a carried value equal to the deployed one is copied as written there. */
  deployed?: ValuesInput | undefined;
}

export function mergeValues(input: MergeValuesInput): string {
  return mergeValuesDocument(input).text;
}

/**
 * The merge, also returning the merged values parsed (its check parses them anyway): the rules can
 * be checked on it without parsing the payload again.
 */
export function mergeValuesDocument(input: MergeValuesInput): ValuesDocument {
  const target = toValuesDocument(input.newDefaults, 'the new default values');
  const deployed = input.deployed === undefined ? undefined : toValuesDocument(input.deployed, 'the deployed values');
  if (input.carry.length === 0) return target;
  const carry = orderForMerge(input.carry);
  const plan = new CarryPlan(target, deployed);
  for (const item of carry) plan.add(item);
  return verify(target, carry, new OverlayWriter(target).write(plan));
}

/** The merged text must read back as the new defaults with the carry list applied, and nothing else. */
function verify(target: ValuesDocument, carry: readonly CarryItem[], text: string): ValuesDocument {
  let merged: ValuesDocument;
  try {
    merged = parseValues(text, 'the merged values');
  } catch (err) {
    throw mergeFailed(target, 'values.merge-invalid', 'The merged values do not parse; nothing was written.', err);
  }
  const both = pairedJs(target, merged, carry);
  const expected = applyCarryToJs(both.target, carry, { inPlace: both.ownTarget });
  const actual = both.merged;
  for (let d = 0; d < Math.max(expected.length, actual.length); d++) {
    if (deepEqual(expected[d], actual[d])) continue;
    const where = formatPath({ doc: d, segments: firstDifference(expected[d], actual[d], []) }) || '(document root)';
    throw mergeFailed(target, 'values.merge-mismatch', `The merged values differ from the intended result at \`${where}\`; nothing was written.`);
  }
  return merged;
}

/**
 * Text edits cannot change a node that YAML aliases share (`&name` ... `*name`) without changing
 * every use; that is the operator's to resolve. Anything else is a bug in the merge.
 */
function mergeFailed(target: ValuesDocument, code: string, message: string, cause?: unknown): PilotError {
  const shared = target.docs.some((doc) => {
    let found = false;
    visit(doc, {
      Alias() {
        found = true;
        return visit.BREAK;
      },
    });
    return found;
  });
  if (shared) {
    return new InputError('values.merge-aliases', `${message} The new default values share settings through YAML anchors and aliases (&name, *name), and a carried setting is one of them.`, {
      hint: 'Write that setting into the new values by hand, or replace the aliases with copies first.',
      cause,
    });
  }
  return new PilotError('internal', code, message, { hint: 'This is a bug in upgrade-pilot; please report it with the pack values.', cause });
}

function firstDifference(a: unknown, b: unknown, at: PathSegment[]): PathSegment[] {
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (!deepEqual(a[i], b[i])) return firstDifference(a[i], b[i], [...at, { kind: 'index', index: i }]);
    }
  }
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const x = (a as Record<string, unknown>)[k];
      const y = (b as Record<string, unknown>)[k];
      if (!deepEqual(x, y)) return firstDifference(x, y, [...at, { kind: 'key', key: k }]);
    }
  }
  return at;
}
