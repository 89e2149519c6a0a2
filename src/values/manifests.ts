/**
 * A pack's manifests (extra Kubernetes objects attached to the pack, e.g. the `issuer-selfsigned`
 * issuer added to the monitoring pack) compared by name, with the same labels as the values diff:
 * a manifest the site added or edited is carried into the new pack version.
 */
import { InputError } from '../errors.js';
import { emptyCounts, type DiffLabel, type DiffMode } from './diff.js';
import { sameManifestContent } from '../io/yaml-same-content.js';

export interface Manifest {
  name: string;
  content: string;
  /** Palette's uid of an existing manifest; kept so the manifest is updated in place. */
  uid?: string;
}

export type ManifestLabel = Exclude<DiffLabel, 'ignored'>;

export interface ManifestDiffEntry {
  name: string;
  label: ManifestLabel;
  deployed?: Manifest;
  oldDefault?: Manifest;
  newDefault?: Manifest;
  note: string;
}

export interface ManifestDiff {
  mode: DiffMode;
  entries: ManifestDiffEntry[];
  counts: Record<DiffLabel, number>;
}

function byName(list: readonly Manifest[], what: string): Map<string, Manifest> {
  const out = new Map<string, Manifest>();
  for (const m of list) {
    if (out.has(m.name)) throw new InputError('values.manifest-duplicate', `The ${what} list the manifest \`${m.name}\` twice.`, { hint: 'Give each manifest of a pack a unique name.' });
    out.set(m.name, m);
  }
  return out;
}

function same(a: Manifest | undefined, b: Manifest | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return sameManifestContent(a.content, b.content);
}

/**
 * Deployed manifests against the new version's (and, for a 3-way comparison, the old version's).
 * Order: deployed order, then manifests only the defaults have.
 */
export function diffManifests(deployed: readonly Manifest[], defaults: readonly Manifest[], oldDefaults?: readonly Manifest[]): ManifestDiff {
  const d = byName(deployed, 'deployed manifests');
  const n = byName(defaults, 'new default manifests');
  const o = oldDefaults ? byName(oldDefaults, 'old default manifests') : undefined;
  const names = new Set([...d.keys(), ...n.keys(), ...(o ? o.keys() : [])]);
  const entries: ManifestDiffEntry[] = [];
  for (const name of names) {
    const dm = d.get(name);
    const nm = n.get(name);
    const om = o?.get(name);
    if (same(dm, nm)) continue;
    let label: ManifestLabel = 'candidate';
    if (o) label = same(om, nm) ? 'carried' : same(dm, om) ? 'newDefault' : 'conflict';
    const entry: ManifestDiffEntry = { name, label, note: noteFor(dm, om, nm, o !== undefined) };
    if (dm) entry.deployed = dm;
    if (o && om) entry.oldDefault = om;
    if (nm) entry.newDefault = nm;
    entries.push(entry);
  }
  const counts = emptyCounts();
  for (const e of entries) counts[e.label] += 1;
  return { mode: o ? 'threeWay' : 'twoWay', entries, counts };
}

function noteFor(d: Manifest | undefined, o: Manifest | undefined, n: Manifest | undefined, threeWay: boolean): string {
  if (d && !n) return threeWay && o ? 'removed in the new version' : 'added by the site';
  if (!d && n) return threeWay && o ? 'removed by the site' : 'new in this version';
  return threeWay && o === undefined ? 'added by both the site and the new version, with different content' : 'content differs';
}

export type ManifestDecision = 'keepSite' | 'takeNew';

/** A manifest to write into the new pack (the site's, with its uid), or one to leave out. */
export type ManifestCarry = { name: string; manifest: Manifest; remove?: undefined } | { name: string; remove: true; manifest?: undefined };

/**
 * The manifests to carry: site-added and site-edited ones unless declined, never by default a
 * manifest only the new version has (it is new, not removed by the site). Conflicts need a decision.
 */
export function decideManifests(diff: ManifestDiff, decisions: Readonly<Record<string, ManifestDecision>> = {}): ManifestCarry[] {
  const open = diff.entries.filter((e) => e.label === 'conflict' && !Object.hasOwn(decisions, e.name));
  if (open.length > 0) {
    throw new InputError('values.conflicts-undecided', `${open.length} manifest(s) changed by both the site and the new version need a decision: ${open.map((e) => e.name).join(', ')}.`, {
      hint: 'For each, keep the site manifest or take the new default.',
    });
  }
  const out: ManifestCarry[] = [];
  for (const e of diff.entries) {
    const fallback: ManifestDecision = e.label === 'carried' || (e.label === 'candidate' && e.deployed !== undefined) ? 'keepSite' : 'takeNew';
    const decision = decisions[e.name] ?? fallback;
    if (decision === 'takeNew') continue;
    out.push(e.deployed ? { name: e.name, manifest: e.deployed } : { name: e.name, remove: true });
  }
  return out;
}

/**
 * The new version's manifests with the carried ones written in: same name replaced, others appended.
 * Uids are kept as given (a carried manifest keeps the site's uid, so Palette updates it in place).
 */
export function mergeManifests(defaults: readonly Manifest[], carry: readonly ManifestCarry[]): Manifest[] {
  const out = defaults.map((m) => ({ ...m }));
  for (const c of carry) {
    const at = out.findIndex((m) => m.name === c.name);
    if (c.remove) {
      if (at >= 0) out.splice(at, 1);
      continue;
    }
    const next: Manifest = { ...c.manifest, name: c.name };
    if (at >= 0) out[at] = next;
    else out.push(next);
  }
  return out;
}
