/** Finding the node at a concrete path (`a.b[name="x"][0]`) in a parsed values document. */
import { isMap, isScalar, isSeq, type Document, type Node, type YAMLSeq } from 'yaml';
import type { PathSegment } from './path.js';
import { deref, keyName, type ValuesDocument } from './values-document.js';

/** The node at a concrete path, or undefined. */
export function nodeAtPath(values: ValuesDocument, docIndex: number, segs: readonly PathSegment[]): { node: Node; doc: Document } | undefined {
  const doc = values.docs[docIndex];
  if (!doc) return undefined;
  const node = descend(doc.contents as Node | null, doc, segs);
  return node === undefined ? undefined : { node, doc };
}

/** The node under `from` at `segs`, or undefined when a step is missing. */
export function descend(from: Node | null | undefined, doc: Document, segs: readonly PathSegment[]): Node | undefined {
  let node = deref(from, doc);
  for (const seg of segs) {
    if (node === undefined) return undefined;
    if (seg.kind === 'key' && isMap(node)) {
      const pair = node.items.find((p) => keyName(p.key, doc) === seg.key);
      node = pair ? deref(pair.value as Node | null, doc) : undefined;
    } else if ((seg.kind === 'index' || seg.kind === 'item') && isSeq(node)) {
      const at = seqIndexOf(node, seg, doc);
      node = at >= 0 ? deref(node.items[at] as Node | null, doc) : undefined;
    } else return undefined;
  }
  return node;
}

export function seqIndexOf(seq: YAMLSeq, seg: Extract<PathSegment, { kind: 'index' | 'item' }>, doc: Document): number {
  if (seg.kind === 'index') return seg.index < seq.items.length ? seg.index : -1;
  return seq.items.findIndex((raw) => {
    const item = deref(raw as Node | null, doc);
    if (!isMap(item)) return false;
    const v = deref(item.get(seg.field, true) as Node | undefined, doc);
    return isScalar(v) && v.value === seg.value;
  });
}
