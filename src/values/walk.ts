/**
 * Lining up the deployed, old-default and new-default documents node by node: maps by key, lists
 * of maps by a key field when every item has one (else by position), lists holding scalars as one
 * value. The three sides are walked together, so each document is traversed once.
 */
import { isMap, isScalar, isSeq, type Document, type Node, type Pair, type Scalar, type YAMLMap, type YAMLSeq } from 'yaml';
import type { ItemKeyValue, PathSegment } from './path.js';
import { deref, keyName } from './values-document.js';

/** A node on one side, or `undefined` where that side has nothing at the path. */
export type Slot = Node | undefined;

export interface Sides {
  deployed: Document;
  oldDefaults: Document | undefined;
  newDefaults: Document;
}

export interface ChildSlots {
  seg: PathSegment;
  deployed: Slot;
  oldDefault: Slot;
  newDefault: Slot;
}

export type ListMode = { kind: 'keyed'; field: string } | { kind: 'index' } | { kind: 'whole' };

function pairsByKey(map: YAMLMap | undefined, doc: Document | undefined): Map<string, Slot> {
  const out = new Map<string, Slot>();
  if (map === undefined || doc === undefined) return out;
  for (const pair of map.items) out.set(keyName(pair.key, doc), deref(pair.value as Node | null, doc));
  return out;
}

/** The three maps hold the same keys in the same order (the usual case: a version and its site's values). */
function sameKeys(d: YAMLMap, o: YAMLMap | undefined, n: YAMLMap): boolean {
  const items = d.items;
  if (items.length !== n.items.length || (o !== undefined && o.items.length !== items.length)) return false;
  for (let i = 0; i < items.length; i++) {
    const k = (items[i] as Pair).key;
    if (!isScalar(k) || !isScalar(n.items[i]!.key) || (n.items[i]!.key as Scalar).value !== k.value) return false;
    if (o !== undefined && (!isScalar(o.items[i]!.key) || (o.items[i]!.key as Scalar).value !== k.value)) return false;
  }
  return true;
}

/**
 * Children of three maps (any may be absent): keys in deployed order, then new-only, then old-only.
 * `skip(deployed, newDefault)`: children the caller knows hold nothing for it, left out before
 * anything is made for them (most children of a large map, in a diff of versions written alike).
 */
export function mapChildren(d: YAMLMap | undefined, o: YAMLMap | undefined, n: YAMLMap | undefined, sides: Sides, skip?: (deployed: Node, newDefault: Node) => boolean): ChildSlots[] {
  if (d !== undefined && n !== undefined && sameKeys(d, o, n)) {
    const out: ChildSlots[] = [];
    d.items.forEach((pair, i) => {
      const dv = deref(pair.value as Node | null, sides.deployed);
      const nv = deref(n.items[i]!.value as Node | null, sides.newDefaults);
      if (skip && dv !== undefined && nv !== undefined && skip(dv, nv)) return;
      out.push({
        seg: { kind: 'key', key: keyName(pair.key, sides.deployed) },
        deployed: dv,
        oldDefault: o === undefined ? undefined : deref(o.items[i]!.value as Node | null, sides.oldDefaults as Document),
        newDefault: nv,
      });
    });
    return out;
  }
  const dm = pairsByKey(d, sides.deployed);
  const om = pairsByKey(o, sides.oldDefaults);
  const nm = pairsByKey(n, sides.newDefaults);
  const keys = new Set<string>([...dm.keys(), ...nm.keys(), ...om.keys()]);
  return [...keys].map((key) => ({ seg: { kind: 'key', key }, deployed: dm.get(key), oldDefault: om.get(key), newDefault: nm.get(key) }));
}

function itemKey(item: Node | undefined, field: string, doc: Document): ItemKeyValue | undefined {
  if (!isMap(item)) return undefined;
  const v = deref(item.get(field, true) as Node | undefined, doc);
  if (!isScalar(v)) return undefined;
  const value = v.value;
  // Only values the path syntax writes back exactly (`[id=7]`, `[name="x"]`); others fall back to positions.
  if (typeof value === 'number') return /^-?\d+(\.\d+)?$/.test(String(value)) ? value : undefined;
  return typeof value === 'string' || typeof value === 'boolean' ? value : undefined;
}

/**
 * How to line up lists found at the same path. Decided over all sides together: if one side could
 * be keyed and another not, keying only one would report every item as added and removed.
 */
export function listMode(seqs: readonly { seq: YAMLSeq; doc: Document }[], listKeys: readonly string[]): ListMode {
  let items = 0;
  let allMaps = true;
  for (const { seq, doc } of seqs) {
    for (const raw of seq.items) {
      const item = deref(raw as Node | null, doc);
      items += 1;
      if (item === undefined || isScalar(item)) return { kind: 'whole' };
      if (!isMap(item)) allMaps = false;
    }
  }
  if (items === 0) return { kind: 'whole' };
  if (allMaps) {
    for (const field of listKeys) {
      const keyed = seqs.every(({ seq, doc }) => {
        const seen = new Set<ItemKeyValue>();
        for (const raw of seq.items) {
          const k = itemKey(deref(raw as Node | null, doc), field, doc);
          if (k === undefined || seen.has(k)) return false;
          seen.add(k);
        }
        return true;
      });
      if (keyed) return { kind: 'keyed', field };
    }
  }
  return { kind: 'index' };
}

function itemsByKey(seq: YAMLSeq | undefined, field: string, doc: Document | undefined): Map<ItemKeyValue, Slot> {
  const out = new Map<ItemKeyValue, Slot>();
  if (seq === undefined || doc === undefined) return out;
  for (const raw of seq.items) {
    const item = deref(raw as Node | null, doc);
    const k = itemKey(item, field, doc);
    if (k !== undefined) out.set(k, item);
  }
  return out;
}

function itemAt(seq: YAMLSeq | undefined, i: number, doc: Document | undefined): Slot {
  if (seq === undefined || doc === undefined || i >= seq.items.length) return undefined;
  return deref(seq.items[i] as Node | null, doc);
}

/** Children of three lists lined up by `mode` (keyed or by index). */
export function seqChildren(mode: Exclude<ListMode, { kind: 'whole' }>, d: YAMLSeq | undefined, o: YAMLSeq | undefined, n: YAMLSeq | undefined, sides: Sides): ChildSlots[] {
  if (mode.kind === 'index') {
    const len = Math.max(d?.items.length ?? 0, o?.items.length ?? 0, n?.items.length ?? 0);
    const out: ChildSlots[] = [];
    for (let i = 0; i < len; i++) {
      out.push({
        seg: { kind: 'index', index: i },
        deployed: itemAt(d, i, sides.deployed),
        oldDefault: itemAt(o, i, sides.oldDefaults),
        newDefault: itemAt(n, i, sides.newDefaults),
      });
    }
    return out;
  }
  const dm = itemsByKey(d, mode.field, sides.deployed);
  const om = itemsByKey(o, mode.field, sides.oldDefaults);
  const nm = itemsByKey(n, mode.field, sides.newDefaults);
  const keys = new Set<ItemKeyValue>([...dm.keys(), ...nm.keys(), ...om.keys()]);
  return [...keys].map((value) => ({
    seg: { kind: 'item', field: mode.field, value },
    deployed: dm.get(value),
    oldDefault: om.get(value),
    newDefault: nm.get(value),
  }));
}

export function asMap(node: Slot): YAMLMap | undefined {
  return isMap(node) ? node : undefined;
}

export function asSeq(node: Slot): YAMLSeq | undefined {
  return isSeq(node) ? node : undefined;
}
