/**
 * The site parameters file: everything that differs between one cluster and another.
 * Relative paths inside it are resolved against the file's own folder.
 */
import { z } from 'zod';
import { Duration } from './duration-schema.js';
import { ByteSize } from './byte-size.js';
import { LIMITS } from '../io/limits.js';
import { NS_NAME_PATTERN } from './ns-name.js';
import { isTimeZone } from '../text/time-zone.js';

const NonEmpty = z.string().min(1);
/** A pack tag read as a version: `1.4.2`, `v1.4.2`, `1.4.2-spectro.1`. */
export const VersionText = z.string().regex(/^v?\d+\.\d+(\.\d+)?([-+][0-9A-Za-z.-]+)?$/, 'expected a version such as 4.6.3, v1.4.0 or 1.4.2-spectro.1');
/** `namespace/name` */
export const NsName = z.string().regex(NS_NAME_PATTERN, 'expected namespace/name');

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

/** A pack that plays a kind, or none (`none` or null: the site runs no such pack). */
const KindPack = (name: string) =>
  z
    .union([NonEmpty, z.null()])
    .transform((v) => (v === 'none' ? null : v))
    .default(name);

/** The pack kinds of spec 9.2 (and the orchestration pack itself): what a rule is about. */
export const packKinds = ['orchestration', 'loadBalancer', 'ingress', 'monitoring', 'network', 'storage'] as const;
export const PackKind = z.enum(packKinds);
export type PackKind = z.infer<typeof PackKind>;

/**
 * How a pack other than the orchestration pack moves in the hops when no reference profile says:
 * `latest-patch` (the registry's highest patch of its deployed minor, in the first hop), or a tag
 * per hop keyed by the orchestration pack version of that hop (`{4.5.4: 1.11.3, 4.6.3: 1.12.1}`).
 */
export const MoveWith = z.union([z.literal('latest-patch'), z.record(VersionText, VersionText)]);
export type MoveWith = z.infer<typeof MoveWith>;

/** Requests per second by path prefix (`/v1/packs`) or `default`; merged over Palette's documented rates. */
const RateLimits = z.record(z.string().regex(/^(\/v1\/[A-Za-z0-9/_-]+|default)$/, 'expected a path prefix such as /v1/packs, or default'), z.number().positive());

export const ParamsSchema = z.strictObject({
  palette: z.strictObject({
    baseUrl: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL such as https://api.spectrocloud.com' }),
    projectUid: NonEmpty,
    /** The cluster collection segment: `clusters` as in the spec, `spectroclusters` in Palette. */
    clusterCollection: z.enum(['clusters', 'spectroclusters']).default('clusters'),
    timeout: Duration.default(30_000),
    /** Client-side rate limits (requests per second); see src/palette/rate-limit.ts for the defaults. */
    rateLimits: RateLimits.default({}),
    /** The pack registry for packs whose profile entry names none (the spec's API shows no registryUid). */
    registryUid: NonEmpty.optional(),
    /**
     * Which profile API this is: the spec's service (`spec`: a published profile reaches its clusters
     * by itself) or a real Palette (`palette`: versions are objects, applied to the cluster on
     * purpose). `auto` decides from the first profile read (`spec.template` vs `spec.draft`/`published`).
     */
    flavor: z.enum(['auto', 'spec', 'palette']).default('auto'),
    /** Palette flavor: a new version per hop by clone (the way back stays), or edit the deployed version in place. */
    versioning: z.enum(['clone', 'in-place']).default('clone'),
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
    /** The cluster's local time zone (IANA, e.g. Europe/Berlin): the report's timeline shows it beside UTC. Default: this machine's. */
    timeZone: z
      .string()
      .refine(isTimeZone, { error: 'expected an IANA time zone such as Europe/Berlin, America/New_York or UTC' })
      .optional(),
  }),
  profiles: z.strictObject({ addon: ProfileRef, infra: ProfileRef }),
  /** Which pack in the profiles plays which role (rules and checks select packs through these). */
  packs: z
    .strictObject({
      orchestration: NonEmpty.default('virtual-machine-orchestrator'),
      loadBalancer: KindPack('lb-metallb-helm'),
      ingress: KindPack('nginx'),
      monitoring: KindPack('prometheus-operator'),
      network: KindPack('cni-cilium-oss'),
      storage: KindPack('csi-portworx-generic'),
    })
    .prefault({}),
  /** Target tag of the orchestration pack. */
  target: VersionText,
  /** Explicit intermediate orchestration pack tags (one per minor); default: from `references`, else the pack registry. */
  hops: z.array(VersionText).optional(),
  /** Packs that move with the orchestration pack in hops without a reference profile (pack name → how). */
  moveWith: z.record(NonEmpty, MoveWith).default({}),
  /** Where each version's default values come from (the "new reference defaults", spec 9.1.5). */
  references: z.array(ReferenceSet).default([]),
  /** A folder of default values files, `<pack>/<tag>.yaml`, used when no reference profile has a pack. */
  valuesDir: NonEmpty.optional(),
  site: z.strictObject({
    /** The ingress controller's fixed address; leave it out on a site without an ingress pack. */
    ingressIP: z.ipv4({ error: 'expected an IPv4 address' }).nullable().default(null),
    ingressService: NsName.default('ingress-nginx/ingress-nginx-controller'),
    blockStorageClass: NonEmpty,
    storageClassParameters: z.record(z.string(), z.string()).default({}),
    /** Services intended to hold load-balancer addresses (`namespace/name`). */
    loadBalancerServices: z.array(NsName).default([]),
    storageCluster: NsName.default('portworx/px-cluster'),
    /** What `storageCluster` names: Portworx's StorageCluster, or Rook-Ceph's CephCluster. */
    storageClusterKind: z.enum(['StorageCluster', 'CephCluster']).default('StorageCluster'),
    /** Namespace of the platform agent; default `cluster-<cluster uid>`. */
    agentNamespace: NonEmpty.optional(),
  }),
  kubevirt: z.strictObject({ namespace: NonEmpty.default('kubevirt'), name: NonEmpty.default('kubevirt') }).prefault({}),
  /**
   * The cluster's Prometheus (its HTTP API base, e.g. `https://prometheus.example/` or one behind a
   * route prefix): the plan reads KubeVirt's `kubevirt_vmi_dirty_rate_bytes_per_second` from it to
   * flag migrations that may not converge. Without it, only memory and timeouts are judged.
   */
  metrics: z.strictObject({ prometheusUrl: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL of the Prometheus HTTP API' }), timeout: Duration.default(10_000) }).optional(),
  cdi: z.strictObject({ name: NonEmpty.default('cdi') }).prefault({}),
  /** How long the upgrade may take; credentials that expire sooner are red in preflight. */
  window: Duration.default(4 * 3_600_000),
  /** Who hears when a gate waits or the run stops or ends (see the README, "Notifications"). */
  notify: z
    .strictObject({
      /** Webhook URLs (Slack, Teams, any JSON receiver); https unless `allowHttp` or on this machine. */
      webhooks: z.array(NonEmpty).default([]),
      /** A command run with the message as JSON on its stdin (not through a shell). */
      command: NonEmpty.optional(),
      /** Notify in rehearsals too (default: only live runs notify). */
      rehearsal: z.boolean().default(false),
      /** Accept plain-http webhook URLs to other machines (the message would cross the network readable). */
      allowHttp: z.boolean().default(false),
      /** Longest wait for one delivery attempt. */
      timeout: Duration.default(5_000),
      /** In the TUI, ring the terminal bell for a gate that appears after this long without a key pressed. */
      bellAfter: Duration.default(120_000),
      /** Ring the bell (and send the desktop-notification escape) at all. */
      bell: z.boolean().default(true),
    })
    .prefault({}),
  /**
   * Where the values of profile variables a new version introduces come from (`LOCAL_ADMIN_PASSWORD:
   * {env: VMO_ADMIN_PASSWORD}` or `{file: ./admin-password}`), for plain mode; the TUI asks when none
   * is given. Never the value itself: a params file is often shared and kept in a repository.
   */
  variables: z
    .record(
      z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected a variable name such as LOCAL_ADMIN_PASSWORD'),
      z.union([z.strictObject({ env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an environment variable name') }), z.strictObject({ file: NonEmpty })], {
        error: 'expected {env: NAME} or {file: PATH}: where the value comes from, never the value itself',
      }),
    )
    .default({}),
  /** Free-form values a custom runbook may reference as `${params.extra.x}`. */
  extra: z.record(z.string(), z.unknown()).default({}),
});

export type Params = z.output<typeof ParamsSchema>;
