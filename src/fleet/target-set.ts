/**
 * The target set, decided once when the plan is frozen: every cluster of the fleet file is read from
 * Palette. A cluster a cluster template manages (`spec.clusterTemplate.uid`) changes its profiles only
 * through the template's maintenance policy, so it is named in the plan and left out, never fought;
 * a cluster Palette no longer has is left out and reported. Neither counts as a failure. The reads
 * also give each cluster's Palette tags, which place the clusters of stages chosen by `selector`.
 */
import type { PaletteApi } from '../palette/api.js';
import { PaletteApiError } from '../palette/errors.js';
import type { FleetStageSpec } from './schema.js';
import type { LeftOut } from './types.js';

export interface TargetReads {
  leftOut: LeftOut[];
  /** Cluster name → its Palette tags (`key=value`, or `key` alone). */
  tags: Map<string, string[]>;
}

export async function readTargets(palette: PaletteApi, clusters: ReadonlyArray<{ name: string; uid: string }>, signal?: AbortSignal): Promise<TargetReads> {
  const leftOut: LeftOut[] = [];
  const tags = new Map<string, string[]>();
  for (const c of clusters) {
    try {
      const doc = await palette.getCluster(c.uid, signal ? { signal } : {});
      tags.set(c.name, doc.tags);
      if (doc.templateUid) leftOut.push({ name: c.name, uid: c.uid, reason: `a cluster template (uid ${doc.templateUid}) manages it: its profiles change only through the template's maintenance policy` });
    } catch (err) {
      if (err instanceof PaletteApiError && err.status === 404) leftOut.push({ name: c.name, uid: c.uid, reason: 'Palette has no such cluster (gone before the plan was made)' });
      else throw err;
    }
  }
  return { leftOut, tags };
}

/** The clusters left out of the plan (see readTargets). */
export async function leftOutClusters(palette: PaletteApi, clusters: ReadonlyArray<{ name: string; uid: string }>, signal?: AbortSignal): Promise<LeftOut[]> {
  return (await readTargets(palette, clusters, signal)).leftOut;
}

/** Whether Palette still has the cluster: only a 404 says no (any other answer is the session's to meet). */
export async function clusterExists(palette: PaletteApi, uid: string, signal?: AbortSignal): Promise<boolean> {
  try {
    await palette.getCluster(uid, signal ? { signal } : {});
    return true;
  } catch (err) {
    return !(err instanceof PaletteApiError && err.status === 404);
  }
}

/** A tag as `key=value`: Palette's UI and the Terraform provider spell it `key:value`, both are taken. */
const asKeyValue = (tag: string) => (tag.includes('=') ? tag : tag.replace(':', '='));

/** Whether a cluster's tags hold every tag a selector asks for. */
export const selects = (wanted: readonly string[], tags: readonly string[]) => wanted.every((t) => tags.includes(asKeyValue(t)));

/**
 * Each stage's clusters, in the fleet file's order: a stage's named clusters, or for a selector stage
 * the fleet's clusters whose tags match and that no stage names and no earlier selector took.
 */
export function stageClusters(stages: readonly FleetStageSpec[], clusters: readonly string[], tags: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  const named = new Set(stages.flatMap((s) => s.clusters ?? []));
  const taken = new Set<string>();
  const out = new Map<string, string[]>();
  for (const s of stages) {
    if (s.clusters) {
      out.set(s.name, [...s.clusters]);
      continue;
    }
    const picked = clusters.filter((c) => !named.has(c) && !taken.has(c) && selects(s.selector!.tags, tags.get(c) ?? []));
    for (const c of picked) taken.add(c);
    out.set(s.name, picked);
  }
  return out;
}
