/**
 * A site without a pack registry names its defaults in a values folder (`valuesDir`:
 * `<pack>/<tag>.yaml`); the plan and the diff read them from there, so the capture carries them.
 * Each file is read bounded (readValuesFile), one level of pack folders, YAML files only.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readValuesFile } from '../io/bounded-read.js';

export function readValuesFolder(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pack of readdirSync(dir, { withFileTypes: true })) {
    if (!pack.isDirectory()) continue;
    for (const file of readdirSync(join(dir, pack.name), { withFileTypes: true })) {
      if (!file.isFile() || !/\.ya?ml$/.test(file.name)) continue;
      out[`${pack.name}/${file.name}`] = readValuesFile(join(dir, pack.name, file.name));
    }
  }
  return out;
}
