import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { apiKeyProblem, readApiKey } from '../../src/run/api-key.js';
import { Redactor } from '../../src/session/redact.js';

const dir = mkdtempSync(join(tmpdir(), 'i17-key-'));
const KEY = 'pk_live_4f9c2a7e1b3d8c6a5e0f';

function refusal(file: string | undefined, env: NodeJS.ProcessEnv): InputError {
  try {
    readApiKey(file, env, new Redactor());
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return err as InputError;
  }
  throw new Error('accepted');
}

describe('the API key is checked before any request, and never printed', () => {
  it.each([
    ['a line break inside', `${KEY.slice(0, 8)}\n${KEY.slice(8)}`, /contains a line break at position 9 of/],
    ['a carriage return', `${KEY}\rX`, /contains a line break at position/],
    ['a tab', `${KEY}\tX`, /contains a control character at position/],
    ['an escape sequence', `${KEY}\u001b[2J`, /contains a control character at position 29/],
    ['DEL', `${KEY}\u007f`, /contains a control character/],
    ['a space inside', `${KEY.slice(0, 4)} ${KEY.slice(4)}`, /contains a space at position 5/],
    ['a non-ASCII letter', `${KEY}é`, /contains a non-ASCII character at position 29/],
    ['an emoji', `${KEY}🔑`, /contains a non-ASCII character/],
    ['a zero-width space', `${KEY}\u200b`, /contains a non-ASCII character/],
    ['far too long', 'k'.repeat(5000), /is 5,000 characters long, more than an API key can be \(4096\)/],
  ])('from the environment: %s (exit 2, no key in the message)', (_name, key, message) => {
    const err = refusal(undefined, { UPGRADE_PILOT_API_KEY: key });
    expect(err.message).toMatch(message);
    expect(err.message).toMatch(/^The API key in \$UPGRADE_PILOT_API_KEY /);
    expect(err.exitCode).toBe(2);
    expect(err.message).not.toContain(KEY);
    expect(err.message).not.toContain('kkkkkkkk');
  });

  it('a good key passes, trimmed of the newline a file or `echo` leaves', () => {
    expect(readApiKey(undefined, { UPGRADE_PILOT_API_KEY: `${KEY}\n` }, new Redactor()).key).toBe(KEY);
    expect(apiKeyProblem('Abc-_.~+/=0123456789')).toBeUndefined();
  });

  it('from a file: bad characters, a FIFO, a link to /dev/zero, 100 MB', () => {
    const bad = join(dir, 'bad.key');
    writeFileSync(bad, `${KEY}é\n`);
    expect(refusal(bad, {}).message).toMatch(new RegExp(`^The API key in the file ${bad} contains a non-ASCII character`));
    const fifo = join(dir, 'fifo.key');
    execFileSync('mkfifo', [fifo]);
    expect(refusal(fifo, {}).message).toMatch(/Cannot read the API key file .*fifo\.key: it is a FIFO \(named pipe\), not a regular file/);
    const zero = join(dir, 'zero.key');
    symlinkSync('/dev/zero', zero);
    expect(refusal(zero, {}).message).toMatch(/it is a character device, not a regular file/);
    const big = join(dir, 'big.key');
    writeFileSync(big, KEY.repeat(4_000_000));
    const err = refusal(big, {});
    expect(err.message).toMatch(/it is 106\.8 MiB, over the 64 KiB limit for an API key file/);
    expect(err.hint).toMatch(/hold the key alone/);
    expect(err.message).not.toContain(KEY);
  });
});
