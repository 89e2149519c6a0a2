/**
 * The carry list laid over the new defaults' nodes, before any text is written: which nodes keep
 * their text, which get children changed, keys or items added or removed, and which are rewritten
 * whole (a scalar, a flow collection or a value of another type in the way).
 */
import { isMap, isScalar, isSeq, type Document, type Node, type Pair } from 'yaml';
import { InputError } from '../errors.js';
import { isRemoval, type CarryItem } from './carry.js';
import { deepEqual } from '../io/deep-equal.js';
import { descend, nodeAtPath, seqIndexOf } from './node-path.js';
import { parseConcretePath, type PathSegment } from './path.js';
import { buildPending, cannotCreate, pendingFromJs, pendingFromNode, pendingSet, renderKey, REMOVE, type Pending, type PendingEntry, type PendingValue } from './pending.js';
import { keyName, nodeToJs, type ValuesDocument } from './values-document.js';

/** A node of the new defaults and what the carry list does under it. */
export interface ExistingOverlay {
  kind: 'existing';
  node: Node;
  /** Changed children, by position in `node.items`. */
  children?: Map<number, Overlay>;
  /** Keys (maps) or items (lists) that the new defaults do not have, in carry order. */
  addedEntries?: PendingEntry[];
  addedItems?: Pending[];
}
export interface FreshOverlay {
  kind: 'fresh';
  value: Pending;
}
export interface RemovedOverlay {
  kind: 'removed';
}
export type Overlay = ExistingOverlay | FreshOverlay | RemovedOverlay;

const removed: RemovedOverlay = { kind: 'removed' };

export class CarryPlan {
  /** Per document of the new defaults. */
  readonly roots = new Map<number, Overlay>();
  /** Documents after the last one of the new defaults. */
  readonly newDocs: Pending[] = [];

  constructor(
    private readonly target: ValuesDocument,
    private readonly deployed: ValuesDocument | undefined,
  ) {}

  add(item: CarryItem): void {
    const path = parseConcretePath(item.path);
    const d = path.doc ?? 0;
    const value: PendingValue = isRemoval(item) ? REMOVE : this.pendingFor(item.value, d, path.segments);
    const docs = this.target.docs;
    if (d < docs.length) {
      const doc = docs[d] as Document.Parsed;
      const root = this.roots.get(d) ?? this.rootOverlay(doc);
      this.roots.set(d, this.apply(root, doc, path.segments, 0, value, item.path));
      return;
    }
    const k = d - docs.length;
    if (value === REMOVE) {
      if (k < this.newDocs.length && path.segments.length > 0) this.newDocs[k] = pendingSet(this.newDocs[k] as Pending, path.segments, REMOVE, item.path);
      else if (k < this.newDocs.length) this.newDocs.splice(k, 1);
      return;
    }
    if (k > this.newDocs.length) {
      throw new InputError('values.carry-document', `Cannot write \`${item.path}\`: the new defaults have ${docs.length + this.newDocs.length} document(s).`, {
        hint: 'A carried document is added after the last one only.',
      });
    }
    if (k === this.newDocs.length) this.newDocs.push(buildPending(path.segments, value, item.path));
    else this.newDocs[k] = pendingSet(this.newDocs[k] as Pending, path.segments, value, item.path);
  }

  /** The deployed node when the carried value is the deployed one (its text is kept), else the value itself. */
  private pendingFor(value: unknown, docIndex: number, segs: readonly PathSegment[]): Pending {
    if (this.deployed) {
      const found = nodeAtPath(this.deployed, docIndex, segs);
      if (found && deepEqual(nodeToJs(found.node, found.doc), value)) return pendingFromNode(found.node, found.doc, this.deployed.text);
    }
    return pendingFromJs(value);
  }

  private rootOverlay(doc: Document.Parsed): Overlay {
    const contents = doc.contents as Node | null;
    if (contents === null || (isScalar(contents) && contents.value === null)) return { kind: 'fresh', value: { kind: 'scalar', value: null } };
    return { kind: 'existing', node: contents };
  }

  private apply(ov: Overlay, doc: Document, segs: readonly PathSegment[], i: number, value: PendingValue, where: string): Overlay {
    if (i === segs.length) return value === REMOVE ? removed : { kind: 'fresh', value };
    if (ov.kind === 'removed') return value === REMOVE ? ov : { kind: 'fresh', value: buildPending(segs.slice(i), value, where) };
    if (ov.kind === 'fresh') {
      ov.value = pendingSet(ov.value, segs.slice(i), value, where);
      return ov;
    }
    const node = ov.node;
    const seg = segs[i] as PathSegment;
    const rest = segs.slice(i + 1);
    if (seg.kind === 'key' && isMap(node) && !node.flow) {
      const at = node.items.findIndex((p) => keyName(p.key, doc) === seg.key);
      if (at >= 0) {
        ov.children ??= new Map();
        const child = ov.children.get(at) ?? this.existing((node.items[at] as Pair).value as Node | null);
        ov.children.set(at, this.apply(child, doc, segs, i + 1, value, where));
        return ov;
      }
      ov.addedEntries ??= [];
      const added = ov.addedEntries.findIndex((e) => e.key === seg.key);
      if (added >= 0) {
        const entry = ov.addedEntries[added] as PendingEntry;
        if (rest.length === 0 && value === REMOVE) ov.addedEntries.splice(added, 1);
        else entry.value = pendingSet(entry.value, rest, value, where);
      } else if (value !== REMOVE) {
        ov.addedEntries.push({ key: seg.key, keyText: renderKey(seg.key), value: buildPending(rest, value, where) });
      }
      return ov;
    }
    if ((seg.kind === 'index' || seg.kind === 'item') && isSeq(node) && !node.flow) {
      const at = seqIndexOf(node, seg, doc);
      if (at >= 0) {
        ov.children ??= new Map();
        const child = ov.children.get(at) ?? this.existing(node.items[at] as Node | null);
        ov.children.set(at, this.apply(child, doc, segs, i + 1, value, where));
        return ov;
      }
      ov.addedItems ??= [];
      const holder: Pending = { kind: 'seq', items: ov.addedItems };
      const shifted: PathSegment = seg.kind === 'index' ? { kind: 'index', index: seg.index - node.items.length } : seg;
      if (seg.kind === 'index' && shifted.kind === 'index' && (shifted.index < 0 || shifted.index > ov.addedItems.length)) {
        if (value === REMOVE) return ov;
        throw cannotCreate(where, seg.index, node.items.length + ov.addedItems.length);
      }
      const next = pendingSet(holder, [shifted, ...rest], value, where);
      ov.addedItems = next.kind === 'seq' ? next.items : ov.addedItems;
      return ov;
    }
    // A scalar, a flow collection, an alias, or a value of another type on the way: rewrite it whole.
    if (value === REMOVE && descend(node, doc, segs.slice(i)) === undefined) return ov;
    return { kind: 'fresh', value: pendingSet(overlayToPending(ov, doc, this.target.text), segs.slice(i), value, where) };
  }

  private existing(node: Node | null): Overlay {
    return node === null ? { kind: 'fresh', value: { kind: 'scalar', value: null } } : { kind: 'existing', node };
  }
}

/** An overlay as one pending value: the node's content with the changes under it applied. */
export function overlayToPending(ov: Overlay, doc: Document, text: string): Pending {
  if (ov.kind === 'fresh') return ov.value;
  if (ov.kind === 'removed') return { kind: 'scalar', value: null };
  const base = pendingFromNode(ov.node, doc, text);
  if (base.kind === 'map' && isMap(ov.node)) {
    const entries: PendingEntry[] = [];
    base.entries.forEach((e, i) => {
      const child = ov.children?.get(i);
      if (child === undefined) entries.push(e);
      else if (child.kind !== 'removed') entries.push({ ...e, value: overlayToPending(child, doc, text) });
    });
    return { kind: 'map', entries: [...entries, ...(ov.addedEntries ?? [])] };
  }
  if (base.kind === 'seq' && isSeq(ov.node)) {
    const items: Pending[] = [];
    base.items.forEach((item, i) => {
      const child = ov.children?.get(i);
      if (child === undefined) items.push(item);
      else if (child.kind !== 'removed') items.push(overlayToPending(child, doc, text));
    });
    return { kind: 'seq', items: [...items, ...(ov.addedItems ?? [])] };
  }
  return base;
}
