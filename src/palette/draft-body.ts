/**
 * Building the draft PUT body from the profile as read, in the shape its API takes: the spec's
 * service gets spec 4's payload (metadata, spec with type, cloudType, version, template with
 * cloudType, type, packs, packServerRefs) with every field it sent carried back; a real Palette gets
 * exactly palette-sdk-go's `v1ClusterProfileUpdateEntity` (`metadata`, `spec.version`,
 * `spec.template.{type, packs}`, each pack a `v1PackManifestUpdateEntity`), since it silently drops
 * anything else (as the spec's service drops `spec.packs`). And the guard that refuses a body which
 * would silently do nothing or lose something before it is ever sent.
 */
import { InputError } from '../errors.js';
import { isVersionLabel, versionLabelRule } from './version-label.js';
import type { DraftBody, DraftManifest, DraftPack, PackChange, PackDoc, ProfileDoc } from './types.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Server-owned parts of a GET answer that a PUT must not carry back. */
const readOnlyTop = ['status'];
/** Palette's read shape of the spec; the PUT carries `template` instead (and never `spec.packs`). */
const readOnlySpec = ['draft', 'published', 'versions', 'packs'];
/** Fields that describe one version of a pack in the registry; stale once the tag changes. */
const versionBoundPackFields = ['uid', 'packUid', 'digest', 'version', 'schema', 'presets', 'isInvalid', 'inValidReason'];

function manifestsFor(pack: PackDoc, change: PackChange | undefined, profileName: string): DraftManifest[] {
  if (change?.manifests) {
    return change.manifests.map((m) => {
      // Updated in place: an existing manifest keeps its uid.
      const uid = pack.manifests.find((old) => old.name === m.name)?.uid;
      return { name: m.name, content: m.content, ...(uid !== undefined ? { uid } : {}) };
    });
  }
  return pack.manifests.map((m) => {
    if (m.content === undefined) {
      throw new InputError('palette.manifest-content', `Manifest ${m.name} of pack ${pack.name} in profile ${profileName} was read without its content.`, {
        hint: 'Read the profile with its manifests (getProfile without manifests: false) before building the draft; a PUT without the content would drop the manifest.',
      });
    }
    return { name: m.name, content: m.content, ...(m.uid !== undefined ? { uid: m.uid } : {}) };
  });
}

function draftPack(pack: PackDoc, change: PackChange | undefined, profileName: string): DraftPack {
  const out: Json = { ...pack.raw };
  const retagged = change !== undefined && change.tag !== pack.tag;
  if (retagged) for (const field of versionBoundPackFields) delete out[field];
  delete out.packUid;
  const uid = change?.uid ?? (retagged ? undefined : pack.uid);
  const registryUid = change?.registryUid ?? pack.registryUid;
  return {
    ...out,
    name: pack.name,
    tag: change?.tag ?? pack.tag,
    ...(uid !== undefined ? { uid } : {}),
    ...(registryUid !== undefined ? { registryUid } : {}),
    ...(pack.layer !== undefined ? { layer: pack.layer } : {}),
    ...(pack.type !== undefined ? { type: pack.type } : {}),
    values: change?.values ?? pack.values,
    manifests: manifestsFor(pack, change, profileName),
  };
}

function newPack(change: PackChange): DraftPack {
  return {
    name: change.name,
    tag: change.tag,
    ...(change.uid !== undefined ? { uid: change.uid } : {}),
    ...(change.registryUid !== undefined ? { registryUid: change.registryUid } : {}),
    values: change.values ?? '',
    manifests: (change.manifests ?? []).map((m) => ({ name: m.name, content: m.content })),
  };
}

/** `v1PackManifestUpdateEntity`'s fields, and `v1ManifestRefUpdateEntity`'s (palette-sdk-go spec 4.4-4.8). */
const updatePackFields = ['name', 'tag', 'uid', 'registryUid', 'layer', 'type', 'values', 'manifests'] as const;

function updatePack(pack: DraftPack): DraftPack {
  const out: Json = {};
  for (const field of updatePackFields) if (pack[field] !== undefined) out[field] = pack[field];
  if (pack.manifests) out.manifests = pack.manifests.map((m) => ({ name: m.name, content: m.content, ...(m.uid !== undefined ? { uid: m.uid } : {}) }));
  return out as DraftPack;
}

/** A real Palette's PUT body: `v1ClusterProfileUpdateEntity`, nothing it would drop unread. */
function updateEntity(profile: ProfileDoc, version: string, packs: DraftPack[]): DraftBody {
  return {
    metadata: { name: profile.name, uid: profile.uid, annotations: { ...profile.annotations }, labels: { ...profile.labels } },
    spec: { version, template: { ...(profile.type ? { type: profile.type } : {}), packs: packs.map(updatePack) } },
  };
}

/**
 * The PUT body for a new draft. Packs not named in `changes` are carried over unchanged; new names
 * are appended. The spec's service gets the profile's raw document with the server-owned parts
 * removed (so every unknown field goes back as it came) and the new version label; a real Palette
 * gets its update entity (see the top of this file).
 */
export function buildDraftBody(profile: ProfileDoc, changes: { version: string; packs: PackChange[] }): DraftBody {
  const names = changes.packs.map((p) => p.name);
  const repeated = names.find((n, i) => names.indexOf(n) !== i);
  if (repeated) throw new InputError('palette.duplicate-pack', `Pack ${repeated} is listed twice in the changes to profile ${profile.name}.`, { hint: 'Give each pack once.' });
  const byName = new Map(changes.packs.map((c) => [c.name, c]));
  const packs = [
    ...profile.packs.map((p) => draftPack(p, byName.get(p.name), profile.name)),
    ...changes.packs.filter((c) => !profile.packs.some((p) => p.name === c.name)).map(newPack),
  ];
  if (profile.dialect === 'palette') return updateEntity(profile, changes.version, packs);

  const raw = structuredClone(profile.raw);
  for (const key of readOnlyTop) delete raw[key];
  const spec: Json = isObject(raw.spec) ? { ...raw.spec } : {};
  for (const key of readOnlySpec) delete spec[key];
  const template: Json = isObject(spec.template) ? spec.template : {};
  const metadata = isObject(raw.metadata) ? raw.metadata : {};
  return {
    ...raw,
    metadata: { ...metadata, name: profile.name, uid: profile.uid },
    spec: {
      ...spec,
      type: profile.type,
      cloudType: profile.cloudType,
      version: changes.version,
      template: {
        ...template,
        cloudType: profile.cloudType,
        type: profile.type,
        packs,
        packServerRefs: structuredClone(profile.packServerRefs),
      },
    },
  };
}

/** Problems with a body that no API state can excuse: the reasons, empty when it is well formed. */
function shapeProblems(body: unknown): string[] {
  if (!isObject(body) || !isObject(body.spec)) return ['it has no spec object'];
  const problems: string[] = [];
  const spec = body.spec;
  if (spec.packs !== undefined) problems.push('it carries packs under spec.packs, which the API silently ignores (spec 2.1 rule 1, section 7); packs belong under spec.template.packs');
  const template = spec.template;
  if (!isObject(template) || !Array.isArray(template.packs)) {
    problems.push('it has no spec.template.packs list');
  } else {
    template.packs.forEach((p, i) => {
      if (!isObject(p) || typeof p.name !== 'string' || p.name === '' || typeof p.tag !== 'string' || p.tag === '') problems.push(`spec.template.packs[${i}] lacks a name or a tag`);
    });
    // A pack listed twice (read that way, or built that way) leaves the API to pick one: never send it.
    const names = template.packs.map((p) => (isObject(p) ? p.name : undefined)).filter((n): n is string => typeof n === 'string' && n !== '');
    const twice = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
    if (twice.length > 0) problems.push(`it lists pack${twice.length > 1 ? 's' : ''} ${twice.join(', ')} more than once`);
  }
  if (typeof spec.version !== 'string' || !isVersionLabel(spec.version)) problems.push(`spec.version ${JSON.stringify(spec.version)} is not a version label (${versionLabelRule})`);
  return problems;
}

function refuse(problems: string[], where: string): never {
  throw new InputError('palette.unsafe-draft', `Refusing to send the draft for ${where}: ${problems.join('; ')}.`, {
    hint: "Nothing was sent. The draft must list every current pack once, under spec.template.packs, and carry the right version label (the spec's service: a new, unused one; a real Palette: the version object's own, new versions come from a clone).",
    where,
  });
}

/** The checks that need only the body; `execute` runs them on every PUT as a last line of defence. */
export function assertDraftShape(body: unknown, where: string): asserts body is DraftBody {
  const problems = shapeProblems(body);
  if (problems.length > 0) refuse(problems, where);
}

/**
 * How the draft's version label must relate to the object it is written to. `new` (the spec's
 * service): a new, unused label, since a version is a label on the same object. `own` (a real
 * Palette): exactly the object's own label, since there each version is its own object and a PUT
 * with another label would rename the deployed version in place and lose the way back.
 */
export type LabelRule = 'new' | 'own';

/**
 * Refuses (InputError, exit 2, nothing sent) a body that carries `spec.packs`, lists a pack twice,
 * drops a pack the profile has, or breaks the label rule. Under `new`, overwriting an unpublished
 * draft under its own label is allowed: that is how an interrupted draft write is redone.
 */
export function assertSafeDraft(before: ProfileDoc, body: unknown, rule: LabelRule = 'new'): asserts body is DraftBody {
  const problems = draftProblems(before, body, rule);
  if (problems.length > 0) refuse(problems, `profile ${before.name} (${before.uid})`);
}

/** What `assertSafeDraft` refuses a body for, one reason per entry (empty: safe to send). */
export function draftProblems(before: ProfileDoc, body: unknown, rule: LabelRule = 'new'): string[] {
  const problems = shapeProblems(body);
  if (problems.length > 0) return problems;
  const b = body as DraftBody;
  const sent = new Set(b.spec.template.packs.map((p) => p.name));
  const dropped = before.packs.filter((p) => !sent.has(p.name)).map((p) => p.name);
  if (dropped.length > 0) problems.push(`it drops pack${dropped.length > 1 ? 's' : ''} ${dropped.join(', ')}`);
  if (b.metadata.uid !== before.uid) problems.push(`its metadata.uid ${b.metadata.uid} is not the profile's`);
  problems.push(...labelProblems(before, b.spec.version, rule));
  return problems;
}

function labelProblems(before: ProfileDoc, label: string, rule: LabelRule): string[] {
  if (rule === 'own') {
    return label === before.version ? [] : [`it changes spec.version of version ${before.version} to ${label}: on Palette that renames the deployed version in place (clone it to a new version instead)`];
  }
  const published = new Set([...before.versions, ...(before.publishedVersion !== undefined ? [before.publishedVersion] : [])]);
  const draftLabel = before.draftVersion !== undefined && !published.has(before.draftVersion) ? before.draftVersion : undefined;
  if (published.has(label)) return [`version ${label} is already published`];
  if (label === before.version && label !== draftLabel) return [`version ${label} is the profile's current version`];
  return [];
}
