/**
 * A pack's values string parsed once, with its source text kept: the diff walks the nodes, the
 * merge edits the text at the nodes' offsets, and neither parses the same string twice when the
 * caller passes the parsed form along.
 *
 * Read by the YAML scanner (`src/io/yaml-scan.ts`) when the text is in the forms pack values are
 * written in, else by the yaml package (which also words every error); both give the package's nodes.
 */
import { isAlias, isMap, isScalar, isSeq, parseAllDocuments, type Document, type Node } from 'yaml';
import { InputError } from '../errors.js';
import { sanitizeText } from '../text/sanitize.js';
import { firstDuplicateKey } from '../io/yaml-keys.js';
import { isScannedNode, parseOptions, scannedToJs, VALUES_MAX_ALIAS_COUNT } from '../io/yaml-scan-nodes.js';
import { scanYaml } from '../io/yaml-scan.js';

export interface ValuesDocument {
  readonly text: string;
  /** One entry per YAML document; an empty or comment-only string has none. */
  readonly docs: readonly Document.Parsed[];
  /**
   * Read by the YAML scanner, and its nodes not changed since: every node is its own text (no
   * anchors, aliases or tags), so two nodes with the same text at the same column hold equal values.
   */
  readonly scanned?: true;
}

export type ValuesInput = string | ValuesDocument;

/** uniqueKeys off: the library's check is quadratic; `parseValues` checks keys in one pass instead. */
export { parseOptions };

export interface ParseValuesOptions {
  /** Read with the yaml package even when the scanner could (the merge tests compare the two paths). */
  full?: boolean;
}

/** Parses a values string. `what` names it in the error (`the deployed values of nginx`). */
export function parseValues(text: string, what = 'the values', options: ParseValuesOptions = {}): ValuesDocument {
  if (!options.full) {
    const scanned = scanYaml(text);
    if (scanned) return { text, docs: scanned, scanned: true };
  }
  const parsed = parseAllDocuments(text, parseOptions);
  const docs = Array.isArray(parsed) ? (parsed as Document.Parsed[]) : [];
  for (const doc of docs) {
    const err = doc.errors[0];
    const duplicate = err ? undefined : firstDuplicateKey(doc);
    if (err || duplicate) {
      const pos = linePos(text, err ? err.pos[0] : duplicate!.offset);
      const message = err ? sanitizeText(err.message.split('\n')[0] ?? '', { max: 200 }) : `Map keys must be unique (\`${sanitizeText(duplicate!.key, { max: 60 })}\` is repeated)`;
      throw new InputError('values.yaml', `${capitalize(what)} are not valid YAML at line ${pos.line}, column ${pos.col}: ${message}`, {
        hint: 'Fix the YAML at that position (indentation, quotes, a duplicated key) in the pack values.',
        where: `line ${pos.line}, column ${pos.col}`,
      });
    }
  }
  // Aliases are written `*name`: without a `*` there is nothing to count.
  if (text.includes('*')) {
    for (const doc of docs) {
      try {
        doc.toJS({ maxAliasCount: VALUES_MAX_ALIAS_COUNT });
      } catch (err) {
        if (!(err instanceof ReferenceError)) throw err;
        throw new InputError('values.yaml-aliases', `${capitalize(what)} use YAML aliases (*name) that ${/exhaustion|excessive/i.test(err.message) ? `stand for more than ${VALUES_MAX_ALIAS_COUNT} values in all (an "alias bomb")` : 'cannot be resolved'}.`, {
          hint: 'Write the values out instead of repeating them through aliases; pack values never need that many.',
        });
      }
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

/** Every document as plain values (one entry per document). */
export function valuesToJs(values: ValuesDocument): unknown[] {
  if (values.scanned) return values.docs.map((d) => scannedToJs(d.contents as Node | null));
  return values.docs.map((d) => d.toJS({ maxAliasCount: VALUES_MAX_ALIAS_COUNT }) as unknown);
}

export function nodeToJs(node: Node | undefined, doc: Document): unknown {
  if (node === undefined) return undefined;
  if (isScannedNode(node)) return scannedToJs(node);
  return node.toJS(doc, { maxAliasCount: VALUES_MAX_ALIAS_COUNT }) as unknown;
}
