/** A lab served by the bundled CLI in its own process (`lab --serve ...`), for the tests that need that process. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Starts `node <cli> <args>` and resolves once it has written `dir/lab.json` (whole: the lab renames
 * it into place); resolves with how to stop it (SIGTERM, then its exit). A lab that exits first, or
 * is not up within `limitMs` (a generous bound: it is killed, never left running), fails the test.
 */
export async function labInOwnProcess(args: string[], dir: string, what: string, limitMs: number): Promise<() => Promise<void>> {
  const proc: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  const labJson = join(dir, 'lab.json');
  const started = Date.now();
  while (!existsSync(labJson)) {
    if (proc.exitCode !== null) throw new Error(`${what} exited with ${proc.exitCode}`);
    if (Date.now() - started > limitMs) {
      proc.kill('SIGKILL'); // never leave a lab running behind a failed test
      throw new Error(`${what} did not start in ${limitMs / 1000} s`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return () =>
    new Promise((resolve) => {
      if (proc.exitCode !== null) return resolve();
      proc.once('exit', () => resolve());
      proc.kill('SIGTERM');
    });
}
