/**
 * Values about to be written into a document, kept with the text they were written as: a scalar
 * copied from the deployed values keeps its exact source (`"{{ .spectro.system.cluster.uid }}"`,
 * `${metallb-ip-pool}`, `'0.055'`), so carrying a value never re-quotes or resolves it.
 */
import { isAlias, isMap, isScalar, isSeq, Scalar, type Document, type Node } from 'yaml';
import { InputError } from '../errors.js';
import type { PathSegment } from './path.js';
import { deref, keyName, nodeToJs } from './values-document.js';
import { plainIsAmbiguousInYaml11 } from './yaml11.js';

export interface PendingScalar {
  kind: 'scalar';
  value: unknown;
  /** The exact single-line source text, when the value came from a parsed document. */
  text?: string;
  style?: Scalar.Type;
}

export interface PendingEntry {
  key: string;
  /** The key as written (exact source when known). */
  keyText: string;
  value: Pending;
}

export interface PendingMap {
  kind: 'map';
  entries: PendingEntry[];
  /** The source of a one-line flow map (`{}`, `{a: 1}`), dropped as soon as the map changes. */
  flowText?: string;
}

export interface PendingSeq {
  kind: 'seq';
  items: Pending[];
  flowText?: string;
}

export type Pending = PendingScalar | PendingMap | PendingSeq;

/** Marker for a carry that deletes the setting. */
export const REMOVE: unique symbol = Symbol('remove');
export type PendingValue = Pending | typeof REMOVE;

function plainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function pendingFromJs(value: unknown): Pending {
  if (Array.isArray(value)) return { kind: 'seq', items: value.map(pendingFromJs) };
  if (plainObject(value)) {
    return { kind: 'map', entries: Object.entries(value).map(([key, v]) => ({ key, keyText: renderKey(key), value: pendingFromJs(v) })) };
  }
  return { kind: 'scalar', value: value === undefined ? null : value };
}

/** Text of a node when it can be copied as is: one line, no anchor, tag or alias inside. */
function copyableText(node: Node, source: string): string | undefined {
  const range = node.range;
  if (!range) return undefined;
  if (isScalar(node) && (node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED')) return undefined;
  const text = source.slice(range[0], range[1]);
  if (text.includes('\n') || !selfContained(node)) return undefined;
  return text;
}

function selfContained(node: Node): boolean {
  if (isAlias(node) || node.anchor || node.tag) return false;
  if (isMap(node)) return node.items.every((p) => (p.key === null || selfContained(p.key as Node)) && (p.value === null || selfContained(p.value as Node)));
  if (isSeq(node)) return node.items.every((i) => i === null || selfContained(i as Node));
  return true;
}

/** A parsed node (and everything under it) as a pending value that remembers its source text. */
export function pendingFromNode(node: Node | null | undefined, doc: Document, source: string): Pending {
  const n = deref(node, doc);
  if (n === undefined) return { kind: 'scalar', value: null };
  if (isScalar(n)) {
    const text = copyableText(n, source);
    const out: PendingScalar = { kind: 'scalar', value: nodeToJs(n, doc) };
    if (text !== undefined) out.text = text;
    else if (n.type) out.style = n.type;
    return out;
  }
  if (isMap(n)) {
    const out: PendingMap = {
      kind: 'map',
      entries: n.items.map((pair) => {
        const key = keyName(pair.key, doc);
        const keyNode = pair.key as Node | null;
        const written = keyNode !== null && isScalar(keyNode) ? copyableText(keyNode, source) : undefined;
        return { key, keyText: written ?? renderKey(key), value: pendingFromNode(pair.value as Node | null, doc, source) };
      }),
    };
    const flow = n.flow ? copyableText(n, source) : undefined;
    if (flow !== undefined) out.flowText = flow;
    return out;
  }
  if (isSeq(n)) {
    const out: PendingSeq = { kind: 'seq', items: n.items.map((item) => pendingFromNode(item as Node | null, doc, source)) };
    const flow = n.flow ? copyableText(n, source) : undefined;
    if (flow !== undefined) out.flowText = flow;
    return out;
  }
  return pendingFromJs(nodeToJs(n, doc));
}

export function pendingToJs(p: Pending): unknown {
  if (p.kind === 'scalar') return p.value;
  if (p.kind === 'seq') return p.items.map(pendingToJs);
  const out: Record<string, unknown> = {};
  for (const e of p.entries) out[e.key] = pendingToJs(e.value);
  return out;
}

/** A map key written the way YAML needs it (plain when that reads back as the same string). */
export function renderKey(key: string): string {
  if (/^[A-Za-z_][A-Za-z0-9_./-]*$/.test(key) && !plainIsAmbiguousInYaml11(key)) return key;
  return JSON.stringify(key);
}

function itemMatches(p: Pending, field: string, value: unknown): boolean {
  if (p.kind !== 'map') return false;
  const e = p.entries.find((x) => x.key === field);
  return e !== undefined && e.value.kind === 'scalar' && e.value.value === value;
}

/** Builds the value a missing path needs: `a.b` set to 1 on nothing gives `{a: {b: 1}}`. */
export function buildPending(segs: readonly PathSegment[], value: Pending, where: string): Pending {
  let out = value;
  for (let i = segs.length - 1; i >= 0; i--) {
    const seg = segs[i] as PathSegment;
    if (seg.kind === 'key') out = { kind: 'map', entries: [{ key: seg.key, keyText: renderKey(seg.key), value: out }] };
    else if (seg.kind === 'index') {
      if (seg.index !== 0) throw cannotCreate(where, seg.index, 0);
      out = { kind: 'seq', items: [out] };
    } else if (seg.kind === 'item') out = { kind: 'seq', items: [withItemKey(out, seg.field, seg.value, i === segs.length - 1)] };
    else throw wildcard(where);
  }
  return out;
}

/** The item a missing list segment adds: the value itself, or `{<field>: <key>}` plus what is set in it. */
function newItem(seg: PathSegment, rest: readonly PathSegment[], value: Pending, where: string): Pending {
  const inner = buildPending(rest, value, where);
  return seg.kind === 'item' ? withItemKey(inner, seg.field, seg.value, rest.length === 0) : inner;
}

function withItemKey(inner: Pending, field: string, value: string | number | boolean, whole: boolean): Pending {
  if (whole || inner.kind !== 'map' || inner.entries.some((e) => e.key === field)) return inner;
  return { kind: 'map', entries: [{ key: field, keyText: renderKey(field), value: pendingFromJs(value) }, ...inner.entries] };
}

export function cannotCreate(where: string, index: number, length: number): InputError {
  return new InputError('values.carry-index', `Cannot write \`${where}\`: item [${index}] does not exist and the list has ${length} item(s).`, {
    hint: 'A carried list item is added at the end of the list only; carry the whole list instead.',
  });
}

function wildcard(where: string): InputError {
  return new InputError('values.path', `The path \`${where}\` has a wildcard where one exact setting is needed.`, {
    hint: 'Name each key; `*` and `**` are for ignore patterns and rules.',
  });
}

/** Sets (or removes) the value at `segs` inside a pending tree; returns the tree (replaced when its type had to change). */
export function pendingSet(p: Pending, segs: readonly PathSegment[], value: PendingValue, where: string): Pending {
  if (segs.length === 0) return value === REMOVE ? { kind: 'scalar', value: null } : value;
  const [seg, ...rest] = segs as [PathSegment, ...PathSegment[]];
  if (seg.kind === 'key') {
    const at = p.kind === 'map' ? p.entries.findIndex((e) => e.key === seg.key) : -1;
    if (value === REMOVE && at < 0) return p;
    const map: PendingMap = p.kind === 'map' ? p : { kind: 'map', entries: [] };
    delete map.flowText;
    if (at >= 0) {
      const entry = map.entries[at] as PendingEntry;
      if (rest.length === 0 && value === REMOVE) map.entries.splice(at, 1);
      else entry.value = pendingSet(entry.value, rest, value, where);
    } else if (value !== REMOVE) {
      map.entries.push({ key: seg.key, keyText: renderKey(seg.key), value: buildPending(rest, value, where) });
    }
    return map;
  }
  if (seg.kind === 'index' || seg.kind === 'item') {
    const at = p.kind !== 'seq' ? -1 : seg.kind === 'index' ? (seg.index < p.items.length ? seg.index : -1) : p.items.findIndex((x) => itemMatches(x, seg.field, seg.value));
    if (value === REMOVE && at < 0) return p;
    const seq: PendingSeq = p.kind === 'seq' ? p : { kind: 'seq', items: [] };
    delete seq.flowText;
    if (at >= 0) {
      if (rest.length === 0 && value === REMOVE) seq.items.splice(at, 1);
      else seq.items[at] = pendingSet(seq.items[at] as Pending, rest, value, where);
    } else if (value !== REMOVE) {
      if (seg.kind === 'index' && seg.index !== seq.items.length) throw cannotCreate(where, seg.index, seq.items.length);
      seq.items.push(newItem(seg, rest, value, where));
    }
    return seq;
  }
  throw wildcard(where);
}
