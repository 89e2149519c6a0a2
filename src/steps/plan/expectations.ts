/**
 * What verification expects once every hop is done (spec 9.3.1 and 9.3.2): each profile's name,
 * final label and final pack tags, and the KubeVirt and CDI versions the last hop deploys.
 */
import { profileRoles, type ProfileRole } from '../../engine/params.js';
import type { PlanContract } from '../contracts.js';
import type { PlannedHop } from '../../domain/plan/planned-hop.js';
import type { ComponentVersions } from '../../domain/versions/components.js';
import type { ProfileState } from '../../domain/ladder/hops.js';

export function finalExpectations(final: Record<ProfileRole, ProfileState>, hops: PlannedHop[], deployedComponents: ComponentVersions): NonNullable<PlanContract['expectations']> {
  const last = hops.at(-1);
  const kubevirtVersion = last ? last.kubevirtVersion : deployedComponents.kubevirt;
  const cdiVersion = last ? last.cdiVersion : deployedComponents.cdi;
  return {
    profiles: profileRoles.map((role) => {
      const s = final[role];
      return { name: s.name, version: s.version, packs: [...s.packs].map(([name, tag]) => ({ name, tag })) };
    }),
    ...(kubevirtVersion ? { kubevirtVersion } : {}),
    ...(cdiVersion ? { cdiVersion } : {}),
  };
}
