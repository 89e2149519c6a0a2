/**
 * The carry list: settings to write into the new defaults. Also their meaning on plain values,
 * which the merge uses to check its own output (the merged text must read back as exactly the new
 * defaults with the carried settings applied) and a screen can use to preview a result.
 */
import { InputError } from '../errors.js';
import { parseConcretePath, type PathSegment } from './path.js';

export type CarryItem = { path: string; value: unknown; remove?: undefined } | { path: string; remove: true; value?: undefined };

export function isRemoval(item: CarryItem): item is { path: string; remove: true } {
  return item.remove === true;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

const REMOVE = Symbol('remove');
type Value = unknown;

function indexError(where: string, index: number, length: number): InputError {
  return new InputError('values.carry-index', `Cannot write \`${where}\`: item [${index}] does not exist and the list has ${length} item(s).`, {
    hint: 'A carried list item is added at the end of the list only; carry the whole list instead.',
  });
}

function findItem(list: unknown[], seg: Extract<PathSegment, { kind: 'index' | 'item' }>): number {
  if (seg.kind === 'index') return seg.index < list.length ? seg.index : -1;
  return list.findIndex((x) => isObject(x) && x[seg.field] === seg.value);
}

/** Same rules as the text merge: missing parents are created, a parent of the wrong type is replaced. */
function setIn(cur: Value, segs: readonly PathSegment[], value: Value | typeof REMOVE, where: string): Value {
  if (segs.length === 0) return value;
  const [seg, ...rest] = segs as [PathSegment, ...PathSegment[]];
  if (seg.kind === 'key') {
    if (value === REMOVE && !(isObject(cur) && Object.hasOwn(cur, seg.key))) return cur;
    const obj = isObject(cur) ? cur : {};
    if (rest.length === 0 && value === REMOVE) delete obj[seg.key];
    else obj[seg.key] = setIn(Object.hasOwn(obj, seg.key) ? obj[seg.key] : undefined, rest, value, where);
    return obj;
  }
  if (seg.kind === 'index' || seg.kind === 'item') {
    const at = Array.isArray(cur) ? findItem(cur, seg) : -1;
    if (value === REMOVE && at < 0) return cur;
    const list = Array.isArray(cur) ? cur : [];
    if (at >= 0) {
      if (rest.length === 0 && value === REMOVE) list.splice(at, 1);
      else list[at] = setIn(list[at], rest, value, where);
      return list;
    }
    if (seg.kind === 'index' && seg.index !== list.length) throw indexError(where, seg.index, list.length);
    let item = setIn(undefined, rest, value, where);
    if (seg.kind === 'item' && rest.length > 0 && isObject(item) && !Object.hasOwn(item, seg.field)) item = { [seg.field]: seg.value, ...item };
    list.push(item);
    return list;
  }
  throw new InputError('values.path', `The path \`${where}\` has a wildcard where one exact setting is needed.`);
}

/** A deep copy that also unshares what YAML aliases shared: writing under one alias must not change the anchor. */
function copyTree(v: Value): Value {
  if (Array.isArray(v)) return v.map(copyTree);
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, copyTree(x)]));
  return v;
}

function compareSegments(a: readonly PathSegment[], b: readonly PathSegment[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] as PathSegment;
    const y = b[i] as PathSegment;
    if (x.kind === 'index' && y.kind === 'index') {
      if (x.index !== y.index) return x.index - y.index;
      continue;
    }
    const c = JSON.stringify(x).localeCompare(JSON.stringify(y));
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

/**
 * The order the merge applies a carry list in, so that a list position (`l[2]`) always names the
 * item at that position in the new defaults: removals of positioned items come last, the highest
 * position first, so no removal shifts an item another carry names. Otherwise the given order.
 */
export function orderForMerge(carry: readonly CarryItem[]): CarryItem[] {
  const parsed = carry.map((item) => ({ item, path: parseConcretePath(item.path) }));
  const isIndexRemoval = (x: (typeof parsed)[number]) => isRemoval(x.item) && x.path.segments.at(-1)?.kind === 'index';
  const removals = parsed.filter(isIndexRemoval);
  removals.sort((a, b) => (b.path.doc ?? 0) - (a.path.doc ?? 0) || compareSegments(b.path.segments, a.path.segments));
  return [...parsed.filter((x) => !isIndexRemoval(x)), ...removals].map((x) => x.item);
}

/**
 * Applies the carry list to plain values (one entry per document), in the given order. `inPlace`:
 * the trees are the caller's to change (fresh from a conversion), so they are not copied first.
 */
export function applyCarryToJs(docs: readonly unknown[], carry: readonly CarryItem[], opts: { inPlace?: boolean } = {}): unknown[] {
  const out = opts.inPlace ? [...docs] : docs.map(copyTree);
  for (const item of carry) {
    const path = parseConcretePath(item.path);
    const d = path.doc ?? 0;
    if (isRemoval(item)) {
      if (d >= out.length) continue;
      if (path.segments.length === 0) out.splice(d, 1);
      else out[d] = setIn(out[d], path.segments, REMOVE, item.path);
      continue;
    }
    if (d > out.length) throw new InputError('values.carry-document', `Cannot write \`${item.path}\`: the values have ${out.length} document(s).`);
    if (d === out.length) out.push(null);
    out[d] = setIn(out[d], path.segments, copyTree(item.value), item.path);
  }
  return out;
}
