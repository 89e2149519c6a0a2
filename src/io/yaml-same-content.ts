/**
 * Whether two YAML texts declare the same data: reformatting or re-quoting is not a change (a pack's
 * manifests compared by the values diff, content read back from the profile API compared with what
 * was sent). Text that does not parse as data is compared as text.
 */
import { parseAllDocuments } from 'yaml';
import { deepEqual } from './deep-equal.js';
import { firstDuplicateKey } from './yaml-keys.js';
import { parseOptions, VALUES_MAX_ALIAS_COUNT } from './yaml-scan-nodes.js';

/** Manifests compare by what they declare: reformatting or re-quoting is not a change. */
export function sameManifestContent(a: string, b: string): boolean {
  if (a === b) return true;
  const x = parsedContent(a);
  const y = parsedContent(b);
  return x !== undefined && y !== undefined ? deepEqual(x, y) : a.trim() === b.trim();
}

function parsedContent(text: string): unknown[] | undefined {
  const parsed = parseAllDocuments(text, parseOptions);
  const docs = Array.isArray(parsed) ? parsed : [];
  if (docs.some((d) => d.errors.length > 0 || firstDuplicateKey(d) !== undefined)) return undefined;
  try {
    return docs.map((d) => d.toJS({ maxAliasCount: VALUES_MAX_ALIAS_COUNT }) as unknown).filter((v) => v !== null);
  } catch {
    // Aliases past the limit (or unresolved): not comparable as data; compared as text instead.
    return undefined;
  }
}
