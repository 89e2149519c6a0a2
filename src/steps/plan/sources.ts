/**
 * Where the versions to step through and each version's new defaults come from (spec 9.1.5, the
 * "new reference defaults"): the params' reference profiles per orchestration pack version, and a
 * values folder of `<pack>/<tag>.yaml` files. Here the folder's reads; what the plan makes of
 * them is domain/ladder/reference-sources.ts.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readValuesFile } from '../../io/bounded-read.js';
import type { ValuesFolder } from '../../domain/ladder/reference-sources.js';

export function valuesFolder(dir: string | undefined): ValuesFolder | undefined {
  if (!dir) return undefined;
  const file = (pack: string, tag: string) => join(dir, pack, `${tag}.yaml`);
  return {
    dir,
    tags(pack) {
      try {
        return readdirSync(join(dir, pack))
          .filter((f) => /\.ya?ml$/.test(f))
          .map((f) => f.replace(/\.ya?ml$/, ''));
      } catch {
        return [];
      }
    },
    read(pack, tag) {
      for (const path of [file(pack, tag), join(dir, pack, `${tag}.yml`)]) if (existsSync(path)) return readValuesFile(path);
      return undefined;
    },
    path: file,
  };
}
