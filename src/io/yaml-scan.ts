/**
 * A scanner for the YAML people write by hand and tools write for them (pack values, the runbook,
 * the params file, a kubeconfig): block maps and lists by indentation, one-line scalars (plain,
 * quoted) and flow collections, literal and folded blocks (`|`, `|-`, `>`, `>-`), comments and `---`
 * between documents. It builds the yaml package's own nodes with the offsets the package gives them
 * (the values merge edits the text at those offsets, the diff walks the nodes, a validation error
 * points at a line), in one pass over the text: several times faster than the package's lexer,
 * parser and composer, and without their start-up cost in a short command (BENCHMARKS.md).
 *
 * Rarer forms are not read here: anchors and aliases, tags, `?` keys, kept blocks (`|+`) and
 * indentation indicators, scalars and flow collections over several lines, tabs outside comments and
 * blocks, CR line breaks and other control characters, repeated keys, anything malformed. For a text
 * holding any of them `scanYaml` answers `undefined` and the caller parses it with the package, which
 * also words its errors. What is read here is exactly what the package reads (test/io/yaml-scan.test.ts
 * compares the two on every real pack values document, a table of forms and random damage to them).
 */
import type { Document, Node, Pair, Range, Scalar } from 'yaml';
import { documentNode, mapNode, pairNode, scalarNode, seqNode } from './yaml-scan-nodes.js';
import { COLON, DASH, flowCollection, HASH, LF, NotScannable, notScannable, plainCannotStart, plainScalar, quotedScalar, SPACE, unusual } from './yaml-scan-scalars.js';

/** The documents of `text`, or `undefined` when it holds a form only the full parser reads. */
export function scanYaml(text: string): Document.Parsed[] | undefined {
  try {
    return new Scanner(text).documents();
  } catch (err) {
    if (err instanceof NotScannable) return undefined;
    throw err;
  }
}

/** What made `scanYaml` give up on a text (for tests and for finding what to teach it next). */
export function whyNotScanned(text: string): string | undefined {
  try {
    new Scanner(text).documents();
    return undefined;
  } catch (err) {
    if (err instanceof NotScannable) return err.why;
    throw err;
  }
}

const isBreakOrEnd = (c: number) => c === LF || Number.isNaN(c);
const isSpaceOrEnd = (c: number) => c === SPACE || c === LF || Number.isNaN(c);
/** Characters of a literal block the scanner leaves to the full parser (a tab is text there). */
const unusualInBlock = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff]/;

class Scanner {
  private readonly len: number;
  /** Set by each node read: the start of the next line with content after it (or the end of the text)… */
  private next = 0;
  /** …and that line's indentation. */
  private nextIndent = 0;
  /** Set by `keyAt`: the offset of the key's `:`. */
  private colon = 0;

  constructor(private readonly text: string) {
    this.len = text.length;
  }

  documents(): Document.Parsed[] {
    const docs: Document.Parsed[] = [];
    let p = this.nextContent(0);
    while (p < this.len) {
      let marker = -1;
      if (this.isMarker(p)) {
        marker = p;
        const at = this.skipSpaces(p + 3);
        p = this.nextContent(this.restOfLine(p + 3));
        if (p >= this.len || this.isMarker(p)) {
          // An empty document ends where its null does, or (as the package has it) after the comments that follow.
          const end = this.text.lastIndexOf('#', p) >= at ? p : at;
          docs.push(documentNode(scalarNode(null, '', 'PLAIN', [at, at, end]), [marker, at, end]));
          continue;
        }
      }
      if (this.text.startsWith('...', p) && isSpaceOrEnd(this.text.charCodeAt(p + 3))) notScannable('a document end marker');
      const start = marker >= 0 ? marker : p;
      const contents = this.blockNode(p, this.nextIndent, -1);
      p = this.next;
      if (p < this.len && !this.isMarker(p)) notScannable('content after the document root');
      docs.push(documentNode(contents, [start, (contents.range as Range)[2], p]));
    }
    return docs;
  }

  private isMarker(p: number): boolean {
    return this.text.charCodeAt(p) === DASH && this.text.startsWith('---', p) && isSpaceOrEnd(this.text.charCodeAt(p + 3));
  }

  /** The start of the line after the one holding `i`. */
  private afterLine(i: number): number {
    const e = this.text.indexOf('\n', i);
    return e < 0 ? this.len : e + 1;
  }

  /**
   * From a line start, past blank and comment lines (a comment may hold anything: the package
   * ignores it): the start of the next line with content, also left in `next` with its indentation.
   */
  private nextContent(p: number): number {
    const text = this.text;
    while (p < this.len) {
      let i = p;
      while (text.charCodeAt(i) === SPACE) i++;
      const c = text.charCodeAt(i);
      if (c === LF) p = i + 1;
      else if (c === HASH) p = this.afterLine(i);
      else if (i >= this.len) break;
      else {
        this.next = p;
        this.nextIndent = i - p;
        return p;
      }
    }
    this.next = this.len;
    return this.len;
  }

  /** After a value on its line: spaces and perhaps a comment. Returns the start of the next line. */
  private restOfLine(i: number): number {
    const at = this.skipSpaces(i);
    const c = this.text.charCodeAt(at);
    if (c === LF) return at + 1;
    if (at >= this.len) return this.len;
    if (c === HASH && at > i) return this.afterLine(at);
    return notScannable('more on the line after a value');
  }

  private skipSpaces(i: number): number {
    while (this.text.charCodeAt(i) === SPACE) i++;
    return i;
  }

  private isDash(i: number): boolean {
    return this.text.charCodeAt(i) === DASH && isSpaceOrEnd(this.text.charCodeAt(i + 1));
  }

  /** A block map or list whose first line starts at `p`, indented by `col` (more than its parent's `parent`). */
  private blockNode(p: number, col: number, parent: number): Node {
    if (col <= parent) notScannable('a block node not indented under its parent');
    return this.isDash(p + col) ? this.blockSeq(p + col, col) : this.blockMap(p + col, col);
  }

  /** The value of a map entry or list item when nothing follows its indicator on the line. */
  private valueBelow(at: number, col: number, sameColumnSeq: boolean): Node {
    const p = this.nextContent(this.afterLine(at));
    if (p < this.len && !this.isMarker(p)) {
      const ind = this.nextIndent;
      if (ind > col) return this.blockNode(p, ind, col);
      if (sameColumnSeq && ind === col && this.isDash(p + ind)) return this.blockSeq(p + ind, ind);
    }
    return scalarNode(null, '', 'PLAIN', [at, at, at]);
  }

  private blockMap(first: number, col: number): Node {
    const items: Pair[] = [];
    let seen: Set<unknown> | undefined;
    let k = first;
    for (;;) {
      const key = this.keyAt(k);
      // Repeated keys are refused by the full parser, with their position.
      const v = key.value;
      if (seen) {
        if (seen.has(v)) notScannable('a repeated key');
        seen.add(v);
      } else {
        for (const pair of items) if ((pair.key as Scalar).value === v || (v !== v && (pair.key as Scalar).value !== (pair.key as Scalar).value)) notScannable('a repeated key');
        if (items.length >= 8) seen = new Set(items.map((pair) => (pair.key as Scalar).value).concat([v]));
      }
      const at = this.skipSpaces(this.colon + 1);
      const c = this.text.charCodeAt(at);
      const value = isBreakOrEnd(c) || c === HASH ? this.valueBelow(at, col, true) : this.inlineValue(at, col);
      items.push(pairNode(key, value));
      const p = this.next;
      if (p >= this.len || this.isMarker(p)) break;
      const ind = this.nextIndent;
      if (ind < col) break;
      if (ind > col) notScannable('a line indented deeper than its map');
      if (this.isDash(p + ind)) notScannable('a list item at its map’s indentation');
      k = p + ind;
    }
    const end = ((items[items.length - 1] as Pair).value as Node).range![2];
    return mapNode(items, [first, end, end], false);
  }

  private blockSeq(first: number, col: number): Node {
    const items: Node[] = [];
    let d = first;
    for (;;) {
      const at = this.skipSpaces(d + 1);
      const c = this.text.charCodeAt(at);
      let item: Node;
      if (isBreakOrEnd(c) || c === HASH) item = this.valueBelow(at, col, false);
      else if (this.isDash(at)) notScannable('a list item that starts a list');
      else if (this.startsKey(at)) item = this.blockMap(at, col + (at - d));
      else item = this.inlineValue(at, col);
      items.push(item);
      const p = this.next;
      if (p >= this.len || this.isMarker(p)) break;
      const ind = this.nextIndent;
      if (ind < col) break;
      if (ind > col) notScannable('a line indented deeper than its list');
      if (!this.isDash(p + ind)) break;
      d = p + ind;
    }
    const end = (items[items.length - 1] as Node).range![2];
    return seqNode(items, [first, end, end], false);
  }

  /** Whether a `key:` (plain or quoted, then `: ` or `:` at the end of the line) starts at `i`. */
  private startsKey(i: number): boolean {
    const text = this.text;
    const c = text.charCodeAt(i);
    if (c === 34 || c === 39) {
      const after = this.skipSpaces(quotedScalar(text, i).range![1]);
      return text.charCodeAt(after) === COLON && isSpaceOrEnd(text.charCodeAt(after + 1));
    }
    if (plainCannotStart(text, i, false)) return false;
    for (let k = i; k < this.len; k++) {
      const ch = text.charCodeAt(k);
      if (ch === LF) return false;
      if (ch === COLON && isSpaceOrEnd(text.charCodeAt(k + 1))) return true;
      if (ch === HASH && text.charCodeAt(k - 1) === SPACE) return false;
    }
    return false;
  }

  /** The key that starts at `i`; the offset of its `:` is left in `colon`. */
  private keyAt(i: number): Scalar {
    const text = this.text;
    const c = text.charCodeAt(i);
    if (c === 34 || c === 39) {
      const key = quotedScalar(text, i);
      const colon = this.skipSpaces(key.range![1]);
      if (text.charCodeAt(colon) !== COLON || !isSpaceOrEnd(text.charCodeAt(colon + 1))) notScannable('a quoted scalar where a key was expected');
      this.colon = colon;
      return key;
    }
    if (plainCannotStart(text, i, false)) notScannable('a key the scanner does not read');
    const end = this.plainEnd(i, true);
    if (this.colon < 0) notScannable('a line that is neither a key nor a list item');
    if (end - i > 1024) notScannable('a key longer than 1024 characters');
    return plainScalar(text.slice(i, end), [i, end, end]);
  }

  /**
   * Where a one-line plain scalar that starts at `i` ends: after its last character before a comment
   * or the line's end. `asKey`: it ends at a `: ` as well, whose offset is left in `colon` (-1 when
   * there is none); in a value a `: ` is a mapping on one line, which the scanner leaves.
   */
  private plainEnd(i: number, asKey: boolean): number {
    const text = this.text;
    let end = i;
    this.colon = -1;
    for (let k = i; k < this.len; k++) {
      const ch = text.charCodeAt(k);
      if (ch <= SPACE) {
        if (ch === LF) break;
        if (ch === SPACE) continue;
        notScannable('a tab or a control character');
      }
      if (ch === COLON) {
        if (isSpaceOrEnd(text.charCodeAt(k + 1))) {
          if (!asKey) notScannable('a mapping inside a one-line value');
          this.colon = k;
          return end;
        }
      } else if (ch === HASH) {
        if (text.charCodeAt(k - 1) === SPACE) break;
      } else if (ch >= 127 && unusual(ch)) notScannable('an unusual character');
      end = k + 1;
    }
    return end;
  }

  /** A value that starts on its key's (or dash's) line at `at`; `parent` is the column of that key (or dash). */
  private inlineValue(at: number, parent: number): Node {
    const text = this.text;
    const c = text.charCodeAt(at);
    let node: Node;
    let end: number;
    if (c === 124 || c === 62) return this.blockScalar(at, parent); // | or >
    if (c === 34 || c === 39) {
      node = quotedScalar(text, at);
      end = node.range![1];
    } else if (c === 91 || c === 123) {
      node = flowCollection(text, at);
      end = node.range![1];
    } else if (plainCannotStart(text, at, false)) return notScannable('a value the scanner does not read (an anchor, alias, tag, folded block or indicator)');
    else {
      end = this.plainEnd(at, false);
      node = plainScalar(text.slice(at, end), [at, end, end]);
    }
    const next = this.restOfLine(end);
    (node.range as Range)[2] = next;
    this.afterValue(next, parent);
    return node;
  }

  /** After a one-line value: the next line with content must not be indented under it (that is a scalar over several lines). */
  private afterValue(lineStart: number, parent: number): void {
    const p = this.nextContent(lineStart);
    if (p < this.len && this.nextIndent > parent && !this.isMarker(p)) notScannable('a value over several lines');
  }

  /**
   * A block scalar whose header (`|`, `|-`, `>` or `>-`) is at `at`; its lines are indented deeper
   * than `parent`. Lines folded as the package folds them (resolve-block-scalar.js): a line break
   * between two lines of text becomes a space, blank lines stay line breaks, more-indented lines keep theirs.
   */
  private blockScalar(at: number, parent: number): Node {
    const text = this.text;
    const folded = text.charCodeAt(at) === 62; // >
    let h = at + 1;
    const chomp = text.charCodeAt(h);
    if (chomp === DASH) h++;
    else if (chomp === 43 || (chomp >= 48 && chomp <= 57)) notScannable('a kept block or an indentation indicator');
    const first = this.restOfLine(h);
    // The content's indentation is its first non-blank line's; blank lines before it may not be deeper.
    let p = first;
    let blankMax = 0;
    let m = -1;
    while (p < this.len) {
      const ind = this.skipSpaces(p) - p;
      if (!isBreakOrEnd(text.charCodeAt(p + ind))) {
        m = ind;
        break;
      }
      blankMax = Math.max(blankMax, ind);
      p = this.afterLine(p);
    }
    if (m <= parent || blankMax > m) notScannable('an empty block scalar, or one with deeper blank lines first');
    // Each line: its indentation beyond the block's, and its text ('' for a blank line).
    const lines: Array<{ extra: number; content: string }> = [];
    let lastContent = -1;
    let end = first;
    p = first;
    while (p < this.len) {
      const ind = this.skipSpaces(p) - p;
      const lineEnd = this.afterLine(p);
      const blank = isBreakOrEnd(text.charCodeAt(p + ind));
      if (!blank && ind < m) break;
      if (blank && ind > m) notScannable('a blank line in a block scalar deeper than its text');
      // (The last line of the text may end without a line break; the value is the same.)
      const content = blank ? '' : text.slice(p + ind, text.charCodeAt(lineEnd - 1) === LF ? lineEnd - 1 : lineEnd);
      if (unusualInBlock.test(content)) notScannable('an unusual character');
      lines.push({ extra: blank ? 0 : ind - m, content });
      if (!blank) {
        lastContent = lines.length - 1;
        end = lineEnd;
      }
      p = lineEnd;
    }
    const body = lines.slice(0, lastContent + 1);
    const joined = folded ? fold(body) : body.map((l) => ' '.repeat(l.extra) + l.content).join('\n');
    const value = chomp === DASH ? joined : `${joined}\n`;
    const node = scalarNode(value, value, folded ? 'BLOCK_FOLDED' : 'BLOCK_LITERAL', [at, end, end]);
    this.afterValue(end, parent);
    return node;
  }
}

/**
 * A folded block's lines (up to its last line of text) as the package folds them: leading blank
 * lines are line breaks; a break between two lines of text is a space; a blank line is a break;
 * a more-indented line (or one starting with a tab) keeps the breaks around it.
 */
function fold(lines: ReadonlyArray<{ extra: number; content: string }>): string {
  let value = '';
  let i = 0;
  for (; i < lines.length && lines[i]!.content === ''; i++) value += '\n';
  let sep = '';
  let prevMoreIndented = false;
  for (; i < lines.length; i++) {
    const { extra, content } = lines[i]!;
    if (extra > 0 || content.charCodeAt(0) === 9) {
      if (sep === ' ') sep = '\n';
      else if (!prevMoreIndented && sep === '\n') sep = '\n\n';
      value += sep + ' '.repeat(extra) + content;
      sep = '\n';
      prevMoreIndented = true;
    } else if (content === '') {
      if (sep === '\n') value += '\n';
      else sep = '\n';
    } else {
      value += sep + content;
      sep = ' ';
      prevMoreIndented = false;
    }
  }
  return value;
}
