import type { DeployedProfileDoc } from '../../palette/api.js';
import type { DeployedProfileView } from '../../kube/checks/verify-data.js';

export function deployedProfileViews(profiles: DeployedProfileDoc[]): DeployedProfileView[] {
  return profiles.map((p) => ({ name: p.name, version: p.version, packs: p.packs.map((k) => ({ name: k.name, tag: k.tag })) }));
}
