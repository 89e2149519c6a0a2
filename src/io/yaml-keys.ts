/**
 * Duplicate keys in a YAML mapping, found in one pass. The yaml library's own check (`uniqueKeys`)
 * compares every key with every earlier one: a 50,000-key mapping (700 KB) took 95 s to parse. So
 * documents are parsed with that check off, and this one runs instead: a set per mapping, linear.
 */
import { isMap, isScalar, visit, type Document, type Node } from 'yaml';

export interface DuplicateKey {
  key: string;
  /** Offset of the repeated key in the source text. */
  offset: number;
}

/** The first key repeated within one mapping, in document order; undefined when there is none. */
export function firstDuplicateKey(doc: Document): DuplicateKey | undefined {
  let found: DuplicateKey | undefined;
  visit(doc, {
    Map(_key, map) {
      if (!isMap(map)) return undefined;
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        // As the library compares: scalar keys by value; other keys are never equal to each other.
        if (!isScalar(pair.key)) continue;
        const value = pair.key.value;
        if (seen.has(value)) {
          const offset = (pair.key as Node).range?.[0] ?? 0;
          if (!found || offset < found.offset) found = { key: String(value), offset };
          return visit.BREAK;
        }
        seen.add(value);
      }
      return undefined;
    },
  });
  return found;
}
