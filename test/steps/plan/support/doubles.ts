/**
 * The two doubles for one test: the Kubernetes API double (real kubectl, HTTPS, bearer token) with
 * a seeded store, and the Palette API double holding the lab's profiles for a deployed orchestration
 * pack version plus reference profiles for every version. Site params point at both.
 */
import { AuditLog } from '../../../../src/lab/audit.js';
import { buildProfiles, type LabProfiles } from '../../../../src/lab/data/profiles.js';
import type { VmoVersion } from '../../../../src/lab/data/pack-catalog.js';
import { FaultPlan } from '../../../../src/lab/faults.js';
import type { ResourceStore } from '../../../../src/lab/kube/store.js';
import { startPaletteServer } from '../../../../src/lab/palette/server.js';
import { ProfileStore } from '../../../../src/lab/palette/store.js';
import type { DeployedProfile, PaletteDialect } from '../../../../src/lab/palette/types.js';
import { Random } from '../../../../src/lab/world/random.js';
import { ParamsSchema, type Params } from '../../../../src/engine/params.js';
import { startLab as startKubeLab, type Lab as KubeLab } from '../../../lab/kube/lab-fixture.js';
import { API_KEY, CLUSTER_UID, PROJECT_UID } from '../../../lab/palette/support.js';
import { clientFor } from '../../../palette/support.js';
import type { PaletteClient } from '../../../../src/palette/client.js';

export interface Doubles {
  kube: KubeLab;
  paletteUrl: string;
  profiles: LabProfiles;
  store: ProfileStore;
  faults: FaultPlan;
  palette: PaletteClient;
  site: Params;
  close(): Promise<void>;
}

export interface DoublesOptions {
  seed: (store: ResourceStore) => void;
  deployed?: VmoVersion;
  target?: string;
  dialect?: PaletteDialect;
  /** Extra params (merged over the defaults before validation). */
  params?: Record<string, unknown>;
  /** Leave these reference versions out of the params. */
  withoutReferences?: string[];
  /** The cluster's bearer token: a JWT whose expiry can be read (default), or an opaque string. */
  tokenStyle?: 'jwt' | 'opaque';
  /** API groups the cluster does not have installed (e.g. Multus' `k8s.cni.cncf.io`). */
  absentGroups?: string[];
}

export async function startDoubles(opts: DoublesOptions): Promise<Doubles> {
  const dialect = opts.dialect ?? 'spec';
  const profiles = buildProfiles({ deployed: opts.deployed ?? '4.4.10', rng: new Random(11), createdAt: Date.parse('2025-01-01T00:00:00Z') });
  const store = new ProfileStore([profiles.addon, profiles.infra, ...profiles.references.flatMap((r) => [r.addon, r.infra])]);
  const deployed = (): DeployedProfile[] =>
    [profiles.addon.uid, profiles.infra.uid].flatMap((uid) => {
      const p = store.get(uid);
      return p?.published ? [{ uid: p.uid, name: p.name, version: p.published.version, packs: p.published.packs.map((k) => ({ name: k.name, tag: k.tag, values: k.values })) }] : [];
    });
  const faults = new FaultPlan(3);
  const server = await startPaletteServer({
    store,
    audit: new AuditLog(),
    faults,
    apiKey: API_KEY,
    projectUid: PROJECT_UID,
    dialect,
    hooks: { clusterProfiles: (uid) => (uid === CLUSTER_UID ? deployed() : undefined) },
  });
  const kube = await startKubeLab({ seed: opts.seed, ...(opts.tokenStyle ? { tokenStyle: opts.tokenStyle } : {}), ...(opts.absentGroups ? { absentGroups: opts.absentGroups } : {}) });
  const site = ParamsSchema.parse({
    palette: { baseUrl: server.url, projectUid: PROJECT_UID, clusterCollection: dialect === 'spec' ? 'clusters' : 'spectroclusters' },
    cluster: { uid: CLUSTER_UID, name: 'vmo-test', kubeconfig: kube.kubeconfig, context: 'lab' },
    profiles: { addon: { uid: profiles.addon.uid, name: profiles.addon.name }, infra: { uid: profiles.infra.uid, name: profiles.infra.name } },
    target: opts.target ?? '4.6.3',
    references: profiles.references.filter((r) => !opts.withoutReferences?.includes(r.version)).map((r) => ({ version: r.version, addon: r.addon.uid, infra: r.infra.uid })),
    site: { ingressIP: '10.10.0.50', blockStorageClass: 'px-vm-block' },
    ...opts.params,
  });
  return {
    kube,
    paletteUrl: server.url,
    profiles,
    store,
    faults,
    palette: clientFor(server.url, { clusterCollection: site.palette.clusterCollection, probeUid: profiles.addon.uid }).client,
    site,
    close: async () => {
      await Promise.all([server.close(), kube.close()]);
    },
  };
}
