/**
 * Which customization settings a shared profile carries as Palette profile variables. A rule whose
 * value is a params key (`value: ${params.site.ingressIP}`) writes that key into a pack's values at
 * the rule's path; when the shared profile holds `'{{.spectro.var.NAME}}'` there and declares NAME
 * (`GET /v1/clusterprofiles/{uid}/variables`, palette-sdk-go spec 4.8; domain notes "Palette for
 * fleets and profile variables"), each cluster's value reaches it as that variable's value.
 */
import { parse } from 'yaml';
import type { ProfileRole } from '../engine/params.js';
import type { PaletteApi } from '../palette/api.js';
import { variablesApi } from '../palette/variables.js';
import { parsePath, isPattern, type PathSegment } from '../values/path.js';
import { variableReference } from '../values/rule-variables.js';
import { perClusterValues, profilesToRead, type ClusterValues, type ParamRule, type PerClusterValue, type VariableBindings } from './per-cluster.js';

/** A rule that takes a params key, and where each pack keeps its setting. */
export interface ParamRuleSettings extends ParamRule {
  /** Pack name → path in its values (concrete paths only). */
  paths: Record<string, string>;
}

const paramRef = /^\$\{params\.([A-Za-z0-9_.]+)\}$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The runbook's rules whose value is a params key, read from the runbook's text (before params are put in). */
export function paramRules(runbookText: string): ParamRuleSettings[] {
  const doc: unknown = parse(runbookText);
  const rules = isObject(doc) && Array.isArray(doc.rules) ? doc.rules : [];
  const out: ParamRuleSettings[] = [];
  for (const r of rules) {
    if (!isObject(r) || typeof r.id !== 'string' || (r.profile !== 'infra' && r.profile !== 'addon')) continue;
    const m = typeof r.value === 'string' ? paramRef.exec(r.value) : null;
    if (!m) continue;
    const paths: Record<string, string> = {};
    if (isObject(r.packs)) {
      for (const [pack, s] of Object.entries(r.packs)) if (isObject(s) && typeof s.path === 'string') paths[pack] = s.path;
    } else if (typeof r.pack === 'string' && typeof r.path === 'string' && !r.pack.includes('${')) paths[r.pack] = r.path;
    out.push({ id: r.id, role: r.profile as ProfileRole, key: m[1]!, paths });
  }
  return out;
}

function at(value: unknown, segs: readonly PathSegment[]): unknown {
  let cur = value;
  for (const s of segs) {
    if (s.kind === 'key') cur = isObject(cur) ? cur[s.key] : undefined;
    else if (s.kind === 'index') cur = Array.isArray(cur) ? cur[s.index] : undefined;
    else if (s.kind === 'item') cur = Array.isArray(cur) ? cur.find((x) => isObject(x) && x[s.field] === s.value) : undefined;
    else return undefined;
  }
  return cur;
}

/** The variable a pack's values reference at `path`, if the whole value there is one reference. */
export function variableAt(values: string, path: string): string | undefined {
  let parsed: ReturnType<typeof parsePath>;
  let docs: unknown[];
  try {
    parsed = parsePath(path);
    docs = values.trim() === '' ? [] : [parse(values) as unknown];
  } catch {
    return undefined; // values that do not parse hold no reference this can see
  }
  if (isPattern(parsed) || (parsed.doc ?? 0) !== 0) return undefined;
  const v = at(docs[0], parsed.segments);
  return variableReference(v);
}

/** Rule id → variable, for one profile: its packs' values and the variables it declares. */
export function bindingsOf(packs: ReadonlyArray<{ name: string; values: string }>, declared: readonly string[], rules: readonly ParamRuleSettings[], role: ProfileRole): Map<string, string> {
  const out = new Map<string, string>();
  for (const rule of rules.filter((r) => r.role === role)) {
    for (const pack of packs) {
      const path = rule.paths[pack.name];
      const name = path === undefined ? undefined : variableAt(pack.values, path);
      if (name && declared.includes(name)) out.set(rule.id, name);
    }
  }
  return out;
}

/** Reads each shared profile (its packs' values and its declared variables) and finds its bindings. */
export async function readBindings(palette: PaletteApi, profiles: ReadonlyArray<{ uid: string; role: ProfileRole }>, rules: readonly ParamRuleSettings[], signal?: AbortSignal): Promise<VariableBindings> {
  const api = variablesApi(palette);
  const out = new Map<string, Map<string, string>>();
  for (const p of profiles) {
    const doc = await palette.getProfile(p.uid, signal ? { signal } : {});
    // The spec's profile API has no variables; a client without the reads finds none.
    const declared = api ? (await api.list(p.uid, signal)).map((v) => v.name) : [];
    out.set(p.uid, bindingsOf(doc.packs, declared, rules, p.role));
  }
  return out;
}

/**
 * The fleet's values that differ per cluster, with the shared profiles' variables read from Palette
 * when they could change the answer and a client is given (`read`: whether they were read).
 */
export async function fleetPerCluster(
  clusters: readonly ClusterValues[],
  runbookText: string,
  palette: PaletteApi | undefined,
  signal?: AbortSignal,
): Promise<{ values: PerClusterValue[]; read: boolean; unread: Array<{ uid: string; role: ProfileRole }> }> {
  const rules = paramRules(runbookText);
  const first = perClusterValues(clusters, rules, new Map());
  const wanted = profilesToRead(first);
  if (wanted.length === 0) return { values: first, read: false, unread: [] };
  if (!palette) return { values: first, read: false, unread: wanted };
  return { values: perClusterValues(clusters, rules, await readBindings(palette, wanted, rules, signal)), read: true, unread: [] };
}
