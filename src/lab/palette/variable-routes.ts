/**
 * A real Palette's profile variables (palette dialect only), after palette-sdk-go's spec 4.8:
 * `GET/PUT/PATCH/DELETE /v1/clusterprofiles/{uid}/variables` (`v1Variables`, `v1VariableNames`),
 * `GET/PATCH /v1/spectroclusters/{uid}/variables` (`[v1SpectroClusterVariables]`,
 * `[v1SpectroClusterVariableUpdateEntity]`), and the values an apply
 * sets (`profiles[].variables` of `v1SpectroClusterProfileEntity`). Declarations live on the profile
 * version (a clone copies them, as on Palette); a PUT of pack values that reference a variable the
 * version does not declare is refused with `PackVariablesUndefined` (domain notes, "Palette for
 * fleets and profile variables"). Sensitive values never come back in clear on a GET.
 */
import { z } from 'zod';
import type { ApiContext, ApiResult } from './route-types.js';
import { parseBody, rejected } from './route-results.js';
import type { ProfileStore } from './store.js';
import type { LabPack, LabProfile, LabVariable } from './types.js';

type Handler = (ctx: ApiContext, params: string[], body: string, query: URLSearchParams) => ApiResult;

const fail = rejected;
const notFound = (ctx: ApiContext, uid: string) => fail(ctx, 404, 'ResourceNotFound', `Cluster profile '${uid}' not found`);

/** `v1Variable` (name required; the rest as the spec lists them). */
const Variable = z.looseObject({
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a variable name is letters, digits and _'),
  displayName: z.string().optional(),
  description: z.string().optional(),
  format: z.enum(['string', 'number', 'boolean', 'ipv4', 'ipv4cidr', 'ipv6', 'version', 'base64']).optional(),
  required: z.boolean().optional(),
  hidden: z.boolean().optional(),
  immutable: z.boolean().optional(),
  isSensitive: z.boolean().optional(),
  defaultValue: z.string().optional(),
  regex: z.string().optional(),
  inputType: z.string().optional(),
});
const Variables = z.looseObject({ variables: z.array(Variable) });
const VariableNames = z.looseObject({ variables: z.array(z.string().min(1)) });

const parse = parseBody;

const MASK = '********';

/** A declaration as GET answers it: a sensitive default is masked. */
const shown = (v: LabVariable): LabVariable => (v.isSensitive && v.defaultValue ? { ...v, defaultValue: MASK } : v);

function duplicates(list: readonly { name: string }[]): string[] {
  const seen = new Set<string>();
  return list.filter((v) => (seen.has(v.name) ? true : (seen.add(v.name), false))).map((v) => v.name);
}

function withProfile(fn: (ctx: ApiContext, profile: LabProfile, body: string) => ApiResult): Handler {
  return (ctx, params, body) => {
    const profile = ctx.store.get(params[0] ?? '');
    return profile ? fn(ctx, profile, body) : notFound(ctx, params[0] ?? '');
  };
}

const getVariables = withProfile((_ctx, profile) => ({ status: 200, body: { variables: (profile.variables ?? []).map(shown) }, effect: 'applied' }));

/** PUT: the version's whole list becomes the body's. */
const putVariables = withProfile((ctx, profile, body) => {
  const parsed = parse(ctx, body, Variables);
  if ('error' in parsed) return parsed.error;
  const twice = duplicates(parsed.data.variables);
  if (twice.length) return fail(ctx, 400, 'BadRequest', `variables: the names must be unique (${twice.join(', ')} given twice)`);
  profile.variables = parsed.data.variables.map((v) => ({ ...v }));
  return { status: 204, effect: 'applied', note: `variables of ${profile.name} ${(profile.draft ?? profile.published)?.version ?? ''}: ${profile.variables.map((v) => v.name).join(', ') || 'none'}` };
});

/** PATCH: the named variables are updated (or added); the others stay. */
const patchVariables = withProfile((ctx, profile, body) => {
  const parsed = parse(ctx, body, Variables);
  if ('error' in parsed) return parsed.error;
  const list = [...(profile.variables ?? [])];
  for (const v of parsed.data.variables) {
    const at = list.findIndex((x) => x.name === v.name);
    if (at >= 0) list[at] = { ...list[at], ...v };
    else list.push({ ...v });
  }
  profile.variables = list;
  return { status: 204, effect: 'applied', note: `variables of ${profile.name} updated: ${parsed.data.variables.map((v) => v.name).join(', ')}` };
});

const deleteVariables = withProfile((ctx, profile, body) => {
  const parsed = parse(ctx, body, VariableNames);
  if ('error' in parsed) return parsed.error;
  const gone = new Set(parsed.data.variables);
  profile.variables = (profile.variables ?? []).filter((v) => !gone.has(v.name));
  return { status: 204, effect: 'applied', note: `variables of ${profile.name} deleted: ${[...gone].join(', ')}` };
});

/**
 * Per cluster and attached profile version, the values an apply (or the cluster variables PATCH)
 * set: kept apart from the profiles (a clone does not copy them), and keyed by the version's uid
 * (`v1SpectroClusterVariables.profileUid`). An apply that moves the cluster to another version does
 * not copy them: the new version has only what that apply sends (no source says Palette copies them;
 * the terraform provider sends them with every apply of a new version).
 */
const clusterValues = new WeakMap<ProfileStore, Map<string, Map<string, Map<string, string>>>>();

function valuesOf(store: ProfileStore, clusterUid: string): Map<string, Map<string, string>> {
  let byCluster = clusterValues.get(store);
  if (!byCluster) clusterValues.set(store, (byCluster = new Map()));
  let byProfile = byCluster.get(clusterUid);
  if (!byProfile) byCluster.set(clusterUid, (byProfile = new Map()));
  return byProfile;
}

/** `GET /v1/spectroclusters/{uid}/variables`: per attached version, its declarations with this cluster's values (sensitive ones masked). */
const getClusterVariables: Handler = (ctx, params) => {
  const uid = params[0] ?? '';
  if (!ctx.hooks.clusterProfiles(uid)) return fail(ctx, 404, 'ResourceNotFound', `Cluster '${uid}' not found`);
  const values = valuesOf(ctx.store, uid);
  const attached = ctx.hooks.cluster?.view(uid)?.templates.map((t) => t.uid) ?? [...values.keys()];
  const body = attached.flatMap((profileUid) => {
    const profile = ctx.store.get(profileUid);
    if (!profile?.variables?.length) return [];
    const set = values.get(profileUid) ?? new Map<string, string>();
    return [{ profileUid, variables: profile.variables.map((v) => ({ ...shown(v), ...(set.has(v.name) ? { value: v.isSensitive ? MASK : set.get(v.name) } : {}) })) }];
  });
  return { status: 200, body, effect: 'applied' };
};

const ClusterVariablesPatch = z.array(z.looseObject({ profileUid: z.string().min(1), variables: z.array(z.looseObject({ name: z.string().min(1), value: z.string().optional() })).nullish() }));

/** `PATCH /v1/spectroclusters/{uid}/variables` with `[v1SpectroClusterVariableUpdateEntity]`: values of attached versions' declared variables. */
const patchClusterVariables: Handler = (ctx, params, body) => {
  const uid = params[0] ?? '';
  if (!ctx.hooks.clusterProfiles(uid)) return fail(ctx, 404, 'ResourceNotFound', `Cluster '${uid}' not found`);
  const parsed = parse(ctx, body, ClusterVariablesPatch);
  if ('error' in parsed) return parsed.error;
  const attached = new Set(ctx.hooks.cluster?.view(uid)?.templates.map((t) => t.uid) ?? []);
  for (const entry of parsed.data) {
    if (!attached.has(entry.profileUid)) return fail(ctx, 400, 'BadRequest', `Cluster profile '${entry.profileUid}' is not attached to cluster '${uid}'`);
    const declared = new Set((ctx.store.get(entry.profileUid)?.variables ?? []).map((v) => v.name));
    const unknown = (entry.variables ?? []).map((v) => v.name).filter((n) => !declared.has(n));
    if (unknown.length) return fail(ctx, 400, 'BadRequest', `Cluster profile '${entry.profileUid}' does not define the variable(s) ${unknown.join(', ')}`);
  }
  for (const entry of parsed.data) setClusterVariables(ctx.store, uid, entry.profileUid, Object.fromEntries((entry.variables ?? []).flatMap((v) => (v.value !== undefined ? [[v.name, v.value]] : []))));
  return { status: 204, effect: 'applied', note: `cluster variables of ${uid}: ${parsed.data.flatMap((e) => (e.variables ?? []).map((v) => v.name)).join(', ') || 'none'}` };
};

/** Sets a cluster's values of a version's variables (the lab assembly seeds them; the PATCH and the apply set them). */
export function setClusterVariables(store: ProfileStore, clusterUid: string, profileUid: string, values: Record<string, string>): void {
  const byProfile = valuesOf(store, clusterUid);
  const set = byProfile.get(profileUid) ?? new Map<string, string>();
  for (const [name, value] of Object.entries(values)) set.set(name, value);
  byProfile.set(profileUid, set);
}

const segment = '([^/]+)';

/** The routes, for `apiRoutes` to add in the palette dialect. */
export function variableRoutes(): Array<{ method: string; pattern: RegExp; handler: Handler }> {
  const path = new RegExp(`^/v1/clusterprofiles/${segment}/variables$`);
  return [
    { method: 'GET', pattern: path, handler: getVariables },
    { method: 'PUT', pattern: path, handler: putVariables },
    { method: 'PATCH', pattern: path, handler: patchVariables },
    { method: 'DELETE', pattern: path, handler: deleteVariables },
    { method: 'GET', pattern: new RegExp(`^/v1/spectroclusters/${segment}/variables$`), handler: getClusterVariables },
    { method: 'PATCH', pattern: new RegExp(`^/v1/spectroclusters/${segment}/variables$`), handler: patchClusterVariables },
  ];
}

const reference = /\{\{\s*\.spectro\.var\.([A-Za-z_][A-Za-z0-9_]*)\s*(?:\|[^}]*)?\}\}/g;

/** The variables a draft's pack values reference that the version does not declare (the PUT is then refused). */
export function undefinedVariables(profile: LabProfile, packs: readonly LabPack[]): string[] {
  const declared = new Set((profile.variables ?? []).map((v) => v.name));
  const used = new Set(packs.flatMap((p) => [...p.values.matchAll(reference)].map((m) => m[1]!)));
  return [...used].filter((n) => !declared.has(n)).sort();
}

/** The `PackVariablesUndefined` answer to a PUT that references undeclared variables, or undefined. */
export function refuseUndefinedVariables(ctx: ApiContext, profile: LabProfile, packs: readonly LabPack[]): ApiResult | undefined {
  if (ctx.dialect !== 'palette') return undefined;
  const missing = undefinedVariables(profile, packs);
  if (missing.length === 0) return undefined;
  return fail(ctx, 400, 'PackVariablesUndefined', `Pack values reference variables the cluster profile '${profile.name}' does not define: ${missing.join(', ')}`);
}

const ApplyVariables = z.array(z.looseObject({ uid: z.string(), variables: z.array(z.looseObject({ name: z.string().min(1), value: z.string().optional() })).nullish() }));

/** The values an apply sets for a cluster (`profiles[].variables`); the apply itself is the world's. */
export function recordApplyVariables(ctx: ApiContext, clusterUid: string, profiles: unknown): void {
  const parsed = ApplyVariables.safeParse(profiles);
  if (!parsed.success) return;
  for (const p of parsed.data) {
    if (!p.variables?.length) continue;
    setClusterVariables(ctx.store, clusterUid, p.uid, Object.fromEntries(p.variables.flatMap((v) => (v.value !== undefined ? [[v.name, v.value]] : []))));
  }
}

/** For tests and the lab's own checks: the values set for a cluster, by profile uid and name (in clear). */
export function labClusterVariables(store: ProfileStore, clusterUid: string): Record<string, Record<string, string>> {
  return Object.fromEntries([...valuesOf(store, clusterUid)].map(([uid, set]) => [uid, Object.fromEntries(set)]));
}
