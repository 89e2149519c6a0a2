/**
 * What the double does with a `PUT /v1/clusterprofiles/{uid}` body.
 *
 * The body is the update entity (palette-sdk-go `V1ClusterProfileUpdateEntity`): `metadata`, and
 * `spec` with `version` and `template.{type, packs}`; each pack as `V1PackManifestUpdateEntity`
 * (`name, tag, uid?, registryUid?, layer?, type?, values?, manifests?: [{name, content, uid?}]`).
 * A PUT replaces the draft as a whole: omitted `values` mean empty values and omitted `manifests`
 * mean none, so a client that forgets them loses them visibly on the next GET.
 * Packs under `spec.packs` (and none under `spec.template.packs`) change nothing (spec 2.1 rule 1, 7).
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { describeIssues } from '../../palette/issues.js';
import { isVersionLabel, versionLabelRule } from '../../palette/version-label.js';
import type { LabManifest, LabPack, LabProfile, LabProfileContent } from './types.js';

const ManifestInput = z.looseObject({ name: z.string().min(1), content: z.string().optional(), uid: z.string().optional() });
const PackInput = z.looseObject({
  name: z.string().min(1),
  tag: z.string().min(1),
  uid: z.string().optional(),
  registryUid: z.string().optional(),
  layer: z.string().optional(),
  type: z.enum(['spectro', 'helm', 'manifest']).optional(),
  values: z.string().optional(),
  manifests: z.array(ManifestInput).nullish(),
});
const UpdateEntity = z.looseObject({
  metadata: z.looseObject({
    name: z.string().min(1),
    uid: z.string().optional(),
    annotations: z.record(z.string(), z.string()).nullish(),
    labels: z.record(z.string(), z.string()).nullish(),
  }),
  spec: z.looseObject({
    version: z.string(),
    template: z.looseObject({
      type: z.string().optional(),
      cloudType: z.string().optional(),
      packs: z.array(PackInput),
      packServerRefs: z.array(z.record(z.string(), z.unknown())).nullish(),
    }),
  }),
});
type PackInput = z.infer<typeof PackInput>;

/** What a PUT said about one pack's version. */
export interface SentPack {
  name: string;
  tag: string;
  uid?: string;
  registryUid?: string;
  type?: string;
}

/** Fields the double renders itself; anything else a PUT carries is kept as "unknown" and echoed back. */
const knownMetadata = new Set(['name', 'uid', 'annotations', 'labels']);
const knownSpec = new Set(['type', 'cloudType', 'version', 'template', 'packs', 'draft', 'published', 'versions']);

export type PutOutcome =
  | { kind: 'ignored'; reason: string }
  | { kind: 'invalid'; code: string; message: string }
  | {
      kind: 'draft';
      draft: LabProfileContent;
      /** Each pack as the body named it (its uid as sent, before the double fills one in). */
      sent: SentPack[];
      annotations?: Record<string, string>;
      labels?: Record<string, string>;
      packServerRefs?: Array<Record<string, unknown>>;
      extraMetadata: Record<string, unknown>;
      extraSpec: Record<string, unknown>;
    };

const newUid = (): string => randomBytes(12).toString('hex');
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const unknownFields = (obj: Record<string, unknown>, known: Set<string>) => Object.fromEntries(Object.entries(obj).filter(([k]) => !known.has(k)));

export function interpretPut(profile: LabProfile, rawBody: string): PutOutcome {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return { kind: 'invalid', code: 'BadRequest', message: 'The request body is not valid JSON' };
  }
  if (isObject(body) && isObject(body.spec) && body.spec.packs !== undefined && !(isObject(body.spec.template) && body.spec.template.packs !== undefined)) {
    return { kind: 'ignored', reason: 'packs under spec.packs' };
  }
  const parsed = UpdateEntity.safeParse(body);
  if (!parsed.success) return { kind: 'invalid', code: 'BadRequest', message: describeIssues(parsed.error.issues) };
  const { metadata, spec } = parsed.data;
  if (metadata.uid !== undefined && metadata.uid !== profile.uid) {
    return { kind: 'invalid', code: 'BadRequest', message: `metadata.uid: ${metadata.uid} does not match the profile ${profile.uid} in the path` };
  }
  if (!isVersionLabel(spec.version)) {
    return { kind: 'invalid', code: 'InvalidProfileVersion', message: `spec.version: "${spec.version}" is not a valid profile version (${versionLabelRule})` };
  }
  const names = spec.template.packs.map((p) => p.name);
  const duplicate = names.find((n, i) => names.indexOf(n) !== i);
  if (duplicate) return { kind: 'invalid', code: 'BadRequest', message: `spec.template.packs: pack ${duplicate} appears more than once` };

  const base = profile.draft ?? profile.published;
  const packs: LabPack[] = [];
  for (const [i, input] of spec.template.packs.entries()) {
    const pack = toPack(input, base?.packs.find((p) => p.name === input.name), i);
    if (typeof pack === 'string') return { kind: 'invalid', code: 'BadRequest', message: pack };
    packs.push(pack);
  }
  const sent = spec.template.packs.map((p): SentPack => ({
    name: p.name,
    tag: p.tag,
    ...(p.uid !== undefined ? { uid: p.uid } : {}),
    ...(p.registryUid !== undefined ? { registryUid: p.registryUid } : {}),
    ...(p.type !== undefined ? { type: p.type } : {}),
  }));
  const outcome: PutOutcome = {
    kind: 'draft',
    draft: { version: spec.version, packs },
    sent,
    extraMetadata: unknownFields(metadata, knownMetadata),
    extraSpec: unknownFields(spec, knownSpec),
  };
  if (metadata.annotations) outcome.annotations = metadata.annotations;
  if (metadata.labels) outcome.labels = metadata.labels;
  if (spec.template.packServerRefs) outcome.packServerRefs = spec.template.packServerRefs;
  return outcome;
}

/** A LabPack, or the message of a 400. Unset fields fall back to the same pack's current ones. */
function toPack(input: PackInput, existing: LabPack | undefined, index: number): LabPack | string {
  const manifests: LabManifest[] = [];
  for (const [j, m] of (input.manifests ?? []).entries()) {
    // An existing manifest (matched by uid, else by name) keeps its uid when updated in place.
    const old = existing?.manifests.find((x) => (m.uid ? x.uid === m.uid : x.name === m.name));
    const content = m.content ?? old?.content;
    if (content === undefined) return `spec.template.packs[${index}].manifests[${j}].content: expected string for a new manifest`;
    manifests.push({ uid: m.uid ?? old?.uid ?? newUid(), name: m.name, content });
  }
  const sameVersion = existing !== undefined && existing.tag === input.tag;
  return {
    name: input.name,
    tag: input.tag,
    // A pack's uid names one version of it in the registry: a new tag without a uid is a new pack version.
    uid: input.uid ?? (sameVersion ? existing.uid : newUid()),
    registryUid: input.registryUid ?? existing?.registryUid ?? '',
    layer: input.layer ?? existing?.layer ?? 'addon',
    type: input.type ?? existing?.type ?? 'spectro',
    values: input.values ?? '',
    manifests,
  };
}
