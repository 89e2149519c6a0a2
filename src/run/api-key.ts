/**
 * The profile API key: from $UPGRADE_PILOT_API_KEY or --api-key-file, never from a flag value.
 * It is registered with the redactor the moment it is read.
 */
import { readFileSync, statSync } from 'node:fs';
import { InputError } from '../errors.js';
import type { Redactor } from '../session/redact.js';

export const API_KEY_ENV = 'UPGRADE_PILOT_API_KEY';

export interface ApiKeyResult {
  key: string | undefined;
  source: 'env' | 'file' | 'none';
  warnings: string[];
}

export function readApiKey(file: string | undefined, env: NodeJS.ProcessEnv, redactor: Redactor): ApiKeyResult {
  const warnings: string[] = [];
  if (file) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new InputError('input.api-key-file', `Cannot read the API key file ${file}: ${code === 'ENOENT' ? 'it does not exist' : code === 'EACCES' ? 'permission denied' : code}.`, {
        hint: 'Pass a readable file holding only the key, or set UPGRADE_PILOT_API_KEY.',
      });
    }
    const key = text.trim();
    if (!key || key.includes('\n')) {
      throw new InputError('input.api-key-file', `The API key file ${file} ${key ? 'holds more than one line' : 'is empty'}.`, {
        hint: 'The file must hold the key alone, on one line.',
      });
    }
    redactor.add(key);
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
    return { key: fromEnv, source: 'env', warnings };
  }
  return { key: undefined, source: 'none', warnings };
}
