/**
 * Edits of pack values documents through the `yaml` Document API, so the comments, macros and
 * quoting of the real documents survive (a site's deployed values are the pack's document with a
 * few settings changed, exactly as an operator would edit them in Palette).
 */
import { isMap, isScalar, isSeq, parseDocument, Scalar, type Document } from 'yaml';

export type YamlPath = Array<string | number>;

/** Parses a values document; throws on a syntax error (the lab's own data must be valid). */
export function parseValues(text: string): Document {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw new Error(`invalid values document: ${doc.errors[0]!.message}`);
  return doc;
}

/** The indentation the document was written with (the VMO 4.4 document uses 4 spaces). */
export function indentOf(text: string): number {
  const m = /^( +)\S/m.exec(text);
  return m ? m[1]!.length : 2;
}

/** Serializes with the original indentation and without re-wrapping long lines. */
export function printValues(doc: Document, original: string): string {
  return doc.toString({ indent: indentOf(original), lineWidth: 0, minContentWidth: 0 });
}

/** Sets a value; an existing scalar keeps its quoting style. */
export function setValue(doc: Document, path: YamlPath, value: unknown): void {
  const node = doc.getIn(path, true);
  if (isScalar(node) && (value === null || typeof value !== 'object')) {
    node.value = value;
    return;
  }
  doc.setIn(path, doc.createNode(value));
}

/** Sets a string value written in double quotes (e.g. a macro, which a plain scalar cannot hold). */
export function setQuoted(doc: Document, path: YamlPath, value: string): void {
  const node = new Scalar(value);
  node.type = Scalar.QUOTE_DOUBLE;
  const existing = doc.getIn(path, true);
  if (isScalar(existing)) {
    existing.value = value;
    existing.type = Scalar.QUOTE_DOUBLE;
    return;
  }
  doc.setIn(path, node);
}

/** Appends an item to a sequence unless it is already there. */
export function appendUnique(doc: Document, path: YamlPath, item: string): void {
  const seq = doc.getIn(path, true);
  if (!isSeq(seq)) {
    doc.setIn(path, doc.createNode([item]));
    return;
  }
  if (seq.items.some((n) => isScalar(n) && n.value === item)) return;
  seq.items.push(doc.createNode(item));
}

/** Removes a key or item; no-op when absent. */
export function deleteValue(doc: Document, path: YamlPath): void {
  if (doc.hasIn(path)) doc.deleteIn(path);
}

/** Sets a map entry whose key contains dots or slashes (annotations), creating the map if needed. */
export function setMapEntry(doc: Document, mapPath: YamlPath, key: string, value: string): void {
  const map = doc.getIn(mapPath, true);
  if (!isMap(map)) {
    doc.setIn(mapPath, doc.createNode({ [key]: value }));
    return;
  }
  const node = new Scalar(value);
  node.type = Scalar.QUOTE_DOUBLE;
  // `annotations: {}` becomes a block map once it has entries, as a person would write it
  if (map.items.length === 0) map.flow = false;
  map.set(doc.createNode(key), node);
}
