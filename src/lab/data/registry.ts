/**
 * The lab's pack registry: every pack version the scenarios use (the same documents the reference
 * profiles hold), plus a few older patches of the orchestration pack, so that a ladder read from
 * the registry has to pick the highest patch of each minor as a real registry would make it, and
 * the newer Kubernetes patch the `repave` scenario moves to.
 */
import type { LabRegistry } from '../palette/registry-routes.js';
import { catalogVersions, registryPackUid } from './pack-catalog.js';

export const labRegistryName = 'Palette Registry';

/** Tags not in the catalog: `[pack, derived tag, tag whose document it is made from]`. */
const derivedTags: Array<[string, string, string]> = [
  ['virtual-machine-orchestrator', '4.5.1', '4.5.4'],
  ['virtual-machine-orchestrator', '4.6.0', '4.6.3'],
  ['virtual-machine-orchestrator', '4.8.1', '4.8.4'],
  ['kubernetes', '1.32.3', '1.32.2'],
  // The Rook-Ceph patch the `rook-ceph-no-placement` site takes with VMO 4.10.0.
  ['csi-rook-ceph-helm', '1.16.4', '1.16.3'],
];

export function labRegistry(uid: string): LabRegistry {
  const versions = catalogVersions();
  const packs = versions.map((p) => ({ name: p.name, tag: p.tag, uid: p.uid, layer: p.layer, type: p.type, values: p.values }));
  for (const [name, tag, from] of derivedTags) {
    const base = versions.find((p) => p.name === name && p.tag === from);
    if (base) packs.push({ ...base, tag, uid: registryPackUid(base.name, tag), values: base.values.split(from).join(tag) });
  }
  return { uid, name: labRegistryName, packs };
}
