/**
 * What the apply carries of the cluster's profile-variable values (variable-carry.ts decides): read
 * just before the apply gate, so the values are the cluster's as they are now.
 */
import type { FlavorChoice } from '../../palette/flavor.js';
import { isPendingUid } from '../../palette/mutations.js';
import { valueMarker } from '../../palette/variable-values.js';
import { variablesApi } from '../../palette/variables.js';
import { variableView } from '../../values/profile-variables.js';
import { customizedProfile } from '../contracts.js';
import type { PlannedVariable } from '../../domain/plan/planned-hop.js';
import type { AppliedVersion } from '../../domain/flavor/way-back.js';
import { hopVariables } from './variables.js';
import { carryLines, variableCarry } from './variable-carry.js';
import type { HopContext } from './flavors/types.js';

export interface CarriedVariables {
  /** Per replaced version (by role), the entries' `variables` beyond the hop's new ones. */
  entries: Map<string, Array<{ name: string; value: string }>>;
  lines: string[];
  /** Sensitive values that cannot be carried: asked for (or read from their sources) like new variables. */
  masked: PlannedVariable[];
}

export async function carriedVariables(ctx: HopContext, replaced: readonly AppliedVersion[], choice: FlavorChoice, clusterUid: string): Promise<CarriedVariables> {
  const out: CarriedVariables = { entries: new Map(), lines: [], masked: [] };
  const api = variablesApi(ctx.effects.palette);
  // Edited in place, the version keeps its uid and the cluster its values; the spec's API has no variables.
  if (choice.flavor !== 'palette' || choice.versioning === 'in-place' || !api) return out;
  const moving = replaced.filter((r) => r.from.uid !== r.to.uid);
  if (moving.length === 0) return out;
  const { all, unserved } = await api.ofCluster(clusterUid, ctx.signal);
  // A Palette without profile variables: nothing to carry, and the apply gate says why.
  if (unserved) {
    out.lines.push(unserved);
    return out;
  }
  for (const r of moving) {
    const current = variableView(all, r.from.uid);
    const introduced = hopVariables(ctx, r.role).map((v) => v.name);
    // In a rehearsal the clone does not exist: it would hold what the version it is cloned from declares.
    const declared = isPendingUid(r.to.uid) ? [...current.keys(), ...introduced] : (await api.list(r.to.uid, ctx.signal)).map((v) => v.name);
    const chosen = (customizedProfile(ctx, r.role)?.fixes ?? []).filter((f) => f.accepted).flatMap((f) => f.variables ?? []);
    const carry = variableCarry({ current, declared, introduced, chosen });
    out.entries.set(r.role, [...carry.send.map(({ name, value }) => ({ name, value })), ...carry.masked.map((name) => ({ name, value: valueMarker(name) }))]);
    out.lines.push(...carryLines(r.name, carry));
    out.masked.push(...carry.masked.map((name) => ({ name, role: r.role, description: '', sensitive: true, format: 'string', since: `${r.name} ${r.from.version}`, source: `GET /v1/spectroclusters/${clusterUid}/variables (masked)` })));
  }
  return out;
}
