/**
 * The target set, decided once when the plan is frozen: every cluster of the stages is read from
 * Palette. A cluster a cluster template manages (`spec.clusterTemplate.uid`) changes its profiles only
 * through the template's maintenance policy, so it is named in the plan and left out, never fought;
 * a cluster Palette no longer has is left out and reported. Neither counts as a failure.
 */
import type { PaletteApi } from '../palette/api.js';
import { PaletteApiError } from '../palette/errors.js';
import type { LeftOut } from './types.js';

export async function leftOutClusters(palette: PaletteApi, clusters: ReadonlyArray<{ name: string; uid: string }>, signal?: AbortSignal): Promise<LeftOut[]> {
  const out: LeftOut[] = [];
  for (const c of clusters) {
    try {
      const doc = await palette.getCluster(c.uid, signal ? { signal } : {});
      if (doc.templateUid) out.push({ name: c.name, uid: c.uid, reason: `a cluster template (uid ${doc.templateUid}) manages it: its profiles change only through the template's maintenance policy` });
    } catch (err) {
      if (err instanceof PaletteApiError && err.status === 404) out.push({ name: c.name, uid: c.uid, reason: 'Palette has no such cluster (gone before the plan was made)' });
      else throw err;
    }
  }
  return out;
}
