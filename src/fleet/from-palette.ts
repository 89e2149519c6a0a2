/**
 * Clusters from Palette: the clusters that run a profile version, those with every tag asked for.
 * palette-sdk-go's spec 4.8 has no list of a profile's clusters under `/v1/clusterprofiles/{uid}/...`;
 * the profile's own GET reports them: `status.inUseClusters[]` (`v1ObjectResReference {kind, name,
 * projectUid, tenantUid, uid}`, in `v1ClusterProfileStatus`). Tags are each cluster's
 * `metadata.labels` (`GET /v1/spectroclusters/{uid}`), read as the selector stages read them.
 * Read once, when the plan is frozen: the journal's plan is the cluster list from then on.
 */
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { opt } from '../io/optional-field.js';
import type { PaletteApi } from '../palette/api.js';
import { PaletteApiError } from '../palette/errors.js';
import { withPaletteClusters, type LoadedFleet } from './load.js';
import type { FromPalette } from './schema.js';
import { selects } from './target-set.js';

/** The part of a profile's GET this reads: `v1ClusterProfileStatus.inUseClusters[]` (`v1ObjectResReference`). */
export const InUseSchema = z.looseObject({
  status: opt(
    z.looseObject({
      inUseClusters: opt(z.array(z.looseObject({ uid: z.string().min(1), name: z.string().min(1), kind: opt(z.string()), projectUid: opt(z.string()), tenantUid: opt(z.string()) }))),
    }),
  ),
});

/** The clusters a profile's GET answer reports in use (none when the field is absent or null). */
export function inUseClusters(raw: unknown): Array<{ uid: string; name: string }> {
  const parsed = InUseSchema.safeParse(raw);
  return parsed.success ? (parsed.data.status?.inUseClusters ?? []).map((c) => ({ uid: c.uid, name: c.name })) : [];
}

/** A fleet file's cluster entries for the clusters found: those with every tag, by name, kubeconfig `DIR/<name>`. */
export function paletteEntries(found: ReadonlyArray<{ uid: string; name: string; tags: readonly string[] }>, from: FromPalette, base: string): Array<Record<string, unknown> & { name: string; uid: string }> {
  return found
    .filter((c) => selects(from.tags ?? [], c.tags))
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((c) => ({ name: c.name, uid: c.uid, kubeconfig: resolve(base, from.kubeconfigDir, c.name), ...(from.context ? { context: from.context } : {}) }));
}

/** Reads the profile's clusters and each one's tags; a cluster Palette no longer has is not one of them. */
export async function readPaletteClusters(palette: PaletteApi, from: FromPalette, signal?: AbortSignal): Promise<Array<{ uid: string; name: string; tags: string[] }>> {
  const opts = signal ? { signal } : {};
  const profile = await palette.getProfile(from.profile, opts);
  const out: Array<{ uid: string; name: string; tags: string[] }> = [];
  for (const c of inUseClusters(profile.raw)) {
    try {
      out.push({ ...c, tags: (await palette.getCluster(c.uid, opts)).tags });
    } catch (err) {
      if (!(err instanceof PaletteApiError && err.status === 404)) throw err;
    }
  }
  return out;
}

/** With `clusters: { fromPalette }`: the fleet with the clusters Palette reports now (the plan freezes them). */
export async function resolveFromPalette(f: LoadedFleet, palette: PaletteApi, signal?: AbortSignal): Promise<LoadedFleet> {
  if (!f.fromPalette) return f;
  return withPaletteClusters(f, paletteEntries(await readPaletteClusters(palette, f.fromPalette, signal), f.fromPalette, dirname(f.file)));
}

export const fromPaletteText = (from: NonNullable<LoadedFleet['fromPalette']>) => `the clusters that run profile ${from.profile}${from.tags ? ` tagged ${from.tags.join(' and ')}` : ''}`;
