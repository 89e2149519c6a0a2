import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { showSplash } from '../../src/run/splash.js';

function recorder(): { stream: Writable; chunks: string[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { stream, chunks };
}

describe('the splash line', () => {
  it.each([
    ['the TUI first frame on stdout', 'stdout'],
    ['an error on stderr', 'stderr'],
  ] as const)('is erased before %s, once, and the streams write as before afterwards', async (_name, which) => {
    const out = recorder();
    const err = recorder();
    const originalOut = out.stream.write;
    const originalErr = err.stream.write;
    showSplash(out.stream, err.stream, 'starting the embedded lab');
    expect(out.chunks).toEqual(['upgrade-pilot · starting the embedded lab…']);
    (which === 'stdout' ? out : err).stream.write('next\n');
    (which === 'stdout' ? out : err).stream.write('then\n');
    await new Promise((r) => setImmediate(r));
    expect(out.chunks[1]).toBe('\r\x1b[2K');
    expect((which === 'stdout' ? out.chunks.slice(2) : err.chunks)).toEqual(['next\n', 'then\n']);
    expect(out.chunks.filter((c) => c === '\r\x1b[2K')).toHaveLength(1);
    expect(out.stream.write).toBe(originalOut);
    expect(err.stream.write).toBe(originalErr);
  });
});
