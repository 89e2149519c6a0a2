import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileReadError, readBoundedText } from '../../src/io/bounded-read.js';
import { formatBytes, parseBytes } from '../../src/io/limits.js';

const dir = mkdtempSync(join(tmpdir(), 'i17-bounded-'));
const at = (name: string) => join(dir, name);
const read = (path: string, maxBytes = 1024) => readBoundedText(path, { what: 'params file', maxBytes });

function refusal(path: string, maxBytes = 1024): FileReadError {
  try {
    read(path, maxBytes);
  } catch (err) {
    if (err instanceof FileReadError) return err;
    throw err;
  }
  throw new Error(`${path} was read`);
}

describe('readBoundedFile: a regular file, up to a limit, or a clear refusal (exit 2)', () => {
  writeFileSync(at('ok.yaml'), 'a: 1\n');
  writeFileSync(at('exact.yaml'), 'x'.repeat(1024));
  writeFileSync(at('big.yaml'), `secret-content-${'y'.repeat(5000)}`);
  mkdirSync(at('folder'));
  execFileSync('mkfifo', [at('fifo')]);
  symlinkSync('/dev/zero', at('zero'));
  symlinkSync(at('big.yaml'), at('link-to-big'));
  symlinkSync(at('loop-b'), at('loop-a'));
  symlinkSync(at('loop-a'), at('loop-b'));

  it('reads a regular file, and one exactly at the limit', () => {
    expect(read(at('ok.yaml'))).toBe('a: 1\n');
    expect(read(at('exact.yaml'))).toHaveLength(1024);
  });

  it.each([
    ['missing', () => at('nope.yaml'), 'missing', /it does not exist/],
    ['over the limit (by its size)', () => at('big.yaml'), 'too-large', /it is 4\.9 KiB, over the 1 KiB limit for a params file/],
    ['a link to a file over the limit', () => at('link-to-big'), 'too-large', /over the 1 KiB limit/],
    ['a folder', () => at('folder'), 'not-a-file', /it is a folder, not a regular file/],
    ['a FIFO (would block forever on open and read)', () => at('fifo'), 'not-a-file', /it is a FIFO \(named pipe\), not a regular file/],
    ['a link to /dev/zero (endless)', () => at('zero'), 'not-a-file', /it is a character device, not a regular file/],
    ['/dev/null itself', () => '/dev/null', 'not-a-file', /character device/],
    ['a loop of links', () => at('loop-a'), 'unreadable', /loop of symbolic links/],
    ['a path through a file', () => join(at('ok.yaml'), 'x'), 'missing', /does not exist/],
  ])('%s: refused, naming the file and why', (_name, path, problem, reason) => {
    // A read of the FIFO or of /dev/zero would never return: getting the refusal back proves none was made.
    const err = refusal(path());
    expect(err.problem).toBe(problem);
    expect(err.message).toMatch(reason);
    expect(err.message).toContain(path());
    expect(err.exitCode).toBe(2);
    expect(err.hint).toBeTruthy();
  });

  it('never quotes the content of the file it refused', () => {
    const err = refusal(at('big.yaml'));
    expect(err.message).not.toContain('secret-content');
    expect(err.message.length).toBeLessThan(300);
  });

  it('a file that reports size 0 but has content (/proc) is read up to the limit, no further', () => {
    expect(readBoundedText('/proc/self/status', { what: 'status', maxBytes: 1 << 20 })).toMatch(/^Name:/);
    const err = (() => {
      try {
        readBoundedText('/proc/self/status', { what: 'status', maxBytes: 16 });
      } catch (e) {
        return e as FileReadError;
      }
      throw new Error('read');
    })();
    expect(err.message).toMatch(/it is more than 16 bytes, over the 16 bytes limit/);
  });
});

describe('sizes', () => {
  it.each([
    ['64MiB', 64 * 1024 * 1024],
    ['512 KB', 512_000],
    ['1GiB', 1024 ** 3],
    ['100', 100],
    [4096, 4096],
    ['0', undefined],
    ['-1MiB', undefined],
    ['lots', undefined],
    ['5 parsecs', undefined],
    [1.5, undefined],
  ])('parseBytes(%j) = %j', (input, bytes) => {
    expect(parseBytes(input)).toBe(bytes);
  });

  it.each([
    [1, '1 byte'],
    [1023, '1023 bytes'],
    [1024, '1 KiB'],
    [1536, '1.5 KiB'],
    [64 * 1024 * 1024, '64 MiB'],
    [1024 ** 3, '1 GiB'],
  ])('formatBytes(%d) = %s', (n, text) => {
    expect(formatBytes(n)).toBe(text);
  });
});
