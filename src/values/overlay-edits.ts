/**
 * Turning a carry plan into text edits of the new defaults: a changed scalar is replaced where it
 * sits, new keys and items go at the end of their map or list in its column, removed ones take their
 * lines with them, and a list of scalars changes only the lines of items that come or go.
 */
import { isMap, isPair, isScalar, isSeq, type Document, type Node, type Pair, type YAMLMap, type YAMLSeq } from 'yaml';
import { PilotError } from '../errors.js';
import { deepEqual } from '../io/deep-equal.js';
import { lcsAlign } from './lcs.js';
import { overlayToPending, type CarryPlan, type Overlay } from './overlay.js';
import { pendingToJs, type Pending } from './pending.js';
import { collectionLines, columnOf, detectStyle, itemLines, pairLines, renderPairValue, scalarInline, type IndentStyle } from './render.js';
import { afterLine, applyEdits, insertLines, lineBreakOf, lineEnd, lineStart, type TextEdit } from './text-edits.js';
import { nodeToJs, type ValuesDocument } from './values-document.js';

type Place = { kind: 'pair'; pair: Pair } | { kind: 'item'; node: Node } | { kind: 'root'; doc: Document; index: number };

export class OverlayWriter {
  private readonly style: IndentStyle;
  private readonly text: string;
  /** The document's line break, for the lines the merge writes. */
  private readonly eol: string;

  constructor(private readonly target: ValuesDocument) {
    this.style = detectStyle(target);
    this.text = target.text;
    this.eol = lineBreakOf(target.text);
  }

  write(plan: CarryPlan): string {
    const edits: TextEdit[] = [];
    const docs = this.target.docs;
    for (const [d, ov] of [...plan.roots.entries()].sort((a, b) => a[0] - b[0])) {
      const doc = docs[d] as Document.Parsed;
      if (ov.kind === 'removed') edits.push(this.removeDocument(d));
      else edits.push(...this.emit(ov, doc, { kind: 'root', doc, index: d }, 0));
    }
    if (plan.newDocs.length > 0) {
      const blocks = plan.newDocs.map((p) => this.rootLines(p).join(this.eol));
      const parts = docs.length === 0 && this.text.trim() === '' ? blocks : blocks.map((b) => `---${this.eol}${b}`);
      edits.push(insertLines(this.text, this.text.length, [parts.join(this.eol)], 0, this.eol));
    }
    return applyEdits(this.text, edits);
  }

  private removeDocument(d: number): TextEdit {
    const docs = this.target.docs;
    const doc = docs[d] as Document.Parsed;
    const start = d === 0 ? 0 : (docs[d - 1] as Document.Parsed).range[2];
    const end = d === 0 && docs.length > 1 ? (docs[1] as Document.Parsed).range[0] : doc.range[2];
    return { start, end, text: '', depth: 0 };
  }

  private rootLines(p: Pending): string[] {
    if ((p.kind === 'map' && p.entries.length > 0 && p.flowText === undefined) || (p.kind === 'seq' && p.items.length > 0 && p.flowText === undefined)) {
      return collectionLines(p, 0, this.style);
    }
    return [renderPairValue(p, 0, this.style).head];
  }

  private emit(ov: Overlay, doc: Document, place: Place, depth: number): TextEdit[] {
    if (ov.kind === 'fresh') return this.replace(place, ov.value, doc, depth);
    if (ov.kind === 'removed' || (!ov.children && !ov.addedEntries && !ov.addedItems)) return [];
    const node = ov.node;
    const removedAt = [...(ov.children ?? new Map<number, Overlay>()).entries()].filter(([, c]) => c.kind === 'removed').map(([i]) => i);
    const items = (node as YAMLMap | YAMLSeq).items;
    const added = isMap(node) ? (ov.addedEntries?.length ?? 0) : (ov.addedItems?.length ?? 0);
    const left = items.length - removedAt.length + added;
    const deletable = removedAt.every((i) => this.startsLine(isMap(node) ? ((items[i] as Pair).key as Node) : this.dashPos(items[i] as Node)));
    if (left === 0 || !deletable) return this.replace(place, overlayToPending(ov, doc, this.text), doc, depth);

    const edits: TextEdit[] = [];
    for (const [i, child] of ov.children ?? []) {
      if (isMap(node)) {
        const pair = items[i] as Pair;
        if (child.kind === 'removed') edits.push(this.deleteLines((pair.key as Node).range![0], pair.value as Node));
        else edits.push(...this.emit(child, doc, { kind: 'pair', pair }, depth + 1));
      } else {
        const item = items[i] as Node;
        if (child.kind === 'removed') edits.push(this.deleteLines(this.dashPos(item), item));
        else edits.push(...this.emit(child, doc, { kind: 'item', node: item }, depth + 1));
      }
    }
    const at = afterLine(this.text, this.lastLineEnd(node));
    if (isMap(node) && ov.addedEntries?.length) {
      const col = columnOf(this.text, ((items[0] as Pair).key as Node).range![0]);
      const style = this.styleBefore(at, col);
      const entries = ov.addedEntries;
      edits.push(insertLines(this.text, at, entries.flatMap((e, i) => pairLines(e.keyText, e.value, col, i < entries.length - 1 ? this.style : style)), depth, this.eol));
    }
    if (isSeq(node) && ov.addedItems?.length) {
      const col = columnOf(this.text, node.range![0]);
      const style = this.styleBefore(at, col);
      const added = ov.addedItems;
      edits.push(insertLines(this.text, at, added.flatMap((p, i) => itemLines(p, col, i < added.length - 1 ? this.style : style)), depth, this.eol));
    }
    return edits;
  }

  /**
   * The style for text written just before offset `next`: no literal blocks when the next non-blank
   * line is indented deeper than `col` (a comment left from the old value, or under the map).
   */
  private styleBefore(next: number, col: number): IndentStyle {
    const rest = this.text.slice(next);
    const line = /^(?:[ \t]*\r?\n)*([ ]*)\S/.exec(rest);
    return line && (line[1] as string).length > col ? { ...this.style, literalAtEnd: false } : this.style;
  }

  private startsLine(offsetOrNode: Node | number): boolean {
    const offset = typeof offsetOrNode === 'number' ? offsetOrNode : offsetOrNode.range![0];
    return this.text.slice(lineStart(this.text, offset), offset).trim() === '';
  }

  /** Offset of the `-` that introduces a block list item. */
  private dashPos(item: Node): number {
    let i = item.range![0] - 1;
    while (i >= 0 && ' \t\r\n'.includes(this.text[i] as string)) i--;
    if (this.text[i] !== '-') throw mergeBug(`no list dash before offset ${item.range![0]}`);
    return i;
  }

  /** Deletes whole lines from `start`'s line to the end of `value`. */
  private deleteLines(start: number, value: Node): TextEdit {
    return { start: lineStart(this.text, start), end: afterLine(this.text, this.lastLineEnd(value)), text: '', depth: 0 };
  }

  /** Offset just after the `:` that follows a key. */
  private afterColon(key: Node): number {
    const i = this.text.indexOf(':', key.range![1]);
    if (i < 0) throw mergeBug(`no \`:\` after the key at offset ${key.range![0]}`);
    return i + 1;
  }

  /**
   * Where a node's own text ends: after its last scalar. A block collection's parsed range can run on
   * over the comment lines after its last item, up to the next key's indentation.
   */
  private contentEnd(node: Node): number {
    if ((isMap(node) || isSeq(node)) && !node.flow && node.items.length > 0) {
      const last = node.items[node.items.length - 1];
      if (isPair(last)) {
        const value = last.value as Node | null;
        return value?.range ? this.contentEnd(value) : (last.key as Node).range![1];
      }
      return this.contentEnd(last as Node);
    }
    const [start, end] = node.range!;
    let e = end;
    while (e > start && ' \t\r\n'.includes(this.text[e - 1] as string)) e--;
    return e;
  }

  /** The end of a node's last line of its own text, before the line break. */
  private lastLineEnd(node: Node): number {
    return lineEnd(this.text, this.contentEnd(node));
  }

  private replace(place: Place, given: Pending, doc: Document, depth: number): TextEdit[] {
    const old = place.kind === 'pair' ? (place.pair.value as Node | null) : place.kind === 'item' ? place.node : (place.doc.contents as Node | null);
    if (old !== null && deepEqual(nodeToJs(old, doc), pendingToJs(given))) return [];
    const p = withQuotingOf(old, given);
    if (old !== null && isSeq(old)) {
      const listEdit = this.editScalarList(old, p);
      if (listEdit) return [listEdit];
    }
    if (place.kind === 'pair') return this.replacePairValue(place.pair, p, depth);
    if (place.kind === 'item') return this.replaceItem(place.node, p);
    return this.replaceRoot(place, p, depth);
  }

  /** `depth` orders the lines written below the key before those an enclosing map adds at the same offset. */
  private replacePairValue(pair: Pair, p: Pending, depth: number): TextEdit[] {
    const key = pair.key as Node;
    const value = pair.value as Node;
    const colon = this.afterColon(key);
    const keyCol = columnOf(this.text, key.range![0]);
    const r = renderPairValue(p, keyCol, this.styleBefore(afterLine(this.text, this.lastLineEnd(pair.value as Node)), keyCol));
    const head = r.head ? ` ${r.head}` : '';
    const below = r.lines.length > 0 ? `${this.eol}${r.lines.join(this.eol)}` : '';
    const [vStart, vEnd] = value.range!;
    if (vStart === vEnd && isScalar(value) && value.value === null) {
      // `key:` with nothing after it (perhaps a comment): the value goes after the colon, lines after the line.
      const edits: TextEdit[] = [];
      if (head) edits.push({ start: colon, end: colon, text: head, depth });
      if (below) edits.push({ start: lineEnd(this.text, colon), end: lineEnd(this.text, colon), text: below, depth });
      return edits;
    }
    if (!this.text.slice(colon, vEnd).includes('\n')) {
      // One line: replace the value; a trailing comment stays where it was.
      const edits: TextEdit[] = [{ start: colon, end: vEnd, text: head, depth: 0 }];
      if (below) edits.push({ start: lineEnd(this.text, vEnd), end: lineEnd(this.text, vEnd), text: below, depth });
      return edits;
    }
    return [{ start: colon, end: this.lastLineEnd(value), text: head + below, depth: 0 }];
  }

  private replaceItem(item: Node, p: Pending): TextEdit[] {
    const dash = this.dashPos(item);
    const dashCol = columnOf(this.text, dash);
    const lines = itemLines(p, dashCol, this.styleBefore(afterLine(this.text, this.lastLineEnd(item)), dashCol));
    lines[0] = (lines[0] as string).slice(dashCol);
    const end = this.text.slice(dash, item.range![1]).includes('\n') ? this.lastLineEnd(item) : item.range![1];
    return [{ start: dash, end, text: lines.join(this.eol), depth: 0 }];
  }

  private replaceRoot(place: Extract<Place, { kind: 'root' }>, p: Pending, depth: number): TextEdit[] {
    const contents = place.doc.contents as Node | null;
    const lines = this.rootLines(p);
    if (contents?.range && contents.range[0] !== contents.range[1]) {
      return [{ start: contents.range[0], end: this.lastLineEnd(contents), text: lines.join(this.eol), depth }];
    }
    const docs = this.target.docs;
    const next = docs[place.index + 1];
    const at = next ? next.range[0] : this.text.length;
    return [insertLines(this.text, at, lines, depth, this.eol)];
  }

  /**
   * A block list of one-line scalars replaced by another list of scalars: only the lines of items
   * that leave or arrive change (a gate added to `additionalFeatureGates` is one new line).
   */
  private editScalarList(seq: YAMLSeq, p: Pending): TextEdit | undefined {
    if (seq.flow || p.kind !== 'seq' || p.items.length === 0 || seq.items.length === 0) return undefined;
    const oldItems = seq.items as Node[];
    if (!oldItems.every((n) => isScalar(n) && n.range && !n.anchor && !n.tag && n.type !== 'BLOCK_LITERAL' && n.type !== 'BLOCK_FOLDED')) return undefined;
    const newTexts = p.items.map((x) => (x.kind === 'scalar' ? scalarInline(x) : undefined));
    if (newTexts.some((t) => t === undefined)) return undefined;
    const dashes = oldItems.map((n) => this.dashPos(n));
    if (!dashes.every((d, i) => this.startsLine(d) && !this.text.slice(d, (oldItems[i] as Node).range![1]).includes('\n'))) return undefined;

    const starts = dashes.map((d) => lineStart(this.text, d));
    const end = afterLine(this.text, (oldItems[oldItems.length - 1] as Node).range![1]);
    const chunks = starts.map((s, i) => {
      const chunk = this.text.slice(s, starts[i + 1] ?? end);
      return chunk.endsWith('\n') ? chunk : `${chunk}${this.eol}`;
    });
    const oldValues = oldItems.map((n) => (n as { value: unknown }).value);
    const newValues = p.items.map((x) => pendingToJs(x));
    const dashCol = columnOf(this.text, dashes[0] as number);
    let out = '';
    for (const op of lcsAlign(oldValues, newValues)) {
      if (op.kind === 'keep') out += chunks[op.old] as string;
      else if (op.kind === 'add') out += `${' '.repeat(dashCol)}- ${newTexts[op.new] as string}${this.eol}`;
    }
    if (!this.text.slice(starts[0], end).endsWith('\n')) out = out.slice(0, out.length - (out.endsWith('\r\n') ? 2 : 1));
    return { start: starts[0] as number, end, text: out, depth: 0 };
  }
}

/** A typed-in string written over a quoted one keeps the document's quotes (`ip: ""` becomes `ip: "10.0.0.5"`). */
function withQuotingOf(old: Node | null, p: Pending): Pending {
  if (p.kind !== 'scalar' || p.text !== undefined || p.style !== undefined || typeof p.value !== 'string') return p;
  if (!isScalar(old) || (old.type !== 'QUOTE_DOUBLE' && old.type !== 'QUOTE_SINGLE')) return p;
  return { ...p, style: old.type };
}

function mergeBug(detail: string): PilotError {
  return new PilotError('internal', 'values.merge-layout', `The values merge met a layout it does not handle (${detail}); nothing was written.`, {
    hint: 'This is a bug in upgrade-pilot; please report it with the pack values.',
  });
}
