/**
 * `/version` and legacy discovery (`/api`, `/apis`, `/api/v1`, `/apis/{group}[/{version}]`).
 * kubectl first asks for aggregated discovery; answering plain `application/json` makes it fall back
 * to these documents. The kubectl on PATH here dispatches to a kubectl matching `/version`.
 */
import { FOREIGN_SUBRESOURCES, SERVED_TYPES, apiVersionOf, localSubresources } from './kinds.js';

export const SERVER_VERSION = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.4',
  gitCommit: '59526cd4867447956156ae3a602fcbac5b2d5d78',
  gitTreeState: 'clean',
  buildDate: '2025-04-22T16:02:27Z',
  goVersion: 'go1.23.6',
  compiler: 'gc',
  platform: 'linux/amd64',
} as const;

interface GroupVersion {
  group: string;
  version: string;
}

/** Every group/version served, core first, in a stable order. */
function groupVersions(): GroupVersion[] {
  const seen = new Map<string, GroupVersion>();
  for (const t of [...SERVED_TYPES, ...FOREIGN_SUBRESOURCES]) seen.set(`${t.group}/${t.version}`, { group: t.group, version: t.version });
  return [...seen.values()];
}

export function apiVersions(serverAddress: string): Record<string, unknown> {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

function apiGroup(group: string): Record<string, unknown> | undefined {
  const versions = groupVersions()
    .filter((gv) => gv.group === group)
    .map((gv) => ({ groupVersion: `${group}/${gv.version}`, version: gv.version }));
  if (versions.length === 0) return undefined;
  return { name: group, versions, preferredVersion: versions[0] };
}

/** The groups served, less those this cluster does not have installed. */
export function apiGroupList(absentGroups: ReadonlySet<string> = new Set()): Record<string, unknown> {
  const groups = [...new Set(groupVersions().map((gv) => gv.group))].filter((g) => g !== '' && !absentGroups.has(g));
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: groups.map(apiGroup) };
}

export function apiGroupDocument(group: string): Record<string, unknown> | undefined {
  const doc = apiGroup(group);
  return doc && { kind: 'APIGroup', apiVersion: 'v1', ...doc };
}

export function apiResourceList(group: string, version: string): Record<string, unknown> | undefined {
  if (!groupVersions().some((gv) => gv.group === group && gv.version === version)) return undefined;
  const resources: Array<Record<string, unknown>> = [];
  for (const t of SERVED_TYPES.filter((x) => x.group === group && x.version === version)) {
    resources.push({
      name: t.resource,
      singularName: t.singular,
      namespaced: t.namespaced,
      kind: t.kind,
      verbs: t.verbs,
      ...(t.shortNames ? { shortNames: t.shortNames } : {}),
      ...(t.categories ? { categories: t.categories } : {}),
    });
    for (const sub of localSubresources(t)) resources.push({ name: `${t.resource}/${sub}`, singularName: '', namespaced: t.namespaced, kind: t.kind, verbs: ['get'] });
  }
  for (const s of FOREIGN_SUBRESOURCES.filter((x) => x.group === group && x.version === version)) {
    resources.push({ name: `${s.resource}/${s.subresource}`, singularName: '', namespaced: s.namespaced, kind: '', verbs: s.verbs });
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: apiVersionOf({ group, version }), resources };
}
