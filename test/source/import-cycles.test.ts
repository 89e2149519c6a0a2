/**
 * No import circles in src (type-only imports included): a folder's shared types live in its own
 * types module. A circle makes load order matter and hides which module owns a type; this walks
 * every relative import and names each circle it finds, shortest path first.
 */
import { describe, expect, it } from 'vitest';
import { readImportGraph } from './import-graph.js';

/** Every circle, each once (Tarjan's strongly connected components of more than one module, or a self-import). */
function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(comp.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return found;
}

describe('the source has no import circles', () => {
  it('finds none in src', () => {
    // Imports loaded on demand (`import('./x.js')`) are left out: loading later is how a circle is broken.
    const { files, edges } = readImportGraph();
    const graph = new Map(files.map((f) => [f, edges.filter((e) => e.from === f && !e.dynamic).map((e) => e.to)]));
    expect(graph.size).toBeGreaterThan(300); // the walk saw the source, not an empty folder
    const named = circles(graph).map((c) => c.join(' ↔ '));
    expect(named).toEqual([]);
  });

  it('would name a circle', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(circles(g)).toEqual([['a', 'b', 'c']]);
  });
});
