/**
 * What a real Palette does with a draft PUT beyond the update entity's shape (palette dialect only):
 *
 * - A spectro pack whose tag changes (or that is new) must name the uid of that exact version in a
 *   registry: palette-sdk-go's `v1PackManifestUpdateEntity` carries `uid` and `registryUid`, and the
 *   terraform provider refuses a spectro pack without a uid and resolves it from the registry before
 *   each create or update (helm and OCI packs too, when their registry is synced). A tag that no
 *   registry holds, a missing uid and the uid of another version are refused with 400 (a helm or
 *   OCI pack may go by name and tag, but not with another version's uid); the exact code Palette
 *   uses is not published, so the codes here are descriptive, and a client must not depend on them.
 * - Values are stored normalized (line endings, whitespace at the end of lines): the provider notes
 *   that Palette normalizes values on the server and compares read-backs ignoring whitespace.
 */
import type { LabRegistry } from './types.js';
import type { SentPack } from './put-payload.js';
import type { LabPack, LabProfileContent } from './types.js';

export interface PutRefusal {
  code: string;
  message: string;
}

const registryName = (r: LabRegistry) => `'${r.name}' (${r.uid})`;

/** The first pack version the PUT may not name as it does, or undefined. */
export function packVersionRefusal(base: LabProfileContent | undefined, sent: readonly SentPack[], stored: readonly LabPack[], registries: readonly LabRegistry[]): PutRefusal | undefined {
  for (const [i, pack] of sent.entries()) {
    const existing = base?.packs.find((p) => p.name === pack.name);
    if (existing && existing.tag === pack.tag) continue;
    const type = pack.type ?? existing?.type ?? 'spectro';
    const registryUid = stored[i]?.registryUid ?? pack.registryUid ?? existing?.registryUid ?? '';
    const registry = registries.find((r) => r.uid === registryUid);
    const held = registry?.packs.find((p) => p.name === pack.name && p.tag === pack.tag);
    const where = `spec.template.packs[${i}]`;
    // A helm or OCI chart may go by name and tag (a registry Palette does not sync); a uid it names must still be that version's.
    if (type !== 'spectro') {
      if (pack.uid && registry && held && pack.uid !== held.uid) return { code: 'PackUidMismatch', message: `${where}.uid: ${pack.uid} is not the uid of pack ${pack.name} ${pack.tag} in registry ${registryName(registry)}` };
      continue;
    }
    if (!registry) return { code: 'PackRegistryNotFound', message: `${where}: pack ${pack.name} ${pack.tag} names registry '${registryUid}', which does not exist` };
    if (!held) return { code: 'PackNotFound', message: `${where}: pack ${pack.name} version ${pack.tag} is not in registry ${registryName(registry)}` };
    if (!pack.uid) return { code: 'PackUidRequired', message: `${where}.uid: the uid of pack ${pack.name} ${pack.tag} in registry ${registryName(registry)} is required for a spectro pack whose version changes` };
    if (pack.uid !== held.uid) return { code: 'PackUidMismatch', message: `${where}.uid: ${pack.uid} is not the uid of pack ${pack.name} ${pack.tag} in registry ${registryName(registry)}` };
  }
  return undefined;
}

/** Values as Palette keeps them: `\n` line endings, no whitespace at the end of a line. */
export function storedValues(values: string): string {
  return values.replace(/\r\n?/g, '\n').replace(/[ \t]+$/gm, '');
}
