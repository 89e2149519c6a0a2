/**
 * The lab's data files (pack values documents) live as `.yaml` next to this module in
 * `src/lab/data/packs/`. `tsc` copies no non-TypeScript files into `dist/`, so when this module runs
 * from `dist/lab/data/` the files are read from the source tree at the same relative place.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const folders = [
  // src/lab/data/ under vitest or tsx
  new URL('./packs/', import.meta.url),
  // dist/lab/data/ -> <repository>/src/lab/data/packs/
  new URL('../../../src/lab/data/packs/', import.meta.url),
  // dist-bench/src/lab/data/ (the benchmarks' build) -> <repository>/src/lab/data/packs/
  new URL('../../../../src/lab/data/packs/', import.meta.url),
];

const cache = new Map<string, string>();

/** Absolute path of a data file such as `nginx-1.12.1.yaml`. */
export function assetPath(name: string): string {
  for (const folder of folders) {
    const path = fileURLToPath(new URL(name, folder));
    if (existsSync(path)) return path;
  }
  throw new Error(`lab data file ${name} not found in ${folders.map((f) => fileURLToPath(f)).join(' or ')}`);
}

/** The text of a data file, read once per process. */
export function readAsset(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(assetPath(name), 'utf8');
    cache.set(name, text);
  }
  return text;
}
