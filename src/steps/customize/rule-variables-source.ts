/**
 * The profile variables the rules may see through (a real Palette only; the spec's API has none):
 * one read of the cluster's variables, `GET /v1/spectroclusters/{uid}/variables`, and per profile
 * of the params the variables its deployed version declares with this cluster's values.
 */
import { profileRoles, type Params, type ProfileRole } from '../../engine/params.js';
import type { PaletteApi } from '../../palette/api.js';
import { variableView, variablesApi } from '../../palette/variables.js';
import type { VariableView } from '../../values/rule-variables.js';

export async function ruleVariableViews(palette: PaletteApi, site: Params, flavor: string | undefined, signal?: AbortSignal): Promise<Partial<Record<ProfileRole, VariableView>> | undefined> {
  const api = variablesApi(palette);
  if (flavor !== 'palette' || !api) return undefined;
  const all = await api.ofCluster(site.cluster.uid, signal);
  return Object.fromEntries(profileRoles.map((role) => [role, variableView(all, site.profiles[role].uid)]));
}
