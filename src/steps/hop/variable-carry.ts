/**
 * A cluster's profile-variable values across the move to a new version uid. Palette keeps a
 * cluster's values per attached version (`v1SpectroClusterVariables` is keyed by `profileUid`, and
 * the docs say that once versioned "the variables in each version are independent"); no source says
 * an apply that replaces the version copies them, and the terraform provider sends the values with
 * every apply of a new version (`V1SpectroClusterProfileEntity.variables` in `toProfilesCommon`) and
 * patches them again under the new uid afterwards. So the apply carries them itself: each variable
 * the new version declares gets the value the cluster has now; a sensitive one is masked on every
 * read and cannot be carried, so its value comes from the operator (like a new variable); a value a
 * chosen fix sets wins. Pure.
 */
import type { VariableView } from '../../values/rule-variables.js';

export interface VariableCarryInput {
  /** The version the cluster runs now: its variables with this cluster's values. */
  current: VariableView;
  /** The variables the new version declares (a clone copies its source's). */
  declared: readonly string[];
  /** The variables the hop introduces: their values are asked for as new ones, not carried. */
  introduced: readonly string[];
  /** Values chosen fixes set for this cluster. */
  chosen: ReadonlyArray<{ name: string; value: string }>;
}

export interface VariableCarry {
  /** Sent with the apply: the cluster's value carried, or the one a chosen fix sets. */
  send: Array<{ name: string; value: string; from: 'carried' | 'fix' }>;
  /** Sensitive: Palette masks the value, so the operator must give it. */
  masked: string[];
  /** Declared, with no value on this cluster: nothing is sent (the declared default stands). */
  unset: string[];
}

export function variableCarry(input: VariableCarryInput): VariableCarry {
  const out: VariableCarry = { send: [], masked: [], unset: [] };
  for (const name of [...new Set(input.declared)]) {
    if (input.introduced.includes(name)) continue;
    const fix = input.chosen.find((c) => c.name === name);
    if (fix) {
      out.send.push({ name, value: fix.value, from: 'fix' });
      continue;
    }
    const now = input.current.get(name);
    if (now?.sensitive) out.masked.push(name);
    else if (now?.value !== undefined) out.send.push({ name, value: now.value, from: 'carried' });
    else out.unset.push(name);
  }
  return out;
}

/** The gate's lines for one profile's carry. */
export function carryLines(profile: string, carry: VariableCarry): string[] {
  const lines: string[] = [];
  const carried = carry.send.filter((s) => s.from === 'carried');
  const fixed = carry.send.filter((s) => s.from === 'fix');
  if (carried.length) lines.push(`The apply carries this cluster's values of ${profile}'s profile variables to the new version (Palette keeps a cluster's values per version): ${carried.map((s) => `${s.name} = ${s.value}`).join(', ')}.`);
  if (fixed.length) lines.push(`The apply sets this cluster's value of ${fixed.map((s) => `${s.name} = ${s.value}`).join(', ')} (a chosen fix; the shared profile keeps the reference).`);
  for (const name of carry.masked) lines.push(`${name} (${profile}) is sensitive: Palette masks its value, so it cannot be carried to the new version; its value must be given (typed here, or --variable ${name}=env:VAR|file:PATH).`);
  if (carry.unset.length) lines.push(`${carry.unset.join(', ')} (${profile}) ha${carry.unset.length > 1 ? 've' : 's'} no value on this cluster: nothing is sent, the declared default stands.`);
  return lines;
}
