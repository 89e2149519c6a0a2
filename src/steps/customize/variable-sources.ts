/**
 * Before anything is written: in plain mode, every profile variable the plan introduces, and every
 * sensitive one the cluster's profile uses (masked, so it cannot be carried to the new version), must
 * have a source (an environment variable or a file), since nothing can ask for it at a gate. The TUI
 * asks there. Only a real Palette has profile variables (the spec's service shows none).
 */
import type { VariableValues } from '../../palette/variable-values.js';
import type { PlanContract } from '../contracts.js';

export function missingVariableSources(plan: PlanContract, values: VariableValues | undefined): Array<{ name: string; hop: number }> {
  if (plan.flavor !== 'palette' || values?.canAsk) return [];
  const out: Array<{ name: string; hop: number }> = [];
  for (const hop of plan.hops) {
    for (const v of hop.variables ?? []) {
      // A source that is named but unusable (an unset environment variable, a missing file) throws its own message.
      if (!values?.available(v.name)) out.push({ name: v.name, hop: hop.index });
    }
  }
  // A sensitive variable the cluster's profile already uses: Palette masks its value, so the first
  // hop's apply cannot carry it to the new version; it needs a source as a new one does.
  const first = plan.hops[0]?.index;
  if (first !== undefined) {
    for (const v of plan.profileVariables ?? []) if (v.state === 'masked' && !out.some((o) => o.name === v.name) && !values?.available(v.name)) out.push({ name: v.name, hop: first });
  }
  return out;
}
