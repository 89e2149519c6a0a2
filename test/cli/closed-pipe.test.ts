/**
 * `upgrade-pilot … | head`: the reader goes away before the output is written. The command must
 * end as it would have, without Node's unhandled EPIPE and its stack trace.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

function runWithClosedStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    // Closed before the program has started: every write it makes meets a pipe with no reader.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('output to a pipe whose reader went away', () => {
  it.each([[['completion', 'zsh']], [['--help']]])('%j ends with its own exit code, no EPIPE, no stack', async (args) => {
    const r = await runWithClosedStdout(args);
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled 'error' event|\n\s+at /);
    expect(r.code).toBe(0);
  });
});
