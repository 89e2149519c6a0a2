/**
 * The YAML scanner's documents against the yaml package's, node by node: kinds, values (with the
 * package's number formats), scalar styles and sources, and the offsets the merge and the diff use
 * (where each node starts; where a scalar or a flow collection ends; where each document starts and ends).
 */
import { isMap, isPair, isScalar, isSeq, parseAllDocuments, type Document, type Node } from 'yaml';
import { parseOptions } from '../../src/io/yaml-scan-nodes.js';

/** The first difference between the two readings, in words (undefined when they agree). */
export function firstDifference(text: string, scanned: readonly Document.Parsed[]): string | undefined {
  const full = parseAllDocuments(text, parseOptions) as Document.Parsed[];
  if (!Array.isArray(full)) return 'the package reads no document list';
  const bad = full.find((d) => d.errors.length > 0);
  if (bad) return `the package reports an error the scanner did not: ${bad.errors[0]!.message.split('\n')[0]}`;
  if (full.length !== scanned.length) return `${scanned.length} document(s) scanned, ${full.length} parsed`;
  for (let i = 0; i < full.length; i++) {
    const a = scanned[i]!;
    const b = full[i]!;
    if (a.range[0] !== b.range[0] || a.range[2] !== b.range[2]) return `document ${i}: range ${JSON.stringify(a.range)} scanned, ${JSON.stringify(b.range)} parsed`;
    const d = nodeDifference(text, a.contents as Node | null, b.contents as Node | null, `document ${i}`);
    if (d) return d;
  }
  return undefined;
}

function nodeDifference(text: string, a: Node | null, b: Node | null, at: string): string | undefined {
  const where = (n: Node | null) => (n?.range ? `${n.range[0]}-${n.range[1]} ${JSON.stringify(text.slice(n.range[0], Math.min(n.range[1], n.range[0] + 40)))}` : 'none');
  const kind = (n: Node | null) => (n === null ? 'null' : isMap(n) ? 'map' : isSeq(n) ? 'seq' : isScalar(n) ? 'scalar' : 'other');
  if (kind(a) !== kind(b)) return `${at}: ${kind(a)} scanned at ${where(a)}, ${kind(b)} parsed at ${where(b)}`;
  if (a === null || b === null) return undefined;
  if (a.range?.[0] !== b.range?.[0]) return `${at}: starts at ${where(a)} scanned, ${where(b)} parsed`;
  if (isScalar(a) && isScalar(b)) {
    const same = Object.is(a.value, b.value) && a.type === b.type && a.source === b.source && a.format === b.format && a.minFractionDigits === b.minFractionDigits && a.range![1] === b.range![1];
    if (!same) return `${at}: scalar ${JSON.stringify([a.value, a.type, a.source, a.format, a.minFractionDigits, a.range])} scanned, ${JSON.stringify([b.value, b.type, b.source, b.format, b.minFractionDigits, b.range])} parsed`;
    if (a.anchor || a.tag || b.anchor || b.tag) return `${at}: an anchor or tag`;
    return undefined;
  }
  const ca = a as unknown as { items: unknown[]; flow?: boolean };
  const cb = b as unknown as { items: unknown[]; flow?: boolean };
  if (Boolean(ca.flow) !== Boolean(cb.flow)) return `${at}: flow ${Boolean(ca.flow)} scanned, ${Boolean(cb.flow)} parsed`;
  if (ca.flow && a.range![1] !== b.range![1]) return `${at}: flow collection ends at ${a.range![1]} scanned, ${b.range![1]} parsed`;
  if (ca.items.length !== cb.items.length) return `${at}: ${ca.items.length} items scanned, ${cb.items.length} parsed`;
  for (let i = 0; i < ca.items.length; i++) {
    const x = ca.items[i];
    const y = cb.items[i];
    if (isPair(x) && isPair(y)) {
      const k = nodeDifference(text, x.key as Node, y.key as Node, `${at} key ${i}`);
      if (k) return k;
      const v = nodeDifference(text, x.value as Node | null, y.value as Node | null, `${at}.${String((y.key as { value?: unknown }).value)}`);
      if (v) return v;
    } else {
      const v = nodeDifference(text, x as Node | null, y as Node | null, `${at}[${i}]`);
      if (v) return v;
    }
  }
  return undefined;
}
