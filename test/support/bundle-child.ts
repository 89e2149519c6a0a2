/**
 * A test's helper process, written in TypeScript over the sources, bundled with esbuild into one
 * JavaScript file that plain `node` runs (the CLI's own bundle holds only what ships). Built once
 * per test file, in a fraction of a second.
 */
import { buildSync } from 'esbuild';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function bundleChild(entry: URL): string {
  const source = fileURLToPath(entry);
  // Beside the repository's node_modules, so the packages left out of the bundle resolve at run time.
  const cache = join(fileURLToPath(new URL('../../node_modules/.cache', import.meta.url)));
  mkdirSync(cache, { recursive: true });
  const outfile = join(mkdtempSync(join(cache, 'up-child-')), basename(source).replace(/\.tsx?$/, '.mjs'));
  buildSync({ entryPoints: [source], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20.19', packages: 'external', logLevel: 'error' });
  return outfile;
}
