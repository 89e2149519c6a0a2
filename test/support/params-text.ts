/** The smallest valid params file, as text, and a folder to write variants of it into. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const VALID_PARAMS = `palette:
  baseUrl: https://api.example.com
  projectUid: p-1
cluster:
  uid: c-1
profiles:
  addon: { uid: a-1 }
  infra: { uid: i-1 }
target: 4.6.3
site:
  ingressIP: 10.10.0.50
  blockStorageClass: px-vm-block
`;

/** `file(text)` writes text into a new file of a folder made for the caller; returns its path. */
export function fileWriter(prefix: string): (text: string, ext?: string) => string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  let n = 0;
  return (text, ext = 'yaml') => {
    const f = join(dir, `f${++n}.${ext}`);
    writeFileSync(f, text);
    return f;
  };
}
