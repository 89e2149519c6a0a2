/** Writing `verify --junit FILE` (or `fleet report --out FILE`): checked before anything runs, written whole (temp file, rename). */
import { renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { EnvironmentError, InputError } from '../errors.js';

/** Fails early, before any check runs, when FILE could not be written. */
export function checkJunitTarget(file: string, flag = '--junit'): void {
  const dir = dirname(resolve(file));
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    // Reported below.
  }
  if (!isDir) throw new InputError('usage.junit', `${flag} ${file}: the folder ${dir} does not exist.`, { hint: 'Create the folder first, or name a file in an existing one.' });
  try {
    if (statSync(file).isDirectory()) throw new InputError('usage.junit', `${flag} ${file} is a folder.`, { hint: `Name a file, e.g. ${flag} reports/${flag === '--junit' ? 'verify.xml' : 'fleet.md'}.` });
  } catch (err) {
    if (err instanceof InputError) throw err;
    // Not there yet: fine.
  }
}

export function writeJunitFile(file: string, xml: string, flag = '--junit', command = 'verify'): void {
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, xml, { mode: 0o644 });
    renameSync(tmp, file);
  } catch (err) {
    throw new EnvironmentError('junit.unwritable', `Cannot write ${flag} ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}.`, {
      hint: `Check the folder’s permissions and free space, then run ${command} again.`,
    });
  }
}
