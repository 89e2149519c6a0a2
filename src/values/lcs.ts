/** Aligning two short lists item by item, for edits that keep the lines of unchanged items. */
import { scalarEqual } from '../io/deep-equal.js';

export type AlignOp = { kind: 'keep'; old: number } | { kind: 'drop'; old: number } | { kind: 'add'; new: number };

/** Longest common subsequence alignment of two short lists. */
export function lcsAlign(a: readonly unknown[], b: readonly unknown[]): AlignOp[] {
  const m = a.length;
  const n = b.length;
  const table: number[][] = Array.from({ length: m + 1 }, () => new Array<number>(n + 1).fill(0));
  for (let i = m - 1; i >= 0; i--) {
    for (let j = n - 1; j >= 0; j--) {
      const row = table[i] as number[];
      row[j] = scalarEqual(a[i], b[j]) ? (table[i + 1] as number[])[j + 1]! + 1 : Math.max((table[i + 1] as number[])[j]!, row[j + 1]!);
    }
  }
  const ops: AlignOp[] = [];
  let i = 0;
  let j = 0;
  while (i < m || j < n) {
    if (i < m && j < n && scalarEqual(a[i], b[j])) {
      ops.push({ kind: 'keep', old: i++ });
      j++;
    } else if (j < n && (i >= m || (table[i] as number[])[j + 1]! >= (table[i + 1] as number[])[j]!)) ops.push({ kind: 'add', new: j++ });
    else ops.push({ kind: 'drop', old: i++ });
  }
  return ops;
}
