/**
 * Where each cluster of a fleet starts and the hops it climbs, for `fleet plan`. Clusters that start
 * at different versions get their own ladders, one minor at a time each (the single-cluster ladder,
 * `buildLadder`, with the runbook's stepping stones). A profile version several clusters run is
 * shared: Palette keeps each version as its own object, so each hop's new version of it is made once
 * (clone, draft, publish) by the first of those clusters to need it, and every other one only applies
 * it (domain notes, "Palette for fleets and profile variables"). Clusters on different versions of
 * a profile share nothing: each version gets its own new versions.
 *
 * Pure: the reads are in ladder-reads.ts.
 */
import { buildLadder, type SteppingStone } from '../domain/ladder/ladder.js';

export interface ClusterStart {
  name: string;
  /** Its stage in the plan ('' when no stage takes it yet: a selector decides when the plan is frozen). */
  stage: string;
  /** The orchestration pack's tag the cluster runs; undefined when it was not read (`error`). */
  vmo?: string;
  /** The profile versions attached to the cluster. */
  profiles: Array<{ name: string; uid?: string; version: string }>;
  error?: string;
}

export interface LadderGroup {
  from: string;
  /** The versions climbed, one minor each ([] when already at the target). */
  hops: string[];
  clusters: string[];
  /** Why this start has no ladder (a minor the versions do not have, another major, ...). */
  refused?: string;
}

export interface SharedVersion {
  name: string;
  uid: string;
  version: string;
  clusters: string[];
  /** The first of them in the plan's order: it makes each hop's new version. */
  first: { cluster: string; stage: string };
  /** New versions of it the fleet makes: one per hop of its clusters' ladder. */
  hops: number;
}

export interface FleetLadders {
  groups: LadderGroup[];
  shared: SharedVersion[];
  /** Clusters whose start could not be read, with why. */
  unread: Array<{ name: string; error: string }>;
}

export interface AvailableForLadder {
  versions: string[];
  /** The versions were listed by hand (params `hops`): each one is a hop, no minor is skipped over. */
  explicit: boolean;
}

/** Each start's ladder (grouped by where the clusters start, in the plan's order) and the profile versions shared. */
export function fleetLadders(starts: readonly ClusterStart[], target: string, available: AvailableForLadder, stones: readonly SteppingStone[] = []): FleetLadders {
  const groups = new Map<string, LadderGroup>();
  const unread: FleetLadders['unread'] = [];
  for (const s of starts) {
    if (s.vmo === undefined) {
      unread.push({ name: s.name, error: s.error ?? 'not read' });
      continue;
    }
    const known = groups.get(s.vmo);
    if (known) {
      known.clusters.push(s.name);
      continue;
    }
    const ladder = buildLadder(s.vmo, target, available.versions, available.explicit, stones);
    groups.set(s.vmo, ladder.ok ? { from: s.vmo, hops: ladder.hops.map((h) => h.to), clusters: [s.name] } : { from: s.vmo, hops: [], clusters: [s.name], refused: ladder.reason });
  }
  const hopsFrom = (vmo: string | undefined) => (vmo === undefined ? 0 : (groups.get(vmo)?.hops.length ?? 0));
  const byUid = new Map<string, { name: string; version: string; starts: ClusterStart[] }>();
  for (const s of starts) {
    if (s.vmo === undefined) continue;
    for (const p of s.profiles) {
      if (!p.uid) continue;
      const entry = byUid.get(p.uid) ?? { name: p.name, version: p.version, starts: [] };
      entry.starts.push(s);
      byUid.set(p.uid, entry);
    }
  }
  const shared: SharedVersion[] = [];
  for (const [uid, e] of byUid) {
    const climbing = e.starts.filter((s) => hopsFrom(s.vmo) > 0);
    if (e.starts.length < 2 || climbing.length === 0) continue;
    const first = climbing[0]!;
    shared.push({ name: e.name, uid, version: e.version, clusters: e.starts.map((s) => s.name), first: { cluster: first.name, stage: first.stage }, hops: Math.max(...climbing.map((s) => hopsFrom(s.vmo))) });
  }
  return { groups: [...groups.values()], shared, unread };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The plan's lines for where the clusters start, their ladders and the profile versions they share. */
export function ladderLines(l: FleetLadders, target: string, source: string): string[] {
  const lines = [`  where each cluster starts (read from Palette now; versions from ${source}):`];
  for (const g of l.groups) {
    const who = g.clusters.join(', ');
    if (g.refused) lines.push(`    ${g.from}: NO LADDER to ${target}: ${g.refused}: ${who}`);
    else if (g.hops.length === 0) lines.push(`    ${g.from}: already at ${target} (nothing to publish): ${who}`);
    else lines.push(`    ${[g.from, ...g.hops].join(' → ')} (${g.hops.length === 1 ? '1 hop' : `${g.hops.length} hops, one minor each`}): ${who}`);
  }
  for (const u of l.unread) lines.push(`    ${u.name}: not read: ${u.error}`);
  if (l.groups.length > 1) lines.push('    clusters that start at different versions climb their own ladders; each cluster\'s own session plans its hops again when it starts.');
  if (l.shared.length === 0) return lines;
  lines.push('  shared profile versions: each hop\'s new version is made once (clone, draft, publish) by the first cluster that needs it; the others only apply it:');
  for (const s of l.shared) {
    lines.push(`    ${s.name} ${s.version} (${s.uid}), run by ${plural(s.clusters.length, 'cluster')}: ${plural(s.hops, 'new version')}, made by ${s.first.cluster}${s.first.stage ? ` (stage ${s.first.stage})` : ''}`);
  }
  return lines;
}
