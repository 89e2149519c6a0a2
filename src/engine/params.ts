/**
 * The site parameters file: everything that differs between one cluster and another.
 * Relative paths inside it are resolved against the file's own folder.
 */
import { z } from 'zod';
import { Duration } from './duration.js';
import { ByteSize } from './byte-size.js';
import { LIMITS } from '../io/limits.js';

const NonEmpty = z.string().min(1);
/** A pack tag read as a version: `1.4.2`, `v1.4.2`, `1.4.2-spectro.1`. */
export const VersionText = z.string().regex(/^v?\d+\.\d+(\.\d+)?([-+][0-9A-Za-z.-]+)?$/, 'expected a version such as 4.6.3, v1.4.0 or 1.4.2-spectro.1');
/** `namespace/name` */
export const NsName = z.string().regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?\/[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, 'expected namespace/name');

export const ProfileRole = z.enum(['addon', 'infra']);
export type ProfileRole = z.infer<typeof ProfileRole>;
export const profileRoles: readonly ProfileRole[] = ['infra', 'addon'];

const ProfileRef = z.strictObject({
  uid: NonEmpty,
  /** Expected profile name (checked against the API and the cluster's profiles read). */
  name: NonEmpty.optional(),
});

const ReferenceSet = z.strictObject({
  /** The orchestration pack tag whose default values these reference profiles hold. */
  version: VersionText,
  /** Reference profile uids in the profile API, per profile role. */
  addon: NonEmpty.optional(),
  infra: NonEmpty.optional(),
  /** Profile version labels to publish for this hop (default: computed, increasing). */
  labels: z.strictObject({ addon: NonEmpty.optional(), infra: NonEmpty.optional() }).optional(),
});
export type ReferenceSet = z.infer<typeof ReferenceSet>;

export const ParamsSchema = z.strictObject({
  palette: z.strictObject({
    baseUrl: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL such as https://api.spectrocloud.com' }),
    projectUid: NonEmpty,
    /** The cluster collection segment: `clusters` as in the spec, `spectroclusters` in Palette. */
    clusterCollection: z.enum(['clusters', 'spectroclusters']).default('clusters'),
    timeout: Duration.default(30_000),
    /** Most bytes of one answer of the profile API (a profile with all its values is a few MB). */
    maxResponse: ByteSize.default(LIMITS.paletteResponse),
    /** Accept a plain http:// base URL on a host that is not this machine (the key is then sent unencrypted). */
    allowInsecureHttp: z.boolean().default(false),
  }),
  cluster: z.strictObject({
    uid: NonEmpty,
    name: NonEmpty.optional(),
    kubeconfig: NonEmpty.optional(),
    context: NonEmpty.optional(),
  }),
  profiles: z.strictObject({ addon: ProfileRef, infra: ProfileRef }),
  /** Which pack in the profiles plays which role (rules and checks select packs through these). */
  packs: z
    .strictObject({
      orchestration: NonEmpty.default('virtual-machine-orchestrator'),
      loadBalancer: NonEmpty.default('lb-metallb-helm'),
      ingress: NonEmpty.default('nginx'),
      monitoring: NonEmpty.default('prometheus-operator'),
      network: NonEmpty.default('cni-cilium-oss'),
      storage: NonEmpty.default('csi-portworx-generic'),
    })
    .prefault({}),
  /** Target tag of the orchestration pack. */
  target: VersionText,
  /** Explicit intermediate orchestration pack tags (one per minor); default: from `references`. */
  hops: z.array(VersionText).optional(),
  /** Where each version's default values come from (the "new reference defaults", spec 9.1.5). */
  references: z.array(ReferenceSet).default([]),
  /** A folder of default values files, `<pack>/<tag>.yaml`, used when no reference profile has a pack. */
  valuesDir: NonEmpty.optional(),
  site: z.strictObject({
    ingressIP: z.ipv4({ error: 'expected an IPv4 address' }),
    ingressService: NsName.default('ingress-nginx/ingress-nginx-controller'),
    blockStorageClass: NonEmpty,
    storageClassParameters: z.record(z.string(), z.string()).default({}),
    /** Services intended to hold load-balancer addresses (`namespace/name`). */
    loadBalancerServices: z.array(NsName).default([]),
    storageCluster: NsName.default('portworx/px-cluster'),
    /** Namespace of the platform agent; default `cluster-<cluster uid>`. */
    agentNamespace: NonEmpty.optional(),
  }),
  kubevirt: z.strictObject({ namespace: NonEmpty.default('kubevirt'), name: NonEmpty.default('kubevirt') }).prefault({}),
  cdi: z.strictObject({ name: NonEmpty.default('cdi') }).prefault({}),
  /** How long the upgrade may take; credentials that expire sooner are red in preflight. */
  window: Duration.default(4 * 3_600_000),
  /** Free-form values a custom runbook may reference as `${params.extra.x}`. */
  extra: z.record(z.string(), z.unknown()).default({}),
});

export type Params = z.output<typeof ParamsSchema>;
