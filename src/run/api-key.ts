/**
 * The profile API key: from $UPGRADE_PILOT_API_KEY or --api-key-file, never from a flag value.
 * It is registered with the redactor the moment it is read, and checked before any request: a key
 * with a newline, a control character, a space or a non-ASCII character cannot be sent as a header
 * (it would fail as "cannot reach the profile API" after every retry), so it is refused at once,
 * saying where it came from and what is wrong with it - never the key itself.
 */
import { statSync } from 'node:fs';
import { InputError } from '../errors.js';
import { FileReadError, readBoundedText } from '../io/bounded-read.js';
import { LIMITS, formatBytes } from '../io/limits.js';
import type { Redactor } from '../session/redact.js';

export const API_KEY_ENV = 'UPGRADE_PILOT_API_KEY';

export interface ApiKeyResult {
  key: string | undefined;
  source: 'env' | 'file' | 'none';
  warnings: string[];
}

/** What is wrong with a key as an HTTP header value, or undefined when nothing is. */
export function apiKeyProblem(key: string): string | undefined {
  if (key.length > LIMITS.apiKeyChars) return `is ${key.length.toLocaleString('en-US')} characters long, more than an API key can be (${LIMITS.apiKeyChars})`;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c >= 0x21 && c <= 0x7e) continue;
    const what = c === 0x0a || c === 0x0d ? 'a line break' : c === 0x20 ? 'a space' : c < 0x20 || c === 0x7f ? 'a control character' : 'a non-ASCII character';
    return `contains ${what} at position ${i + 1} of ${key.length}`;
  }
  return undefined;
}

function checked(key: string, from: string, hint: string): string {
  const problem = apiKeyProblem(key);
  if (problem) throw new InputError('input.api-key', `The API key ${from} ${problem}; it cannot be sent in a request header.`, { hint, where: from });
  return key;
}

export function readApiKey(file: string | undefined, env: NodeJS.ProcessEnv, redactor: Redactor): ApiKeyResult {
  const warnings: string[] = [];
  if (file) {
    let text: string;
    try {
      text = readBoundedText(file, {
        what: 'API key file',
        maxBytes: LIMITS.apiKeyFile,
        tooLargeHint: `The file must hold the key alone, on one line (an API key is far smaller than ${formatBytes(LIMITS.apiKeyFile)}).`,
      });
    } catch (err) {
      if (!(err instanceof FileReadError)) throw err;
      throw new InputError('input.api-key-file', `Cannot read the API key file ${file}: ${err.reason}.`, {
        hint: err.problem === 'too-large' ? (err.hint ?? '') : 'Pass a readable file holding only the key, or set UPGRADE_PILOT_API_KEY.',
        where: file,
      });
    }
    const key = text.trim();
    if (!key || /[\r\n]/.test(key)) {
      throw new InputError('input.api-key-file', `The API key file ${file} ${key ? 'holds more than one line' : 'is empty'}.`, {
        hint: 'The file must hold the key alone, on one line.',
        where: file,
      });
    }
    redactor.add(key);
    checked(key, `in the file ${file}`, 'Write the key alone on one line, exactly as Palette shows it (visible ASCII characters only).');
    try {
      if ((statSync(file).mode & 0o077) !== 0) warnings.push(`The API key file ${file} is readable by other users; chmod 600 it.`);
    } catch {
      // unreadable mode is not a reason to stop
    }
    return { key, source: 'file', warnings };
  }
  const fromEnv = env[API_KEY_ENV]?.trim();
  if (fromEnv) {
    redactor.add(fromEnv);
    return { key: checked(fromEnv, `in $${API_KEY_ENV}`, `Set ${API_KEY_ENV} to the key alone, exactly as Palette shows it (visible ASCII characters only), or pass --api-key-file FILE.`), source: 'env', warnings };
  }
  return { key: undefined, source: 'none', warnings };
}
