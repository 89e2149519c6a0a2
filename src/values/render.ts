/**
 * Writing pending values as block YAML in the style of the document they go into: its indentation
 * step, where its list dashes sit, `key: value` on one line when the value fits. Scalars copied
 * from a parsed document are written exactly as they were written there.
 */
import { isMap, isSeq, Scalar, stringify, type Node } from 'yaml';
import type { Pending, PendingScalar } from './pending.js';
import type { ValuesDocument } from './values-document.js';
import { plainIsAmbiguousInYaml11 } from './yaml11.js';

export interface IndentStyle {
  /** Spaces between a key and the keys of the map under it. */
  unit: number;
  /** Spaces between a key and the dashes of the list under it (0 for `key:\n- item`). */
  seqOffset: number;
  /**
   * Whether the last value written may be a literal block (`|`). Not just above more-indented
   * comment lines: a literal block would take them in as its own text.
   */
  literalAtEnd?: boolean;
}

/** The style for a value that something else follows (only the last value can take in the lines after it). */
function notLast(style: IndentStyle): IndentStyle {
  return style.literalAtEnd === false ? { ...style, literalAtEnd: true } : style;
}

/** What follows `key:` (or `- `) on its line, and the lines below it. */
export interface ValueRendering {
  head: string;
  lines: string[];
}

const pad = (n: number): string => ' '.repeat(n);

export function columnOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf('\n', offset - 1) + 1);
}

/** The indentation of the document, from its first nested map and first list under a key. */
export function detectStyle(values: ValuesDocument): IndentStyle {
  let unit: number | undefined;
  let seqOffset: number | undefined;
  const queue: unknown[] = values.docs.map((d) => d.contents);
  for (let i = 0; i < queue.length && i < 5000 && (unit === undefined || seqOffset === undefined); i++) {
    const node = queue[i];
    if (isMap(node) && !node.flow) {
      for (const pair of node.items) {
        const key = pair.key as Node | null;
        const value = pair.value as Node | null;
        if (!key?.range || !value) continue;
        const keyCol = columnOf(values.text, key.range[0]);
        if (unit === undefined && isMap(value) && !value.flow && (value.items[0]?.key as Node | null)?.range) {
          const childCol = columnOf(values.text, ((value.items[0]?.key as Node).range as [number, number, number])[0]);
          if (childCol > keyCol) unit = childCol - keyCol;
        }
        if (seqOffset === undefined && isSeq(value) && !value.flow && value.range && value.items.length > 0) {
          const dashCol = columnOf(values.text, value.range[0]);
          if (dashCol >= keyCol) seqOffset = dashCol - keyCol;
        }
        queue.push(value);
      }
    } else if (isSeq(node) && !node.flow) {
      queue.push(...node.items);
    }
  }
  return { unit: unit ?? 2, seqOffset: seqOffset ?? unit ?? 2 };
}

/**
 * One line, always: JSON's escapes are valid in a YAML double-quoted string (the `yaml` package
 * would fold line breaks into unindented lines). Characters YAML does not allow raw are escaped too.
 */
function doubleQuoted(value: string): string {
  return JSON.stringify(value).replace(/[\u007f-\u009f\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The scalar on one line, or `undefined` when it is a multi-line string best written as a block. */
export function scalarInline(p: PendingScalar): string | undefined {
  if (p.text !== undefined) return p.text;
  const v = p.value;
  if (typeof v === 'string' && v.includes('\n')) {
    return p.style === Scalar.QUOTE_DOUBLE || p.style === Scalar.QUOTE_SINGLE ? doubleQuoted(v) : undefined;
  }
  if (typeof v === 'string' && p.style === Scalar.QUOTE_DOUBLE) return doubleQuoted(v);
  const s = new Scalar(v);
  if (p.style && p.style !== Scalar.BLOCK_LITERAL && p.style !== Scalar.BLOCK_FOLDED) s.type = p.style;
  const out = stringify(s, { lineWidth: 0 }).replace(/\n$/, '');
  if (typeof v === 'string' && out === v && plainIsAmbiguousInYaml11(v)) return doubleQuoted(v);
  if (!out.includes('\n')) return out;
  return typeof v === 'string' ? doubleQuoted(v) : JSON.stringify(v);
}

/**
 * A literal block (`|` or `|-`) for a multi-line string, or `undefined` when the string needs
 * something a plain literal block cannot say (leading spaces on the first line, kept trailing
 * blank lines, control characters): those are written double-quoted.
 */
export function literalBlock(value: string): { head: string; content: string[] } | undefined {
  if (/[\0-\x08\x0b-\x1f\x7f-\x9f\ufeff]/.test(value)) return undefined;
  if (value.endsWith('\n\n') || value.trim() === '') return undefined;
  const firstText = value.split('\n').find((l) => l !== '');
  if (firstText === undefined || /^[ \t]/.test(firstText)) return undefined;
  const clip = value.endsWith('\n');
  const content = (clip ? value.slice(0, -1) : value).split('\n');
  return { head: clip ? '|' : '|-', content };
}

function inlineOf(p: Pending): string | undefined {
  if (p.kind === 'scalar') return scalarInline(p);
  if (p.flowText !== undefined) return p.flowText;
  if (p.kind === 'map' && p.entries.length === 0) return '{}';
  if (p.kind === 'seq' && p.items.length === 0) return '[]';
  return undefined;
}

function blockScalarLines(p: PendingScalar, contentCol: number, style: IndentStyle): ValueRendering {
  const v = String(p.value);
  const block = style.literalAtEnd === false ? undefined : literalBlock(v);
  if (!block) return { head: doubleQuoted(v), lines: [] };
  return { head: block.head, lines: block.content.map((l) => (l === '' ? '' : pad(contentCol) + l)) };
}

/** The value of a `key:` whose key sits at column `col`. */
export function renderPairValue(p: Pending, col: number, style: IndentStyle): ValueRendering {
  const inline = inlineOf(p);
  if (inline !== undefined) return { head: inline, lines: [] };
  if (p.kind === 'scalar') return blockScalarLines(p, col + style.unit, style);
  if (p.kind === 'map') return { head: '', lines: collectionLines(p, col + style.unit, style) };
  return { head: '', lines: collectionLines(p, col + style.seqOffset, style) };
}

export function pairLines(keyText: string, p: Pending, col: number, style: IndentStyle): string[] {
  const r = renderPairValue(p, col, style);
  return [`${pad(col)}${keyText}:${r.head ? ` ${r.head}` : ''}`, ...r.lines];
}

/** A list item whose dash sits at column `dashCol`; maps and lists start on the dash's line. */
export function itemLines(p: Pending, dashCol: number, style: IndentStyle): string[] {
  const inline = inlineOf(p);
  if (inline !== undefined) return [`${pad(dashCol)}-${inline ? ` ${inline}` : ''}`];
  if (p.kind === 'scalar') {
    const r = blockScalarLines(p, dashCol + 2, style);
    return [`${pad(dashCol)}- ${r.head}`, ...r.lines];
  }
  const inner = collectionLines(p, dashCol + 2, style);
  inner[0] = `${pad(dashCol)}- ${(inner[0] ?? '').slice(dashCol + 2)}`;
  return inner;
}

/** The lines of a non-empty map (keys at `col`) or list (dashes at `col`). */
export function collectionLines(p: Pending, col: number, style: IndentStyle): string[] {
  if (p.kind === 'map') return p.entries.flatMap((e, i) => pairLines(e.keyText, e.value, col, i < p.entries.length - 1 ? notLast(style) : style));
  if (p.kind === 'seq') return p.items.flatMap((item, i) => itemLines(item, col, i < p.items.length - 1 ? notLast(style) : style));
  return [`${pad(col)}${scalarInline(p) ?? doubleQuoted(String(p.value))}`];
}
