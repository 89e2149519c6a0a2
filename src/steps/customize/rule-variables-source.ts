/**
 * The profile variables the rules may see through (a real Palette only; the spec's API has none):
 * one read of the cluster's variables, `GET /v1/spectroclusters/{uid}/variables`, and per profile
 * of the params the variables its deployed version declares with this cluster's values.
 */
import { profileRoles, type Params, type ProfileRole } from '../../engine/params.js';
import type { PaletteApi } from '../../palette/api.js';
import { variablesApi } from '../../palette/variables.js';
import { variableView } from '../../values/profile-variables.js';
import type { VariableView } from '../../values/rule-variables.js';
import type { CustomizeOutput } from './types.js';

/** Per profile, the variables the rules see through; `unserved`: why none could be read (said in the review and `diff`). */
export async function ruleVariableViews(palette: PaletteApi, site: Params, flavor: string | undefined, signal?: AbortSignal): Promise<{ views?: Partial<Record<ProfileRole, VariableView>>; unserved?: string }> {
  const api = variablesApi(palette);
  if (flavor !== 'palette' || !api) return {};
  const { all, unserved } = await api.ofCluster(site.cluster.uid, signal);
  return { views: Object.fromEntries(profileRoles.map((role) => [role, variableView(all, site.profiles[role].uid)])), ...(unserved ? { unserved } : {}) };
}

/** The result with the note of variables that could not be read, when there is one. */
export function withVariablesNote<T extends CustomizeOutput>(result: T, unserved: string | undefined): T {
  return unserved ? { ...result, variablesUnserved: unserved } : result;
}
