/**
 * Tests that run the CLI as a child process (crash matrix, plain mode, end to end, the package test)
 * run the bundle, `dist/cli.js`: what ships is what is tested, its assets included. The bundle must
 * match the sources, so it is rebuilt before any test when a source is newer (about a second).
 * Type errors are reported by `npm test`'s own type-check; a bundler error stops the run here.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const r = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`build failed:\n${r.stdout}${r.stderr}`);
}
