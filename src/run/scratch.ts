/**
 * Per-run scratch folders in the temp folder (the kubectl discovery cache, the lab's files when no
 * --state-dir is given). Each is named after the process that made it, `upgrade-pilot-kube-<pid>-*`,
 * so a run killed before it could clean up leaves something the next run recognises: at start,
 * folders of ours whose process is gone are removed. Removal never fails a run: a folder that
 * cannot be removed now (a kubectl still writing its cache) is removed by a later run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processAlive } from '../session/lock.js';

export interface Scratch {
  dir: string;
  /** Removes the folder (after what `onDispose` added); never throws. */
  dispose(): void;
  /** Runs `fn` before the folder goes: whatever uses it (kubectl's read proxy and its socket) ends first. */
  onDispose(fn: () => void): void;
}

/** Folders left by versions that did not name the pid: removed once a day old. */
const LEGACY_AGE_MS = 24 * 3_600_000;

function removeQuietly(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
  } catch {
    // a later run removes it
  }
}

/**
 * Removes `upgrade-pilot-<kind>-*` folders in `base` whose run is over; resolves to how many. The
 * listing, the stats and the removals are asynchronous (Node's thread pool): a temp folder of
 * thousands of entries costs the run's own thread next to nothing, whatever it is doing meanwhile.
 */
export async function cleanStaleScratch(kind: string, base = tmpdir(), now = Date.now()): Promise<number> {
  let names: string[];
  try {
    names = await readdir(base);
  } catch {
    return 0;
  }
  const prefix = `upgrade-pilot-${kind}-`;
  const uid = process.getuid?.();
  const removals = names
    .filter((name) => name.startsWith(prefix))
    .map(async (name) => {
      const path = join(base, name);
      const st = await stat(path).catch(() => undefined);
      // Only our own folders: the temp folder is shared with other users.
      if (!st?.isDirectory() || (uid !== undefined && st.uid !== uid)) return false;
      const pid = /^(\d+)-/.exec(name.slice(prefix.length))?.[1];
      const stale = pid !== undefined ? Number(pid) !== process.pid && !processAlive(Number(pid)) : now - st.mtimeMs > LEGACY_AGE_MS;
      if (!stale) return false;
      return rm(path, { recursive: true, force: true, maxRetries: 2 }).then(
        () => true,
        () => false,
      );
    });
  return (await Promise.all(removals)).filter(Boolean).length;
}

/** The temp folders (and kinds) this process has cleared already. */
const cleared = new Set<string>();

/** How many clearings this process has started (each temp folder and kind once): for the tests. */
export const clearingsStarted = (): number => cleared.size;

/**
 * A new scratch folder for this run. What killed runs left behind is cleared beside the run, off its
 * thread (see cleanStaleScratch): a crowded temp folder costs the operator no time before the first
 * read, and a run that ends before the clearing does leaves the rest to the next one. Once per
 * process: a fleet's clusters each make a folder, and what a run killed meanwhile leaves is the next
 * process's to clear (a shared temp folder of 17,000 entries listed and stat'ed for each of 200
 * clusters was some 300 MB of garbage in the fleet coordinator).
 */
export function makeScratch(kind: string, base = tmpdir()): Scratch {
  const key = `${kind}\0${base}`;
  if (!cleared.has(key)) {
    cleared.add(key);
    void cleanStaleScratch(kind, base);
  }
  const dir = mkdtempSync(join(base, `upgrade-pilot-${kind}-${process.pid}-`));
  const before: Array<() => void> = [];
  return {
    dir,
    onDispose: (fn) => void before.push(fn),
    dispose: () => {
      for (const fn of before.splice(0)) {
        try {
          fn();
        } catch {
          // the folder goes anyway
        }
      }
      removeQuietly(dir);
    },
  };
}
