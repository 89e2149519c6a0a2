/**
 * A pack's values string parsed once, with its source text kept: the diff walks the nodes, the
 * merge edits the text at the nodes' offsets, and neither parses the same string twice when the
 * caller passes the parsed form along.
 */
import { isAlias, isMap, isScalar, isSeq, parseAllDocuments, type Document, type Node } from 'yaml';
import { InputError } from '../errors.js';

export interface ValuesDocument {
  readonly text: string;
  /** One entry per YAML document; an empty or comment-only string has none. */
  readonly docs: readonly Document.Parsed[];
}

export type ValuesInput = string | ValuesDocument;

export const parseOptions = { prettyErrors: false, uniqueKeys: true, strict: true } as const;

/** Parses a values string. `what` names it in the error (`the deployed values of nginx`). */
export function parseValues(text: string, what = 'the values'): ValuesDocument {
  const parsed = parseAllDocuments(text, parseOptions);
  const docs = Array.isArray(parsed) ? (parsed as Document.Parsed[]) : [];
  for (const doc of docs) {
    const err = doc.errors[0];
    if (err) {
      const pos = linePos(text, err.pos[0]);
      throw new InputError('values.yaml', `${capitalize(what)} are not valid YAML at line ${pos.line}, column ${pos.col}: ${err.message.split('\n')[0]}`, {
        hint: 'Fix the YAML at that position (indentation, quotes, a duplicated key) in the pack values.',
        where: `line ${pos.line}, column ${pos.col}`,
      });
    }
  }
  return { text, docs };
}

/** Line and column (1-based) of an offset; counted only when there is an error to report. */
function linePos(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, col: offset - before.lastIndexOf('\n') };
}

export function toValuesDocument(input: ValuesInput, what: string): ValuesDocument {
  return typeof input === 'string' ? parseValues(input, what) : input;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export type NodeKind = 'map' | 'seq' | 'scalar';

/** The node an alias points at; other nodes as they are. */
export function deref(node: Node | null | undefined, doc: Document): Node | undefined {
  if (node === null || node === undefined) return undefined;
  if (isAlias(node)) return (node.resolve(doc) as Node | undefined) ?? undefined;
  return node;
}

export function kindOf(node: Node): NodeKind {
  if (isMap(node)) return 'map';
  if (isSeq(node)) return 'seq';
  return 'scalar';
}

/** A map key as the path names it. Non-scalar keys (rare) are named by their JSON form. */
export function keyName(key: unknown, doc: Document): string {
  if (isScalar(key)) return String(key.value);
  if (key !== null && typeof key === 'object' && 'toJS' in key) return JSON.stringify((key as Node).toJS(doc));
  return String(key);
}

export function nodeToJs(node: Node | undefined, doc: Document): unknown {
  if (node === undefined) return undefined;
  return node.toJS(doc, { maxAliasCount: 100 }) as unknown;
}
