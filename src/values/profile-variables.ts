/**
 * Palette's profile variables as the upgrade judges them (palette/variables.ts reads and writes
 * them): the variables one attached version declares, with this cluster's values, as the rules see
 * them; and the declaration of a variable a new version introduces (its version note). Pure.
 */
import type { ClusterVariables, ProfileVariable } from '../palette/variables.js';
import type { ClusterVariable, VariableView } from './rule-variables.js';
import type { VariableNote } from './version-notes-schema.js';

/** The variables one attached version declares, with this cluster's values (a sensitive one's value left out: it is masked). */
export function variableView(all: ClusterVariables, profileUid: string): VariableView {
  const entry = all.find((e) => e.profileUid === profileUid);
  const out = new Map<string, ClusterVariable>();
  for (const v of entry?.variables ?? []) {
    const sensitive = v.isSensitive === true;
    // An empty value is Palette's "none set" (x-omitempty false: the field is always there).
    const value = !sensitive && v.value !== undefined && v.value !== '' ? v.value : undefined;
    out.set(v.name, { name: v.name, sensitive, ...(value !== undefined ? { value } : {}), ...(v.defaultValue ? { defaultValue: v.defaultValue } : {}) });
  }
  return out;
}

/**
 * The declaration of a variable a version introduces. Not `required`: the spec wants a default for a
 * required variable, and a password has no business being a default stored on the profile; its value
 * is set for the cluster at the apply.
 */
export function declaration(note: VariableNote): ProfileVariable {
  return {
    name: note.name,
    displayName: note.displayName ?? note.name,
    description: note.description,
    format: note.format,
    required: false,
    hidden: false,
    immutable: false,
    isSensitive: note.sensitive,
  };
}
