/** From validated API answers to the client's dialect-neutral documents. */
import type { z } from 'zod';
import type { ClusterProfilesSchema, ManifestEntitiesSchema, PackRefJson, ProfileJson, TemplateJson } from './schemas.js';
import type { DeployedProfileDoc, PackDoc, PackManifest, ProfileDoc } from './types.js';

function packDoc(pack: PackRefJson): PackDoc {
  const doc: PackDoc = {
    name: pack.name,
    tag: pack.tag,
    values: pack.values ?? '',
    manifests: (pack.manifests ?? []).map((m) => ({ name: m.name, ...(m.uid !== undefined ? { uid: m.uid } : {}), ...(m.content !== undefined ? { content: m.content } : {}) })),
    raw: pack as Record<string, unknown>,
  };
  const uid = pack.uid ?? pack.packUid;
  if (uid !== undefined) doc.uid = uid;
  if (pack.registryUid !== undefined) doc.registryUid = pack.registryUid;
  if (pack.layer !== undefined) doc.layer = pack.layer;
  if (pack.type !== undefined) doc.type = pack.type;
  return doc;
}

const packsOf = (t: TemplateJson | null | undefined): PackDoc[] => (t?.packs ?? []).map(packDoc);

/** `raw` is the parsed JSON as received; `parsed` its validated view. */
export function toProfileDoc(raw: Record<string, unknown>, parsed: ProfileJson): ProfileDoc {
  const { metadata, spec, status } = parsed;
  const base = {
    raw,
    uid: metadata.uid,
    name: metadata.name,
    annotations: metadata.annotations ?? {},
    labels: metadata.labels ?? {},
    versions: (spec.versions ?? []).map((v) => v.version),
    versionRefs: (spec.versions ?? []).map((v) => (v.uid ? { version: v.version, uid: v.uid } : { version: v.version })),
  };
  if (spec.template) {
    const packs = packsOf(spec.template);
    const version = spec.version ?? '';
    const doc: ProfileDoc = {
      ...base,
      dialect: 'spec',
      version,
      type: spec.type ?? spec.template.type ?? '',
      cloudType: spec.cloudType ?? spec.template.cloudType ?? '',
      isPublished: status?.isPublished ?? false,
      packs,
      packServerRefs: spec.template.packServerRefs ?? [],
    };
    // The template is the draft while one exists: only `status.isPublished` tells which it is.
    if (status?.isPublished === true) Object.assign(doc, { publishedPacks: packs, publishedVersion: version });
    if (status?.isPublished === false) Object.assign(doc, { draftPacks: packs, draftVersion: version });
    return doc;
  }
  const draft = spec.draft ?? undefined;
  const published = spec.published ?? undefined;
  const shown = draft ?? published;
  const draftPacks = draft ? packsOf(draft) : undefined;
  const publishedPacks = published ? packsOf(published) : undefined;
  const doc: ProfileDoc = {
    ...base,
    dialect: 'palette',
    version: spec.version ?? shown?.profileVersion ?? '',
    type: shown?.type ?? spec.type ?? '',
    cloudType: shown?.cloudType ?? spec.cloudType ?? '',
    isPublished: status?.isPublished ?? (draft === undefined && published !== undefined),
    // The same objects as the draft's (or the published) list, so filling manifest content fills both.
    packs: draftPacks ?? publishedPacks ?? [],
    packServerRefs: shown?.packServerRefs ?? [],
  };
  if (publishedPacks) {
    doc.publishedPacks = publishedPacks;
    const label = published?.profileVersion ?? (draft ? undefined : spec.version);
    if (label !== undefined) doc.publishedVersion = label;
  }
  if (draftPacks) {
    doc.draftPacks = draftPacks;
    const label = draft?.profileVersion ?? spec.version;
    if (label !== undefined) doc.draftVersion = label;
  }
  return doc;
}

export function toPackManifests(parsed: z.infer<typeof ManifestEntitiesSchema>): PackManifest[] {
  return (parsed.items ?? []).map((item) => {
    const draftContent = item.spec?.draft?.content ?? undefined;
    const publishedContent = item.spec?.published?.content ?? undefined;
    const m: PackManifest = { name: item.metadata.name, uid: item.metadata.uid, content: draftContent ?? publishedContent ?? '' };
    if (draftContent !== undefined) m.draftContent = draftContent;
    if (publishedContent !== undefined) m.publishedContent = publishedContent;
    return m;
  });
}

export function toDeployedProfiles(parsed: z.infer<typeof ClusterProfilesSchema>): DeployedProfileDoc[] {
  return (parsed.profiles ?? []).map((p) => {
    const rawVersion = p.spec?.version;
    const doc: DeployedProfileDoc = {
      name: p.metadata.name,
      version: p.spec?.profileVersion ?? (typeof rawVersion === 'string' ? rawVersion : ''),
      packs: (p.packs ?? p.spec?.packs ?? []).map((x) => {
        const name = x.spec?.name ?? x.name ?? '';
        const tag = x.spec?.version ?? x.tag ?? '';
        const values = x.spec ? x.spec.values : x.values;
        return values === undefined || values === null ? { name, tag } : { name, tag, values };
      }),
    };
    if (p.metadata.uid !== undefined) doc.uid = p.metadata.uid;
    if (typeof rawVersion === 'number') doc.revision = rawVersion;
    return doc;
  });
}
