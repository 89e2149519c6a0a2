/**
 * The lab's cluster profiles in the Palette double: the two profiles deployed on the cluster (a
 * pack version's defaults plus the site's customizations) and, for every VMO version the scenarios
 * use, one add-on and one infra reference profile holding that version's pure defaults (the
 * operator's "new reference defaults", spec 9.1.5). References are not attached to the cluster.
 */
import type { LabManifest, LabPack, LabProfile } from '../palette/types.js';
import type { Random } from '../world/random.js';
import { packStack, registryPackUid, vmoVersions, type PackDefaults, type SiteLayout, type VmoVersion } from './pack-catalog.js';
import { customizePack, type CustomizationId } from './site.js';

export const profileNames = { addon: 'vmo-core-addon', infra: 'vmo-infra' } as const;

/** The profile version label published with each VMO version. */
export const profileLabel = (vmo: VmoVersion): string =>
  ({ '4.4.10': '1.4.0', '4.5.4': '1.5.0', '4.6.3': '1.6.0', '4.7.2': '1.7.0', '4.8.4': '1.8.0', '4.9.3': '1.9.0', '4.9.9': '1.9.9', '4.10.0': '1.10.0' })[vmo];

export interface ReferenceProfiles {
  version: VmoVersion;
  addon: LabProfile;
  infra: LabProfile;
  /** Labels to publish the hop to this version with. */
  labels: { addon: string; infra: string };
}

export interface LabProfiles {
  addon: LabProfile;
  infra: LabProfile;
  /** Earlier versions of the two, as their own objects (palette flavor only). */
  earlier: LabProfile[];
  references: ReferenceProfiles[];
  /** The pack registry every pack comes from. */
  registryUid: string;
}

export interface ProfileOptions {
  deployed: VmoVersion;
  rng: Random;
  /** Customizations the deployed profiles lack (to start from a profile that already lost some). */
  without?: ReadonlySet<CustomizationId>;
  /** Wall-clock time the profiles were created (for their metadata). */
  createdAt: number;
  /** VMO versions the deployed profiles were published with, oldest first (default: every one up to `deployed`). */
  history?: readonly VmoVersion[];
  /** Which packs the profiles hold (default `standard`). */
  layout?: SiteLayout;
  /** Pack tags a version's reference profiles carry instead of the stack's (`{'4.6.3': {kubernetes: '1.32.3'}}`). */
  referenceTags?: Partial<Record<VmoVersion, Record<string, string>>>;
  /** Reference profiles for the versions up to this one (default: up to 4.6.3, the versions of the first scenarios). */
  upTo?: VmoVersion;
  /**
   * `palette`: as on a real Palette each earlier version is its own object (same name, own uid);
   * `spec` (default): the deployed profile carries every earlier label in its history.
   */
  flavor?: 'spec' | 'palette';
}

/** A pack moved to another tag: version strings in its values follow, and it gets that tag's registry uid. */
export function retag(p: PackDefaults, tag: string): PackDefaults {
  return { ...p, tag, uid: registryPackUid(p.name, tag), values: p.values.split(p.tag).join(tag) };
}

export function buildProfiles(opts: ProfileOptions): LabProfiles {
  const { rng } = opts;
  const registryUid = rng.hex(24);
  const toLabPack = (p: PackDefaults): LabPack => ({
    name: p.name,
    tag: p.tag,
    uid: p.uid,
    registryUid,
    layer: p.layer,
    type: p.type,
    values: p.values,
    manifests: p.manifests.map((m): LabManifest => ({ uid: rng.hex(24), name: m.name, content: m.content })),
  });
  const profile = (name: string, type: LabProfile['type'], version: string, packs: PackDefaults[], history: string[], description: string): LabProfile => ({
    uid: rng.hex(24),
    name,
    type,
    cloudType: 'all',
    annotations: { description },
    labels: {},
    packServerRefs: [{ name: 'Palette Registry', uid: registryUid }],
    published: { version, packs: packs.map(toLabPack) },
    draft: undefined,
    history,
    extraMetadata: { creationTimestamp: new Date(opts.createdAt).toISOString(), lastModifiedTimestamp: new Date(opts.createdAt).toISOString() },
  });

  const layout = opts.layout ?? 'standard';
  const stack = packStack(opts.deployed, layout);
  const site = (packs: PackDefaults[]) => packs.map((p) => customizePack(p, opts.without, layout));
  const label = profileLabel(opts.deployed);
  const historyVersions = opts.history ?? vmoVersions.slice(0, vmoVersions.indexOf(opts.deployed) + 1);
  const palette = opts.flavor === 'palette';
  const history = palette ? [label] : historyVersions.map(profileLabel);
  const addon = profile(profileNames.addon, 'add-on', label, site(stack.addon), history, 'Core add-ons of the VM orchestration cluster');
  const infra = profile(profileNames.infra, 'infra', label, site(stack.infra), history, 'Infrastructure of the VM orchestration cluster');
  // A real Palette keeps every earlier version as an object of its own.
  const earlier = palette
    ? historyVersions
        .filter((v) => v !== opts.deployed)
        .flatMap((v) => {
          const s = packStack(v, layout);
          return [profile(profileNames.addon, 'add-on', profileLabel(v), site(s.addon), [profileLabel(v)], addon.annotations.description ?? ''), profile(profileNames.infra, 'infra', profileLabel(v), site(s.infra), [profileLabel(v)], infra.annotations.description ?? '')];
        })
    : [];

  const last = vmoVersions.indexOf(opts.upTo && vmoVersions.indexOf(opts.upTo) > vmoVersions.indexOf('4.6.3') ? opts.upTo : '4.6.3');
  const references = vmoVersions.slice(0, last + 1).map((version): ReferenceProfiles => {
    const tags = opts.referenceTags?.[version] ?? {};
    const base = packStack(version, layout);
    const s = { ...base, infra: base.infra.map((p) => (tags[p.name] ? retag(p, tags[p.name]!) : p)), addon: base.addon.map((p) => (tags[p.name] ? retag(p, tags[p.name]!) : p)) };
    return {
      version,
      addon: profile(`${profileNames.addon}-reference-${version}`, 'add-on', version, s.addon, [version], `Reference defaults of the core add-ons for VMO ${version} (not attached to any cluster)`),
      infra: profile(`${profileNames.infra}-reference-${version}`, 'infra', version, s.infra, [version], `Reference defaults of the infrastructure for VMO ${version} (not attached to any cluster)`),
      labels: { addon: profileLabel(version), infra: profileLabel(version) },
    };
  });
  return { addon, infra, earlier, references, registryUid };
}
