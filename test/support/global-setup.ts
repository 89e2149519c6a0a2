/**
 * Tests that run the CLI as a child process (crash matrix, plain mode, end to end) run the built
 * JavaScript, so the build must match the sources: an incremental tsc build before any test.
 * Type errors are reported by `npm test`'s own type-check; here only a failed emit stops the run.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const r = spawnSync(process.execPath, [`${root}/node_modules/typescript/bin/tsc`, '-p', 'tsconfig.build.json'], { cwd: root, encoding: 'utf8' });
  // tsc exits 2 when it found type errors but still wrote the output; 1 means nothing usable was written.
  if (r.status !== 0 && r.status !== 2) throw new Error(`build failed:\n${r.stdout}${r.stderr}`);
}
