/**
 * The new defaults and the merged values as plain values, for the merge's check, built together.
 * The check compares the merged values with the new defaults plus the carry list applied; converting
 * both whole documents to plain values (and copying one) was most of the merge's time. Here a subtree
 * written alike in both texts (the scanner's nodes: the same text from the same column is the same
 * value, see `sameScannedText`) and under no carried path is not converted at all: both trees get
 * the same token object in its place, which `deepEqual` finds identical and passes. The carry list
 * changes only the target's tree along carried paths (lists on them are never shared, since
 * positions shift), so it never reaches a token, and the comparison is as exact as comparing two
 * whole conversions. The trees are only for that comparison.
 */
import { isMap, type Node, type Pair, type Scalar } from 'yaml';
import type { CarryItem } from './carry.js';
import { sameScannedText } from './equal.js';
import { parseConcretePath } from './path.js';
import { scannedToJs } from '../io/yaml-scan-nodes.js';
import { valuesToJs, type ValuesDocument } from './values-document.js';

/** Where carried paths go: one level per path segment; `all` below a carried setting (or in a list on a path). */
interface Trie {
  all: boolean;
  keys: Map<string, Trie>;
}

const newTrie = (): Trie => ({ all: false, keys: new Map() });

function carriedPaths(carry: readonly CarryItem[], docs: number): Map<number, Trie> | undefined {
  const roots = new Map<number, Trie>();
  for (const item of carry) {
    const path = parseConcretePath(item.path);
    const d = path.doc ?? 0;
    // Whole documents added or removed shift the documents after them: nothing is shared then.
    if (d >= docs || path.segments.length === 0) return undefined;
    let t = roots.get(d) ?? newTrie();
    roots.set(d, t);
    for (const seg of path.segments) {
      if (t.all) break;
      if (seg.kind !== 'key') {
        t.all = true;
        break;
      }
      const next = t.keys.get(seg.key) ?? newTrie();
      t.keys.set(seg.key, next);
      t = next;
    }
    t.all = true;
  }
  return roots;
}

function setKey(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
  else out[key] = value;
}

const keyOf = (pair: Pair): string => {
  const k = (pair.key as Scalar).value;
  return k === null ? '' : String(k);
};

/** The key of the token objects (NUL is not a key any values document holds). */
const SAME_TEXT = '\u0000same text';

class Pairing {
  private tokens = 0;

  constructor(
    private readonly targetText: string,
    private readonly mergedText: string,
  ) {}

  /** Both nodes as plain values; `trie` is where carried paths go under them (undefined: none). */
  both(t: Node | null, m: Node | null, trie: Trie | undefined): [unknown, unknown] {
    if (t === null || m === null) return [scannedToJs(t), scannedToJs(m)];
    if (trie === undefined && sameScannedText(t, this.targetText, m, this.mergedText)) {
      // One token per shared subtree, each unlike any other (a value no document holds at this place).
      const token = { [SAME_TEXT]: (this.tokens += 1) };
      return [token, token];
    }
    if (trie?.all || !isMap(t) || !isMap(m)) return [scannedToJs(t), scannedToJs(m)];
    const ti = t.items as Pair[];
    const mi = m.items as Pair[];
    // The same keys in the same order (a merge mostly edits values in place): paired by position.
    if (ti.length === mi.length && ti.every((p, i) => keyOf(p) === keyOf(mi[i]!))) {
      const tOut: Record<string, unknown> = {};
      const mOut: Record<string, unknown> = {};
      ti.forEach((pair, i) => {
        const key = keyOf(pair);
        const [a, b] = this.both(pair.value as Node | null, mi[i]!.value as Node | null, trie?.keys.get(key));
        setKey(tOut, key, a);
        setKey(mOut, key, b);
      });
      return [tOut, mOut];
    }
    const merged = new Map<string, Node | null>();
    for (const pair of m.items as Pair[]) merged.set(keyOf(pair), pair.value as Node | null);
    const tOut: Record<string, unknown> = {};
    const mOut: Record<string, unknown> = {};
    for (const pair of t.items as Pair[]) {
      const key = keyOf(pair);
      const value = pair.value as Node | null;
      if (merged.has(key)) {
        const [a, b] = this.both(value, merged.get(key) as Node | null, trie?.keys.get(key));
        setKey(tOut, key, a);
        setKey(mOut, key, b);
        merged.delete(key);
      } else setKey(tOut, key, scannedToJs(value));
    }
    for (const [key, value] of merged) setKey(mOut, key, scannedToJs(value));
    return [tOut, mOut];
  }
}

/**
 * Both documents as plain values (one entry per document), subtrees written alike replaced by the
 * same token in both. `ownTarget`: the target's tree is fresh and shares nothing, so `applyCarryToJs`
 * may change it (along carried paths) without a copy. Documents the scanner did not read are converted whole.
 */
export function pairedJs(target: ValuesDocument, merged: ValuesDocument, carry: readonly CarryItem[]): { target: unknown[]; merged: unknown[]; ownTarget: boolean } {
  const tries = target.scanned && merged.scanned ? carriedPaths(carry, target.docs.length) : undefined;
  // (A tree converted from a document with aliases shares objects where they point: not the caller's to change.)
  if (!tries) return { target: valuesToJs(target), merged: valuesToJs(merged), ownTarget: target.scanned === true };
  const pairing = new Pairing(target.text, merged.text);
  const t: unknown[] = [];
  const m: unknown[] = [];
  for (let i = 0; i < Math.max(target.docs.length, merged.docs.length); i++) {
    const td = target.docs[i];
    const md = merged.docs[i];
    if (td && md) {
      const [a, b] = pairing.both(td.contents as Node | null, md.contents as Node | null, tries.get(i));
      t.push(a);
      m.push(b);
    } else if (td) t.push(scannedToJs(td.contents as Node | null));
    else if (md) m.push(scannedToJs(md.contents as Node | null));
  }
  return { target: t, merged: m, ownTarget: true };
}
