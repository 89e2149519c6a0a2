/**
 * Values that differ per cluster, and how each reaches its cluster. A profile shared by several
 * clusters gets one new version per hop, published once for all of them, so a value that goes into
 * that version and differs between them cannot be carried by the version itself: it reaches each
 * cluster as a Palette profile variable (the shared version's pack values reference
 * `{{.spectro.var.NAME}}`, declared on it, and each cluster sets its own value), or the clusters need
 * profiles of their own. A value no profile holds (the cluster's access, its verification targets,
 * its notifications) is read by each cluster's own session only.
 *
 * Pure: the I/O that finds which rule settings a shared profile binds to a variable is in
 * variable-bindings.ts.
 */
import type { ProfileRole } from '../engine/params.js';

/** A customization rule whose value is a params key (`value: ${params.site.ingressIP}`). */
export interface ParamRule {
  id: string;
  role: ProfileRole;
  /** The params key, dotted: `site.ingressIP`. */
  key: string;
}

export interface ClusterValues {
  name: string;
  /** The cluster's merged params (defaults with its own values on top). */
  raw: Record<string, unknown>;
}

/** Profile uid → rule id → the variable the profile's setting for that rule references. */
export type VariableBindings = ReadonlyMap<string, ReadonlyMap<string, string>>;

export type Reach =
  /** The shared profile carries it as a variable: each cluster's value is its own. */
  | { how: 'variable'; role: ProfileRole; profile: string; variable: string; clusters: string[] }
  /** The shared version cannot carry it: these clusters need a cluster-specific profile. */
  | { how: 'cluster-profile'; role: ProfileRole; profile: string; clusters: string[]; why: string; rule?: string }
  /** Which profile the clusters run differs: each profile gets its own new version per hop. */
  | { how: 'own-profiles'; role: ProfileRole; profiles: Array<{ uid: string; clusters: string[] }> }
  /** A profile holds it, but the clusters whose values differ share none: each one's own version carries it. */
  | { how: 'own-versions' }
  /** No profile holds it: each cluster's session reads its own. */
  | { how: 'session' };

export interface PerClusterValue {
  /** The params key, dotted (`site.ingressIP`, `site.storageClassParameters.repl`). */
  key: string;
  /** Each cluster's value (undefined: it has none). */
  values: Array<{ cluster: string; value: unknown }>;
  reach: Reach[];
}

/**
 * Keys that shape the new version itself (which packs, which versions, which defaults): one shared
 * version cannot follow two answers, so clusters that differ need their own profiles.
 */
const SHAPING = ['packs', 'hops', 'moveWith', 'references', 'valuesDir', 'palette.flavor', 'palette.versioning', 'palette.registryUid'];
/** Credentials (a webhook URL's path is its secret): said to differ, never shown. */
const SECRET = ['notify.webhooks', 'notify.command'];
/** Each cluster's identity and access: always its own, never a question. */
const IDENTITY = ['cluster', 'target'];

/** Compared whole: a pack's version map or a reference list is one answer, not many keys (`4.6.3` is a key, not a path). */
const WHOLE = ['profiles.addon', 'profiles.infra', 'moveWith', 'references', 'hops', 'variables', 'extra'];

const under = (key: string, prefix: string) => key === prefix || key.startsWith(`${prefix}.`);
const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Leaf keys of a params document: objects are walked, lists and scalars are leaves (a list is replaced whole by a cluster's own). */
function leaves(doc: Record<string, unknown>, prefix = '', out = new Map<string, unknown>()): Map<string, unknown> {
  for (const [k, v] of Object.entries(doc)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (isPlainObject(v) && Object.keys(v).length > 0 && !WHOLE.includes(key)) leaves(v, key, out);
    else out.set(key, v);
  }
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const allSame = (values: readonly unknown[]) => values.every((v) => same(v, values[0]));

const profileOf = (c: ClusterValues, role: ProfileRole): string | undefined => {
  const profiles = c.raw.profiles;
  const ref = isPlainObject(profiles) ? profiles[role] : undefined;
  return isPlainObject(ref) && typeof ref.uid === 'string' ? ref.uid : undefined;
};

/** Clusters grouped by the profile of `role` they run, only groups of two or more (a shared profile). */
function sharedGroups(clusters: readonly ClusterValues[], role: ProfileRole): Map<string, ClusterValues[]> {
  const groups = new Map<string, ClusterValues[]>();
  for (const c of clusters) {
    const uid = profileOf(c, role);
    if (uid !== undefined) groups.set(uid, [...(groups.get(uid) ?? []), c]);
  }
  return new Map([...groups].filter(([, g]) => g.length > 1));
}

/**
 * Every params key whose value is not the same on all clusters (identity left out), and how it
 * reaches each shared profile's clusters. Keys in the order the clusters' params first name them.
 */
export function perClusterValues(clusters: readonly ClusterValues[], rules: readonly ParamRule[], bindings: VariableBindings): PerClusterValue[] {
  const flat = clusters.map((c) => ({ name: c.name, leaves: leaves(c.raw) }));
  const keys = [...new Set(flat.flatMap((c) => [...c.leaves.keys()]))].filter((k) => !IDENTITY.some((p) => under(k, p)));
  const out: PerClusterValue[] = [];
  for (const key of keys) {
    const valueOf = (name: string) => flat.find((c) => c.name === name)!.leaves.get(key);
    if (allSame(flat.map((c) => c.leaves.get(key)))) continue;
    const secret = SECRET.some((p) => under(key, p));
    const values = flat.map((c) => ({ cluster: c.name, value: secret ? '<not shown: a credential>' : c.leaves.get(key) }));
    const differing = (group: readonly ClusterValues[]) => !allSame(group.map((c) => valueOf(c.name)));
    const reach: Reach[] = [];
    const ownRole = (['addon', 'infra'] as const).find((r) => key === `profiles.${r}`);
    if (ownRole) {
      const byUid = new Map<string, string[]>();
      for (const c of clusters) {
        const uid = profileOf(c, ownRole) ?? '(none)';
        byUid.set(uid, [...(byUid.get(uid) ?? []), c.name]);
      }
      if (byUid.size > 1) reach.push({ how: 'own-profiles', role: ownRole, profiles: [...byUid].map(([uid, names]) => ({ uid, clusters: names })) });
      for (const [profile, group] of sharedGroups(clusters, ownRole)) {
        if (differing(group)) reach.push({ how: 'cluster-profile', role: ownRole, profile, clusters: group.map((c) => c.name), why: 'they name the shared profile differently' });
      }
      out.push({ key, values, reach });
      continue;
    }
    const shaping = SHAPING.find((p) => under(key, p));
    const keyRules = rules.filter((r) => under(key, r.key));
    for (const role of ['infra', 'addon'] as const) {
      for (const [profile, group] of sharedGroups(clusters, role)) {
        if (!differing(group)) continue;
        const names = group.map((c) => c.name);
        if (shaping) {
          // A profile uid that differs makes no shared group here; only its name could differ.
          reach.push({ how: 'cluster-profile', role, profile, clusters: names, why: `${shaping} decides what the shared version holds, and it is published once for all of its clusters` });
          continue;
        }
        for (const rule of keyRules.filter((r) => r.role === role)) {
          const variable = bindings.get(profile)?.get(rule.id);
          reach.push(
            variable
              ? { how: 'variable', role, profile, variable, clusters: names }
              : { how: 'cluster-profile', role, profile, clusters: names, rule: rule.id, why: `rule ${rule.id} writes it into the ${role} profile's values, and the shared version declares no variable for that setting` },
          );
        }
      }
    }
    if (reach.length === 0) reach.push(shaping || keyRules.length > 0 ? { how: 'own-versions' } : { how: 'session' });
    out.push({ key, values, reach });
  }
  return out;
}

const shown = (v: unknown) => (v === undefined ? '(none)' : typeof v === 'string' ? v : JSON.stringify(v));

/** The plan's lines for the values that differ: one per key, then how it reaches each shared profile's clusters. */
export function perClusterLines(values: readonly PerClusterValue[], opts: { unread?: ReadonlySet<string>; names?: ReadonlyMap<string, string> } = {}): string[] {
  const named = (uid: string) => (opts.names?.get(uid) ? `${opts.names.get(uid)} (${uid})` : uid);
  const lines = ['  customization rules are checked per cluster: each cluster\'s own session checks them against its own values.'];
  if (values.length === 0) return [...lines, '  values that differ per cluster: none (every cluster runs the same params)'];
  lines.push('  values that differ per cluster:');
  for (const v of values) {
    lines.push(`    ${v.key}: ${v.values.map((x) => `${x.cluster} ${shown(x.value)}`).join(', ')}`);
    for (const r of v.reach) {
      if (r.how === 'own-profiles') lines.push(`      the clusters run different ${r.role} profiles (${r.profiles.map((p) => `${named(p.uid)}: ${p.clusters.join(', ')}`).join('; ')}): each gets its own new version per hop`);
      else if (r.how === 'own-versions') lines.push('      the clusters that differ share no profile: each one\'s own profile version carries its value');
      else if (r.how === 'session') lines.push('      no profile holds it: each cluster\'s own session uses its value');
      else if (r.how === 'variable') lines.push(`      a Palette profile variable: the shared ${r.role} profile ${named(r.profile)} declares ${r.variable} for it; each cluster's own value (${r.clusters.join(', ')}) is the cluster's value of ${r.variable} in Palette`);
      else if (r.rule && opts.unread?.has(r.profile)) lines.push(`      a Palette profile variable if the shared ${r.role} profile ${named(r.profile)} declares one for that setting (rule ${r.rule}), else a cluster-specific ${r.role} profile for ${r.clusters.join(', ')}: not read from Palette (no API key)`);
      else lines.push(`      needs a cluster-specific ${r.role} profile for ${r.clusters.join(', ')} (they share ${named(r.profile)}): ${r.why}`);
    }
  }
  return lines;
}

/** The shared profiles whose variables could change the answer: a rule-written key differs among their clusters. */
export function profilesToRead(values: readonly PerClusterValue[]): Array<{ uid: string; role: ProfileRole }> {
  const out = new Map<string, ProfileRole>();
  for (const v of values) for (const r of v.reach) if (r.how === 'cluster-profile' && r.rule) out.set(r.profile, r.role);
  return [...out].map(([uid, role]) => ({ uid, role }));
}
