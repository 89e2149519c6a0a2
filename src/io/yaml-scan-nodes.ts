/**
 * The yaml package's own node types (Scalar, YAMLMap, YAMLSeq, Pair), made for the YAML scanner
 * without their constructors. Each constructor marks its node with `Object.defineProperty` (the
 * package's node type, under the registered symbol `Symbol.for('yaml.node.type')`, the one the
 * package's `isMap`/`isScalar`/... read), which costs ~0.8 µs a pair: more than scanning the line.
 * Here the mark sits on a prototype shared by every node of the kind, so a node is a plain object
 * with the package's class behind it: `isMap`, `toJS`, `clone`, `getIn`/`setIn` and the merge's
 * offsets work on it as on a node the package composed (test/values/scan-values.test.ts holds it).
 *
 * Also the plain-value form of such a tree, built directly (the package's `toJS` goes through its
 * generic conversion context for every pair, a third of the merge's time).
 */
import { Document, isSeq, Pair, Scalar, YAMLMap, YAMLSeq, type Node, type Range } from 'yaml';

const NODE_TYPE = Symbol.for('yaml.node.type');

/** Options every values document is read with (also the full parser's). */
export const parseOptions = { prettyErrors: false, uniqueKeys: false, strict: true } as const;

/**
 * The most values YAML aliases may stand for in one document, counted as the yaml library counts
 * (the same limit every conversion here uses). Checked once at parse: an "alias bomb" (a few lines
 * that expand to billions of nodes) is refused as bad input before any walk follows its aliases.
 */
export const VALUES_MAX_ALIAS_COUNT = 100;

/** The schema the package gives a document read with `parseOptions` (collections keep a reference to it). */
export const schema = new Document(undefined, parseOptions).schema;

const scalarProto = Object.create(Scalar.prototype, { [NODE_TYPE]: { value: Symbol.for('yaml.scalar') } }) as Scalar;
const mapProto = Object.create(YAMLMap.prototype, {
  [NODE_TYPE]: { value: Symbol.for('yaml.map') },
  schema: { value: schema, writable: true, configurable: true },
}) as YAMLMap;
const seqProto = Object.create(YAMLSeq.prototype, {
  [NODE_TYPE]: { value: Symbol.for('yaml.seq') },
  schema: { value: schema, writable: true, configurable: true },
}) as YAMLSeq;
const pairProto = Object.create(Pair.prototype, { [NODE_TYPE]: { value: Symbol.for('yaml.pair') } }) as Pair;

export type ScalarType = 'PLAIN' | 'QUOTE_DOUBLE' | 'QUOTE_SINGLE' | 'BLOCK_LITERAL' | 'BLOCK_FOLDED';

// Constructor functions (not Object.create): V8 gives their objects their fields in place, a quarter of the cost.
function ScannedScalar(this: Scalar, value: unknown, source: string, type: ScalarType, range: Range): void {
  this.value = value;
  this.range = range;
  this.source = source;
  this.type = type;
}
ScannedScalar.prototype = scalarProto;

function ScannedMap(this: YAMLMap, items: Pair[], range: Range): void {
  this.items = items;
  this.range = range;
}
ScannedMap.prototype = mapProto;

function ScannedSeq(this: YAMLSeq, items: Node[], range: Range): void {
  this.items = items;
  this.range = range;
}
ScannedSeq.prototype = seqProto;

function ScannedPair(this: Pair, key: Scalar, value: Node): void {
  this.key = key;
  this.value = value;
}
ScannedPair.prototype = pairProto;

type Construct<T, A extends unknown[]> = new (...args: A) => T;
const NewScalar = ScannedScalar as unknown as Construct<Scalar, [unknown, string, ScalarType, Range]>;
const NewMap = ScannedMap as unknown as Construct<YAMLMap, [Pair[], Range]>;
const NewSeq = ScannedSeq as unknown as Construct<YAMLSeq, [Node[], Range]>;
const NewPair = ScannedPair as unknown as Construct<Pair, [Scalar, Node]>;

/** A scalar as the package composes one: its value, source string, style and offsets. */
export function scalarNode(value: unknown, source: string, type: ScalarType, range: Range, extra?: { format?: string; minFractionDigits?: number }): Scalar {
  const s = new NewScalar(value, source, type, range);
  if (extra?.format !== undefined) s.format = extra.format;
  if (extra?.minFractionDigits !== undefined) s.minFractionDigits = extra.minFractionDigits;
  return s;
}

export function mapNode(items: Pair[], range: Range, flow: boolean): YAMLMap {
  const m = new NewMap(items, range);
  if (flow) m.flow = true;
  return m;
}

export function seqNode(items: Node[], range: Range, flow: boolean): YAMLSeq {
  const s = new NewSeq(items, range);
  if (flow) s.flow = true;
  return s;
}

export function pairNode(key: Scalar, value: Node): Pair {
  return new NewPair(key, value);
}

/** A document holding `contents`, as the package's composer leaves one (no errors, no warnings). */
export function documentNode(contents: Node, range: Range): Document.Parsed {
  const doc = new Document(undefined, parseOptions) as Document.Parsed;
  doc.contents = contents as Document.Parsed['contents'];
  doc.range = range;
  return doc;
}

/** A node the scanner made (or a copy of one): neither it nor anything under it is an alias. */
export function isScannedNode(node: Node): boolean {
  const proto = Object.getPrototypeOf(node) as unknown;
  return proto === scalarProto || proto === mapProto || proto === seqProto;
}

/**
 * A scanned tree as plain values, exactly as the package's `toJS` gives them for these nodes:
 * scalar keys by their string form (`null` as ''), `__proto__` as an own key. Only for trees the
 * scanner built (no aliases, anchors, tags or merge keys: it leaves those to the full parser).
 */
export function scannedToJs(node: Node | null): unknown {
  if (node === null) return null;
  const items = (node as { items?: unknown[] }).items;
  if (items === undefined) return (node as Scalar).value;
  if (isSeq(node)) return items.map((item) => scannedToJs(item as Node));
  const out: Record<string, unknown> = {};
  for (const pair of items as Pair[]) {
    const k = (pair.key as Scalar).value;
    const key = k === null ? '' : String(k);
    const value = scannedToJs(pair.value as Node | null);
    if (key === '__proto__') Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
    else out[key] = value;
  }
  return out;
}
