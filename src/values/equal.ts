/**
 * Equality as Helm sees values (io/deep-equal.ts: types matter, map key order does not, list order
 * does), over parsed nodes: node equality compares them directly so the diff does not convert
 * whole documents to plain objects first.
 */
import { isMap, isScalar, isSeq, type Document, type Node } from 'yaml';
import { deref, keyName } from './values-document.js';
import { scalarEqual } from '../io/deep-equal.js';

export function nodesEqual(a: Node | undefined, aDoc: Document, b: Node | undefined, bDoc: Document): boolean {
  const x = deref(a, aDoc);
  const y = deref(b, bDoc);
  if (x === undefined || y === undefined) return x === y;
  if (isScalar(x)) return isScalar(y) && scalarEqual(x.value, y.value);
  if (isSeq(x)) {
    if (!isSeq(y) || x.items.length !== y.items.length) return false;
    return x.items.every((item, i) => nodesEqual(item as Node, aDoc, y.items[i] as Node, bDoc));
  }
  if (isMap(x)) {
    if (!isMap(y) || x.items.length !== y.items.length) return false;
    const other = new Map<string, Node | undefined>();
    for (const pair of y.items) other.set(keyName(pair.key, bDoc), (pair.value ?? undefined) as Node | undefined);
    return x.items.every((pair) => {
      const k = keyName(pair.key, aDoc);
      return other.has(k) && nodesEqual((pair.value ?? undefined) as Node | undefined, aDoc, other.get(k), bDoc);
    });
  }
  return false;
}

/**
 * Two nodes the YAML scanner read (see `ValuesDocument.scanned`) written alike: the same text
 * from the same column, so the same values whatever is under them. Cheap where they differ (their
 * lengths, mostly); false for nodes without offsets.
 */
export function sameScannedText(a: Node, aText: string, b: Node, bText: string): boolean {
  const ra = a.range;
  const rb = b.range;
  if (!ra || !rb || ra[1] - ra[0] !== rb[1] - rb[0]) return false;
  if (ra[0] - aText.lastIndexOf('\n', ra[0] - 1) !== rb[0] - bText.lastIndexOf('\n', rb[0] - 1)) return false;
  return aText.slice(ra[0], ra[1]) === bText.slice(rb[0], rb[1]);
}
