/**
 * The lab's data files (pack values documents) live as `.yaml` in `src/lab/data/packs/`. The build
 * (scripts/build.mjs) copies the folder named below beside the bundle and points the reference at
 * the copy, so the same line finds them from the sources and from the installed package; a new
 * file in the folder ships without further ado.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const folder = new URL('./packs/', import.meta.url);

const cache = new Map<string, string>();

/** Absolute path of a data file such as `nginx-1.12.1.yaml`. */
export function assetPath(name: string): string {
  const path = fileURLToPath(new URL(name, folder));
  if (!existsSync(path)) throw new Error(`lab data file ${name} not found in ${fileURLToPath(folder)}`);
  return path;
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
