/**
 * An answer's JSON text without the string values of one key, decoded from the pieces the answer
 * came in (never joined). A real Palette's cluster object carries every attached pack's values (265
 * kB in the lab, 170 kB of it one network plugin's), and no step reads them: decoding and parsing
 * them on every poll (the apply settling, the rebuild gate, the reconciliation watch) made a fleet
 * coordinator allocate, per poll, a copy of the answer's bytes, its text and the values (the two
 * strings on the long-lived heap: V8 parses a text of 100 k characters or more there), about two
 * thirds of what its garbage collector had to reclaim. Each such value becomes `null` (as Go writes
 * an unset field).
 *
 * Only a member whose name is exactly the key, written `"key":"` (Go's encoding, no spaces), is left
 * out; any other spelling is kept, so the caller still drops what it does not want. In valid JSON
 * that sequence can only be a member name: inside a string every `"` is escaped. A text that is not
 * valid JSON comes out as invalid as it came in.
 */
import { StringDecoder } from 'node:string_decoder';
import type { Reply } from './transport.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const QUOTE_BYTE = Buffer.of(QUOTE);

/** Bytes received in pieces, read as one: positions are offsets into all of them together. */
class Pieces {
  /** Where each piece ends. */
  private readonly ends: number[] = [];

  constructor(private readonly pieces: readonly Buffer[]) {
    let end = 0;
    for (const p of pieces) this.ends.push((end += p.length));
  }

  private pieceAt(pos: number): number {
    let lo = 0;
    let hi = this.ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.ends[mid]! <= pos) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private startOf(piece: number): number {
    return piece === 0 ? 0 : this.ends[piece - 1]!;
  }

  byteAt(pos: number): number | undefined {
    const p = this.pieceAt(pos);
    return this.pieces[p]?.[pos - this.startOf(p)];
  }

  /** The first position at or after `from` where `needle` starts (it may run across pieces); -1 when none. */
  indexOf(needle: Buffer, from: number): number {
    for (let p = this.pieceAt(from); p < this.pieces.length; p++) {
      const start = this.startOf(p);
      const piece = this.pieces[p]!;
      const within = piece.indexOf(needle, Math.max(0, from - start));
      if (within !== -1) return start + within;
      // Not whole inside this piece: one may start in its last bytes and run on into the next.
      for (let at = Math.max(from, start + piece.length - needle.length + 1); at < start + piece.length; at++) {
        let i = 0;
        while (i < needle.length && this.byteAt(at + i) === needle[i]) i++;
        if (i === needle.length) return at;
      }
    }
    return -1;
  }

  /** The `"` that closes the string whose content starts at `from`; -1 when it is not closed. */
  closingQuote(from: number): number {
    for (let q = this.indexOf(QUOTE_BYTE, from); q !== -1; q = this.indexOf(QUOTE_BYTE, q + 1)) {
      let slashes = 0;
      while (q - 1 - slashes >= from && this.byteAt(q - 1 - slashes) === BACKSLASH) slashes++;
      if (slashes % 2 === 0) return q;
    }
    return -1;
  }

  /** The text of the bytes from `from` up to `to` (a character split between two pieces is decoded whole). */
  text(from: number, to: number): string {
    const first = this.pieceAt(from);
    const start = this.startOf(first);
    const piece = this.pieces[first];
    if (piece && to <= start + piece.length) return piece.toString('utf8', from - start, to - start);
    const decoder = new StringDecoder('utf8');
    let out = '';
    for (let p = first; p < this.pieces.length && this.startOf(p) < to; p++) {
      const s = this.startOf(p);
      out += decoder.write(this.pieces[p]!.subarray(Math.max(0, from - s), Math.min(this.pieces[p]!.length, to - s)));
    }
    return out + decoder.end();
  }

  get length(): number {
    return this.ends.at(-1) ?? 0;
  }
}

/** The reply's text with each `"key":"…"` value as `null`; the whole text when its bytes are gone (already decoded). */
export function textWithout(reply: Reply, key: string): string {
  if (!reply.pieces) return reply.text;
  const bytes = new Pieces(reply.pieces);
  const member = Buffer.from(`"${key}":`);
  const parts: string[] = [];
  let kept = 0;
  for (let at = bytes.indexOf(member, 0); at !== -1; at = bytes.indexOf(member, at)) {
    const open = at + member.length;
    if (bytes.byteAt(open) !== QUOTE) {
      at = open;
      continue;
    }
    const close = bytes.closingQuote(open + 1);
    if (close === -1) break;
    parts.push(bytes.text(kept, open), 'null');
    kept = close + 1;
    at = kept;
  }
  if (kept === 0) return reply.text;
  parts.push(bytes.text(kept, bytes.length));
  return parts.join('');
}
