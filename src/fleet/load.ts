/**
 * Reading a fleet file: YAML with positions, the fleet schema, then every cluster's params (the
 * defaults with its own values on top) checked as a params file is. An error names the file, the
 * position, the cluster and the key; nothing is written before the whole file is good.
 */
import { createHash } from 'node:crypto';
import { dirname, isAbsolute, resolve } from 'node:path';
import { ParamsSchema, type Params } from '../engine/params.js';
import { positionOf, readYamlFile, validate } from '../engine/yaml-source.js';
import { LIMITS } from '../io/limits.js';
import { clusterParams } from './merge.js';
import { InputError } from '../errors.js';
import { FleetFileSchema, type FleetFile, type FromPalette } from './schema.js';

export interface FleetCluster {
  name: string;
  uid: string;
  /** The merged params with every path made absolute (what the cluster's params file holds). */
  raw: Record<string, unknown>;
  params: Params;
}

export interface LoadedFleet {
  file: string;
  /** Of the file's text: a plan is for one version of the file. */
  digest: string;
  spec: FleetFile;
  /** The file's clusters; with `fromPalette`, none until they are read (withPaletteClusters). */
  clusters: FleetCluster[];
  /** `clusters: { fromPalette: ... }`: where the clusters come from. */
  fromPalette?: FromPalette;
  /** The params Palette is reached with (the first cluster's; from Palette, the defaults'). */
  connection: Params;
  /** Where each stage is written (`stages[i]`'s line): a stage policy's decisions name it. */
  stageLines: ReadonlyMap<string, number>;
  /** The clusters' entries made into clusters, checked as the file's are. */
  build(entries: ReadonlyArray<Record<string, unknown> & { name: string; uid: string }>): FleetCluster[];
}

const hint = 'Fix the fleet file at the position shown: `defaults` and each cluster hold a params file\'s keys (see params.example.yaml).';

/** Paths in a params file are relative to it; in a fleet file, to the fleet file. The cluster's params file lives elsewhere, so they go in absolute. */
function absolutePaths(raw: Record<string, unknown>, base: string): Record<string, unknown> {
  const abs = (p: unknown) => (typeof p === 'string' && p !== '' && !isAbsolute(p) ? resolve(base, p) : p);
  const out = { ...raw };
  const cluster = out.cluster as Record<string, unknown>;
  if (cluster.kubeconfig !== undefined) out.cluster = { ...cluster, kubeconfig: abs(cluster.kubeconfig) };
  if (out.valuesDir !== undefined) out.valuesDir = abs(out.valuesDir);
  if (typeof out.variables === 'object' && out.variables !== null) {
    out.variables = Object.fromEntries(
      Object.entries(out.variables as Record<string, unknown>).map(([k, v]) => [k, typeof v === 'object' && v !== null && 'file' in v ? { ...v, file: abs((v as { file: unknown }).file) } : v]),
    );
  }
  return out;
}

export function loadFleet(file: string): LoadedFleet {
  const path = resolve(file);
  const src = readYamlFile(path, 'fleet file', LIMITS.paramsFile);
  const spec = validate(src, FleetFileSchema, 'fleet file', { hint });
  const base = dirname(path);
  const build = (entries: ReadonlyArray<Record<string, unknown> & { name: string; uid: string }>) =>
    entries.map((c, i): FleetCluster => {
      const raw = absolutePaths(clusterParams(spec.defaults, c, spec.target), base);
      const params = validate(src, ParamsSchema, `params of cluster ${c.name} (defaults with its own values on top)`, { value: raw, prefix: Array.isArray(spec.clusters) ? ['clusters', i] : ['defaults'], hint });
      return { name: c.name, uid: c.uid, raw, params };
    });
  const digest = createHash('sha256').update(src.doc.toString()).digest('hex').slice(0, 16);
  const stageLines = new Map(spec.stages.map((s, i) => [s.name, positionOf(src, ['stages', i]).line]));
  if (!Array.isArray(spec.clusters)) {
    const from = spec.clusters.fromPalette;
    // The defaults checked as a cluster's params would be: they reach Palette before any cluster is known.
    const [probe] = build([{ name: 'from-palette', uid: from.profile }]);
    return { file: path, digest, spec, clusters: [], fromPalette: from, connection: probe!.params, stageLines, build };
  }
  const clusters = build(spec.clusters);
  return { file: path, digest, spec, clusters, connection: clusters[0]!.params, stageLines, build };
}

/**
 * The fleet with the clusters Palette reported (fromPalette): each checked as a listed cluster is,
 * and every cluster a stage names must be among them.
 */
export function withPaletteClusters(f: LoadedFleet, entries: ReadonlyArray<Record<string, unknown> & { name: string; uid: string }>): LoadedFleet {
  const clusters = f.build(entries);
  const names = new Set(clusters.map((c) => c.name));
  const from = f.fromPalette!;
  const which = `the clusters that run profile ${from.profile}${from.tags ? ` tagged ${from.tags.join(' and ')}` : ''}`;
  if (clusters.length === 0) throw new InputError('fleet.no-clusters', `Palette reports none of ${which}.`, { hint: 'Check the profile uid (each version has its own: the one the clusters run) and the tags.' });
  for (const s of f.spec.stages) {
    const missing = (s.clusters ?? []).filter((n) => !names.has(n));
    if (missing.length) throw new InputError('fleet.stage-cluster', `Stage ${s.name} names ${missing.join(', ')}, not among ${which} (${[...names].join(', ')}).`, { hint: 'Name clusters Palette reports, or take them by tag: selector: { tags: [...] }.' });
  }
  return { ...f, clusters };
}
