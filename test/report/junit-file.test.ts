import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { checkJunitTarget, writeJunitFile } from '../../src/report/junit-file.js';

describe('the --junit file', () => {
  it('is refused before any check runs when its folder is missing or it names a folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'up-junit-'));
    expect(() => checkJunitTarget(join(dir, 'nope', 'verify.xml'))).toThrow(InputError);
    expect(() => checkJunitTarget(join(dir, 'nope', 'verify.xml'))).toThrow(/the folder .*nope does not exist/);
    mkdirSync(join(dir, 'a-folder'));
    expect(() => checkJunitTarget(join(dir, 'a-folder'))).toThrow(/is a folder/);
    expect(() => checkJunitTarget(join(dir, 'verify.xml'))).not.toThrow();
  });

  it('is written whole', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'up-junit-')), 'verify.xml');
    writeJunitFile(file, '<testsuites/>\n');
    expect(readFileSync(file, 'utf8')).toBe('<testsuites/>\n');
  });
});
