/**
 * How the double renders its state, per dialect.
 *
 * - `spec`: the shapes of spec section 2 (`spec.template.{cloudType,type,packs,packServerRefs}` showing
 *   the draft when there is one, else the published content; cluster profiles as 2.3).
 * - `palette`: real Palette, after palette-sdk-go `api/models`: `V1ClusterProfile` has `spec.draft` /
 *   `spec.published` (`V1ClusterProfileTemplate`: cloudType, type, name, profileVersion, packs,
 *   packServerRefs), `spec.version`, `spec.versions[]` (`{uid, version}`) and no template; packs are
 *   `V1PackRef` (the pack's uid is `packUid`; manifests are `V1ObjectReference`s `{name, uid}` whose
 *   content is served by the manifests endpoint as `V1ManifestEntities`). A cluster's profiles are
 *   `V1SpectroClusterProfileList`: `profiles[]` of `{metadata, spec: {cloudType, type, version, packs}}`
 *   where `spec.version` is an integer revision, so the label is given as `spec.profileVersion` (the
 *   field `V1ClusterProfileTemplate` uses for it), and packs are `V1ClusterProfilePacksEntity`
 *   `{metadata, spec: {name, version, layer, type, registryUid, values}}`.
 */
import { createHash } from 'node:crypto';
import type { DeployedProfile, LabPack, LabProfile, LabProfileContent, PaletteDialect } from './types.js';

type Json = Record<string, unknown>;

/** What GET shows: the draft while one exists (the operator is editing it), else the published content. */
const current = (p: LabProfile): LabProfileContent | undefined => p.draft ?? p.published;

/** `status.isPublished`: nothing pending; the content clusters get is what GET shows. */
export const isPublished = (p: LabProfile): boolean => p.published !== undefined && p.draft === undefined;

function metadata(p: LabProfile): Json {
  return { ...p.extraMetadata, name: p.name, uid: p.uid, annotations: { ...p.annotations }, labels: { ...p.labels } };
}

function specPack(pack: LabPack): Json {
  return {
    name: pack.name,
    tag: pack.tag,
    uid: pack.uid,
    registryUid: pack.registryUid,
    layer: pack.layer,
    type: pack.type,
    values: pack.values,
    manifests: pack.manifests.map((m) => ({ name: m.name, uid: m.uid, content: m.content })),
  };
}

function palettePack(pack: LabPack): Json {
  return {
    name: pack.name,
    tag: pack.tag,
    packUid: pack.uid,
    registryUid: pack.registryUid,
    layer: pack.layer,
    type: pack.type,
    values: pack.values,
    manifests: pack.manifests.map((m) => ({ name: m.name, uid: m.uid })),
  };
}

function paletteTemplate(p: LabProfile, content: LabProfileContent): Json {
  return {
    name: p.name,
    cloudType: p.cloudType,
    type: p.type,
    profileVersion: content.version,
    packServerRefs: structuredClone(p.packServerRefs),
    packs: content.packs.map(palettePack),
  };
}

/** `versions`: every version of the profile across its objects (palette dialect; default: this object's history). */
export function profileDocument(p: LabProfile, dialect: PaletteDialect, versions?: Array<{ uid: string; version: string }>, inUse?: Array<{ uid: string; name: string; projectUid: string }>): Json {
  const shown = current(p);
  const status: Json = { isPublished: isPublished(p), hasUserMacros: false };
  // palette-sdk-go spec 4.8 `v1ClusterProfileStatus.inUseClusters[]` (`v1ObjectResReference`): the clusters this version is attached to.
  if (dialect === 'palette' && inUse?.length) status.inUseClusters = inUse.map((c) => ({ kind: 'spectrocluster', name: c.name, projectUid: c.projectUid, uid: c.uid }));
  if (dialect === 'spec') {
    return {
      metadata: metadata(p),
      spec: {
        ...p.extraSpec,
        type: p.type,
        cloudType: p.cloudType,
        version: shown?.version ?? '',
        template: {
          cloudType: p.cloudType,
          type: p.type,
          packs: (shown?.packs ?? []).map(specPack),
          packServerRefs: structuredClone(p.packServerRefs),
        },
      },
      status,
    };
  }
  const spec: Json = {
    ...p.extraSpec,
    version: shown?.version ?? '',
    versions: versions ?? p.history.map((version) => ({ uid: p.uid, version })),
  };
  if (p.draft) spec.draft = paletteTemplate(p, p.draft);
  if (p.published) spec.published = paletteTemplate(p, p.published);
  return { metadata: metadata(p), spec, status };
}

/** One item of the spec's list (2.4: metadata.name, metadata.uid, spec.version). */
export function listItem(p: LabProfile): Json {
  return {
    metadata: { name: p.name, uid: p.uid, annotations: { ...p.annotations }, labels: { ...p.labels } },
    spec: { version: current(p)?.version ?? '' },
  };
}

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

/** `GET /v1/clusterprofiles/{uid}/packs/{packName}/manifests`: undefined when no version holds the pack. */
export function manifestsDocument(p: LabProfile, packName: string): Json | undefined {
  const draftPack = p.draft?.packs.find((x) => x.name === packName);
  const publishedPack = p.published?.packs.find((x) => x.name === packName);
  if (!draftPack && !publishedPack) return undefined;
  const byUid = new Map<string, { name: string; uid: string; draft?: string; published?: string }>();
  for (const m of publishedPack?.manifests ?? []) byUid.set(m.uid, { name: m.name, uid: m.uid, published: m.content });
  for (const m of draftPack?.manifests ?? []) {
    const entry = byUid.get(m.uid) ?? { name: m.name, uid: m.uid };
    entry.name = m.name;
    entry.draft = m.content;
    byUid.set(m.uid, entry);
  }
  const data = (content: string | undefined) => (content === undefined ? undefined : { content, digest: sha(content) });
  return {
    items: [...byUid.values()].map((m) => ({
      metadata: { name: m.name, uid: m.uid },
      spec: { draft: data(m.draft), published: data(m.published) },
    })),
  };
}

/** The cluster-profiles read: spec 2.3 (`profiles[].packs[]` of name/tag) or Palette's nested entries. */
export function clusterProfilesDocument(deployed: DeployedProfile[], dialect: PaletteDialect, lookup: (uid: string) => LabProfile | undefined): Json {
  if (dialect === 'spec') {
    return {
      profiles: deployed.map((d) => ({
        metadata: { name: d.name, uid: d.uid },
        spec: { version: d.version },
        packs: d.packs.map((x) => ({ name: x.name, tag: x.tag, values: x.values })),
      })),
    };
  }
  return {
    profiles: deployed.map((d) => {
      const profile = lookup(d.uid);
      const known = profile?.published?.packs ?? [];
      return {
        metadata: { name: d.name, uid: d.uid },
        spec: {
          cloudType: profile?.cloudType ?? 'all',
          type: profile?.type ?? 'add-on',
          // Palette's integer revision of the profile; the label itself is `profileVersion`.
          version: profile ? profile.history.indexOf(d.version) + 1 : 0,
          profileVersion: d.version,
          packs: d.packs.map((x) => {
            const pack = known.find((k) => k.name === x.name && k.tag === x.tag);
            return {
              metadata: { name: x.name, uid: pack?.uid ?? sha(`${x.name}:${x.tag}`).slice(0, 24) },
              spec: {
                name: x.name,
                version: x.tag,
                layer: pack?.layer ?? 'addon',
                type: pack?.type ?? 'spectro',
                registryUid: pack?.registryUid ?? '',
                values: x.values,
              },
            };
          }),
        },
      };
    }),
  };
}
