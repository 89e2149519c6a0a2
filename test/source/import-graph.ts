/**
 * The import graph of src, read once for the source tests (import-cycles, layers): every relative
 * import and re-export of every module (type-only ones too), and every `import('./x.js')` a module
 * loads on demand, each resolved to its source file with the line it is written on.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export const SRC = resolve(import.meta.dirname, '../../src');

export interface ImportEdge {
  /** Both paths relative to src, e.g. `engine/runner.ts`. */
  from: string;
  to: string;
  /** 1-based line of the `import`/`export` keyword. */
  line: number;
  /** `import('./x.js')`: loaded on demand, which breaks no circle but is still a dependency. */
  dynamic: boolean;
}

export interface ImportGraph {
  /** Every module, relative to src. */
  files: string[];
  edges: ImportEdge[];
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const STATIC = /(?:^|\n)\s*(?:import|export)\b[^;'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/g;
const DYNAMIC = /\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** Relative imports of one module, resolved to the source files among `known`. */
function importsOf(root: string, file: string, text: string, known: Set<string>): ImportEdge[] {
  const lineAt = (index: number) => text.slice(0, index).split('\n').length;
  const out: ImportEdge[] = [];
  const add = (spec: string, index: number, dynamic: boolean) => {
    const base = resolve(dirname(file), spec).replace(/\.js$/, '');
    const hit = [`${base}.ts`, `${base}.tsx`].find((c) => known.has(c));
    if (hit) out.push({ from: relative(root, file), to: relative(root, hit), line: lineAt(index), dynamic });
  };
  for (const m of text.matchAll(STATIC)) add(m[1]!, m.index + m[0].search(/\b(?:import|export)\b/), false);
  for (const m of text.matchAll(DYNAMIC)) add(m[1]!, m.index, true);
  return out.sort((a, b) => a.line - b.line);
}

/** The graph of src as it is on disk now. */
export function readImportGraph(root = SRC): ImportGraph {
  const paths = sources(root);
  const known = new Set(paths);
  return { files: paths.map((p) => relative(root, p)), edges: paths.flatMap((p) => importsOf(root, p, readFileSync(p, 'utf8'), known)) };
}
