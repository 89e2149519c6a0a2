/**
 * Test support for the Palette double: two small profiles (an add-on and an infra one), a cluster
 * that deploys their published versions, and a running double on port 0 with its store, audit log
 * and fault plan at hand. Used by the lab conformance tests and the client tests.
 */
import { AuditLog } from '../../../src/lab/audit.js';
import { FaultPlan } from '../../../src/lab/faults.js';
import { ProfileStore } from '../../../src/lab/palette/store.js';
import { startPaletteServer, type PaletteServerOptions } from '../../../src/lab/palette/server.js';
import type { LabRegistry } from '../../../src/lab/palette/registry-routes.js';
import type { DeployedProfile, LabProfile, PaletteDialect } from '../../../src/lab/palette/types.js';

export const API_KEY = 'lab-key-5f0c9a7e-3b1d-4c2e-9f8a-1234567890ab';
export const PROJECT_UID = 'project-lab-0001';
export const CLUSTER_UID = 'cluster-lab-0001';
export const ADDON_UID = 'profile-addon-0001';
export const INFRA_UID = 'profile-infra-0001';

export const VMO_VALUES_1_3 = [
  'charts:',
  '  virtual-machine-orchestrator:',
  '    kubevirt:',
  '      kubevirtResource:',
  '        additionalFeatureGates:',
  '          - SMM',
  '',
].join('\n');

export function addonProfile(): LabProfile {
  return {
    uid: ADDON_UID,
    name: 'vmo-core',
    type: 'add-on',
    cloudType: 'all',
    annotations: { owner: 'platform' },
    labels: { site: 'lab' },
    packServerRefs: [{ name: 'Palette Registry', uid: 'registry-0001' }],
    published: {
      version: '1.2.0',
      packs: [
        { name: 'lb-metallb-helm', tag: '0.14.9', uid: 'pack-metallb-0149', registryUid: 'registry-0001', layer: 'addon', type: 'spectro', values: 'autoAssign: false\n', manifests: [] },
        { name: 'virtual-machine-orchestrator', tag: '4.6.3', uid: 'pack-vmo-463', registryUid: 'registry-0001', layer: 'addon', type: 'spectro', values: VMO_VALUES_1_3, manifests: [] },
        {
          name: 'prometheus-operator',
          tag: '65.1.0',
          uid: 'pack-prom-6510',
          registryUid: 'registry-0001',
          layer: 'addon',
          type: 'spectro',
          values: 'grafana:\n  enabled: true\n',
          manifests: [{ uid: 'manifest-issuer-0001', name: 'issuer-selfsigned', content: 'apiVersion: cert-manager.io/v1\nkind: Issuer\n' }],
        },
      ],
    },
    draft: undefined,
    history: ['1.1.0', '1.2.0'],
    extraMetadata: { description: 'core add-ons', scope: 'project' },
    extraSpec: { relatedObject: { kind: 'cluster', name: 'lab' }, hasUserMacros: false },
  };
}

export function infraProfile(): LabProfile {
  return {
    uid: INFRA_UID,
    name: 'vmo-infra',
    type: 'infra',
    cloudType: 'all',
    annotations: {},
    labels: {},
    packServerRefs: [],
    published: {
      version: '2.0.0',
      packs: [{ name: 'cni-cilium-oss', tag: '1.16.3', uid: 'pack-cilium-1163', registryUid: 'registry-0001', layer: 'cni', type: 'spectro', values: 'ipam: {}\n', manifests: [] }],
    },
    draft: undefined,
    history: ['2.0.0'],
  };
}

export const REGISTRY_UID = 'registry-0001';

/**
 * The registry the two profiles' packs come from: their versions and the new ones the tests move to
 * (a real Palette refuses a changed spectro pack unless it names that version's uid in a registry).
 */
export function labRegistryDouble(): LabRegistry {
  const pack = (name: string, tag: string, uid: string, layer = 'addon') => ({ name, tag, uid, layer, type: 'spectro', values: `# ${name} ${tag} defaults\n` });
  return {
    uid: REGISTRY_UID,
    name: 'Palette Registry',
    packs: [
      pack('lb-metallb-helm', '0.14.9', 'pack-metallb-0149'),
      pack('lb-metallb-helm', '0.15.2', 'pack-metallb-0152'),
      pack('virtual-machine-orchestrator', '4.6.3', 'pack-vmo-463'),
      pack('virtual-machine-orchestrator', '4.7.0', 'pack-vmo-470'),
      pack('virtual-machine-orchestrator', '4.7.1', 'pack-vmo-471'),
      pack('prometheus-operator', '65.1.0', 'pack-prom-6510'),
      pack('cni-cilium-oss', '1.16.3', 'pack-cilium-1163', 'cni'),
      pack('cni-cilium-oss', '1.17.1', 'pack-cilium-1171', 'cni'),
    ],
  };
}

/** The cluster deploys what is published: PUT alone must not change what this returns. */
export function deployedFrom(store: ProfileStore): DeployedProfile[] {
  return store.list().flatMap((p) =>
    p.published ? [{ uid: p.uid, name: p.name, version: p.published.version, packs: p.published.packs.map((x) => ({ name: x.name, tag: x.tag, values: x.values })) }] : [],
  );
}

export interface Lab {
  url: string;
  store: ProfileStore;
  audit: AuditLog;
  faults: FaultPlan;
  published: string[];
  close(): Promise<void>;
  /** A request with the lab's headers (override or drop them through `headers`). */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string | undefined>): Promise<Response>;
}

export async function startLab(dialect: PaletteDialect, extra: Partial<PaletteServerOptions> = {}): Promise<Lab> {
  const store = new ProfileStore([addonProfile(), infraProfile()]);
  const audit = new AuditLog();
  const faults = new FaultPlan(7);
  const published: string[] = [];
  const server = await startPaletteServer({
    store,
    audit,
    faults,
    apiKey: API_KEY,
    projectUid: PROJECT_UID,
    dialect,
    hooks: {
      onPublish: (p) => published.push(`${p.name} ${p.published?.version ?? ''}`),
      clusterProfiles: (uid) => (uid === CLUSTER_UID ? deployedFrom(store) : undefined),
    },
    registries: [labRegistryDouble()],
    ...extra,
  });
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string | undefined> = {}) => {
    const merged: Record<string, string | undefined> = { ApiKey: API_KEY, ProjectUid: PROJECT_UID, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers };
    const clean = Object.fromEntries(Object.entries(merged).filter((e): e is [string, string] => e[1] !== undefined));
    return fetch(`${server.url}${path}`, { method, headers: clean, ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }) });
  };
  return { url: server.url, store, audit, faults, published, close: server.close, call };
}
