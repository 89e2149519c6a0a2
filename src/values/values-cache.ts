/**
 * Parsed values documents kept by their text, so a text met again is read once: a pack version's
 * defaults are the same string in every hop that reaches them, every cluster of a fleet, every
 * review round of the customize step and the `start` after a `diff` in one process. Keyed by the
 * text itself (the content: a pack name and version name one text, and a string key cannot collide
 * as a hash could). The documents are shared, so they are never changed (relocating keys clones first).
 *
 * Bounded: once the texts held pass `maxTextChars` characters, the least recently used go first
 * (a document with its nodes takes about four times its text: 0.7 MB of heap for the 170 kB
 * Cilium values). A text that does not parse is not kept: it throws each time.
 */
import { parseValues, type ValuesDocument } from './values-document.js';

export interface ValuesCacheStats {
  documents: number;
  textChars: number;
  hits: number;
  misses: number;
}

export class ValuesCache {
  /** In use order: the least recently used first (a Map keeps insertion order). */
  private readonly documents = new Map<string, ValuesDocument>();
  private textChars = 0;
  private hits = 0;
  private misses = 0;

  constructor(private readonly maxTextChars = 4 * 2 ** 20) {}

  /** `text` parsed (`what` names it in an error), from the cache when it was parsed before. */
  parse(text: string, what: string): ValuesDocument {
    const known = this.documents.get(text);
    if (known) {
      this.hits++;
      this.documents.delete(text);
      this.documents.set(text, known);
      return known;
    }
    this.misses++;
    const parsed = parseValues(text, what);
    if (text.length > this.maxTextChars) return parsed;
    this.documents.set(text, parsed);
    this.textChars += text.length;
    for (const [old] of this.documents) {
      if (this.textChars <= this.maxTextChars) break;
      this.documents.delete(old);
      this.textChars -= old.length;
    }
    return parsed;
  }

  stats(): ValuesCacheStats {
    return { documents: this.documents.size, textChars: this.textChars, hits: this.hits, misses: this.misses };
  }
}
