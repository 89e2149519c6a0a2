/**
 * Keys a new pack version moved (VMO 4.10 reads the console address at `vmo-manager.platform.baseUrl`):
 * before the deployed values are compared with the new defaults, the site's value (and the old
 * default, for a 3-way comparison) is placed where the new version reads it, so the diff carries
 * the site's setting to its new place instead of to a key nothing reads any more. While the new
 * defaults still have the old key, the value stays there as well (the pack reads both). Pure: the
 * documents given are not changed; the moved nodes keep their source text (macros stay as written).
 */
import { isAlias, isMap, isScalar, type Document, type Node } from 'yaml';
import { parseConcretePath } from './path.js';
import type { ValuesDocument } from './values-document.js';

export interface Move {
  from: string;
  to: string;
}

const keysOf = (path: string): string[] => parseConcretePath(path).segments.map((s) => (s.kind === 'key' ? s.key : ''));

/** A node is there and says something (a null or missing value moves nothing). */
function holds(doc: Document, keys: string[]): boolean {
  if (!doc.hasIn(keys)) return false;
  const node = doc.getIn(keys, true) as Node | null | undefined;
  return node !== null && node !== undefined && !(isScalar(node) && node.value === null);
}

/**
 * `values` with each move applied: the node at `from` copied to `to` (unless `to` is set already),
 * and removed from `from` when `newDefaults` no longer has that key. Returns the moves that took effect.
 */
export function relocate(values: ValuesDocument, moves: readonly Move[], newDefaults: ValuesDocument): { values: ValuesDocument; moved: Move[] } {
  const first = values.docs[0];
  if (!first || moves.length === 0) return { values, moved: [] };
  const target = newDefaults.docs[0];
  let doc: Document.Parsed | undefined;
  const moved: Move[] = [];
  for (const m of moves) {
    const from = keysOf(m.from);
    const to = keysOf(m.to);
    const current = doc ?? first;
    if (!holds(current, from) || holds(current, to)) continue;
    doc ??= first.clone() as Document.Parsed;
    const node = doc.getIn(from, true) as Node;
    doc.setIn(to, isAlias(node) ? node.resolve(doc) : node);
    if (!target || !target.hasIn(from)) {
      doc.deleteIn(from);
      // Parents the move emptied go too: an empty `appConfig: {clusterInfo: {}}` is not the site's.
      for (let i = from.length - 1; i > 0; i--) {
        const parent = doc.getIn(from.slice(0, i), true);
        if (!isMap(parent) || parent.items.length > 0) break;
        doc.deleteIn(from.slice(0, i));
      }
    }
    moved.push(m);
  }
  if (!doc) return { values, moved };
  return { values: { text: values.text, docs: [doc, ...values.docs.slice(1)] }, moved };
}
