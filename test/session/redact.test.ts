import { describe, expect, it } from 'vitest';
import { base64Forms, Redactor, REDACTED } from '../../src/session/redact.js';

const KEY = 'pk_live_4f9c2a7e1b3d8c6a5e0f+/xY';

describe('the key is redacted in the forms a server may echo it in', () => {
  const r = new Redactor().add(KEY);
  it.each([
    ['as it is', (k: string) => `bad key ${k}`],
    ['base64', (k: string) => `bad key ${Buffer.from(k).toString('base64')}`],
    ['base64url', (k: string) => `bad key ${Buffer.from(k).toString('base64url')}`],
    ['URL-encoded', (k: string) => `?apikey=${encodeURIComponent(k)}`],
    ['inside a base64 header dump (offset 1)', (k: string) => Buffer.from(`A${k}!`).toString('base64')],
    ['inside a base64 header dump (offset 2)', (k: string) => Buffer.from(`Ap${k}!!`).toString('base64')],
    ['inside a base64 header dump (offset 0)', (k: string) => Buffer.from(`Api${k}`).toString('base64')],
    ['inside "ApiKey: <key>" in base64', (k: string) => Buffer.from(`ApiKey: ${k}\r\n`).toString('base64')],
  ])('%s', (_name, echo) => {
    const text = echo(KEY);
    const out = r.text(text);
    expect(out).toContain(REDACTED);
    // Nothing long enough to rebuild the key survives: decode what is left and look for it.
    expect(Buffer.from(out.replaceAll(REDACTED, ''), 'base64').toString('latin1')).not.toContain(KEY.slice(4, 20));
    expect(out).not.toContain(KEY);
    // The whole encoded form goes, padding included (no tail of it is left behind).
    if (text === `bad key ${Buffer.from(KEY).toString('base64')}`) expect(out).toBe(`bad key ${REDACTED}`);
  });

  it('the forms are long enough not to blank ordinary text', () => {
    for (const f of base64Forms(KEY)) expect(f.length).toBeGreaterThanOrEqual(8);
    expect(r.text('an ordinary message about profiles and packs')).toBe('an ordinary message about profiles and packs');
  });
});
