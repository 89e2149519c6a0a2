/**
 * What the plan says of the profile variables the cluster's profiles use (a real Palette only): each
 * variable the deployed versions' values reference, where, and this cluster's value of it, which
 * the rules see and each hop's apply carries to the new version (hop/variable-carry.ts).
 */
import type { ProfileRole } from '../../engine/params.js';
import type { PaletteApi } from '../../palette/api.js';
import type { FlavorChoice } from '../../palette/flavor.js';
import type { ProfileDoc } from '../../palette/types.js';
import { variablesApi } from '../../palette/variables.js';
import { variableView } from '../../values/profile-variables.js';
import { variableReferences, viaWords, type VariableView } from '../../values/rule-variables.js';
import type { PlannedProfileVariable } from '../../domain/plan/planned-hop.js';

/** The variables one profile's packs reference, with this cluster's values. Pure. */
export function profileVariables(role: ProfileRole, profile: string, packs: ReadonlyArray<{ name: string; values: string }>, view: VariableView): PlannedProfileVariable[] {
  const byName = new Map<string, PlannedProfileVariable>();
  for (const ref of variableReferences(packs)) {
    let v = byName.get(ref.name);
    if (!v) {
      const known = view.get(ref.name);
      const state = !known ? 'undeclared' : known.sensitive ? 'masked' : known.value !== undefined ? 'value' : 'unset';
      const value = state === 'value' ? known?.value : state === 'unset' ? known?.defaultValue : undefined;
      v = { role, profile, name: ref.name, state, ...(value !== undefined ? { value } : {}), at: [] };
      byName.set(ref.name, v);
    }
    v.at.push(`${ref.pack} \`${ref.path}\``);
  }
  return [...byName.values()];
}

/** The variables the deployed versions use, with this cluster's values; `unserved`: why none could be read. */
export async function readProfileVariables(palette: PaletteApi, choice: FlavorChoice, docs: Record<ProfileRole, ProfileDoc>, clusterUid: string, signal: AbortSignal): Promise<{ variables: PlannedProfileVariable[]; unserved?: string }> {
  const api = variablesApi(palette);
  if (choice.flavor !== 'palette' || !api) return { variables: [] };
  const roles = (['infra', 'addon'] as const).filter((r) => docs[r].packs.some((p) => p.values.includes('.spectro.var.')));
  if (roles.length === 0) return { variables: [] };
  const { all, unserved } = await api.ofCluster(clusterUid, signal);
  const variables = roles.flatMap((r) => profileVariables(r, docs[r].name, docs[r].packs, variableView(all, docs[r].uid)));
  return { variables, ...(unserved ? { unserved } : {}) };
}

/** The plan's lines for them. */
export function profileVariableLines(vars: readonly PlannedProfileVariable[]): string[] {
  if (vars.length === 0) return [];
  const lines = ['', "Profile variables (this cluster's values: the rules are checked on them, and each hop's apply carries them to the new version; the new versions keep the references):"];
  for (const v of vars) {
    const words = viaWords({ path: '', name: v.name, state: v.state, ...(v.value !== undefined ? { value: v.value } : {}) });
    const extra = v.state === 'masked' ? `; Palette masks it, so it cannot be carried: its value is asked at the apply gate (plain mode: --variable ${v.name}=env:VAR|file:PATH)` : '';
    lines.push(`  ${v.profile}: ${words}, at ${v.at.join(', ')}${extra}`);
  }
  return lines;
}
