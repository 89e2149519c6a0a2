/** `--notify-command`: no shell, the JSON on stdin, no API key in its environment, its whole process group killed at the limit. */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runNotifyCommand } from '../../src/notify/command.js';
import { DeliveryError } from '../../src/notify/webhook.js';
import { until, within } from '../support/wait.js';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

function script(dir: string, body: string): string {
  const file = join(dir, 'hook.sh');
  writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

describe('the notify command', () => {
  it('gets the message on stdin and the event in its environment, never the API key; nothing in the message runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'up-notify-cmd-'));
    const hook = script(dir, `cat > "${dir}/stdin.json"; env > "${dir}/env.txt"`);
    const body = JSON.stringify({ event: 'gate', text: `$(touch ${dir}/pwned) \`touch ${dir}/pwned2\`` });
    process.env.UPGRADE_PILOT_API_KEY = 'k3y-for-the-test-only';
    try {
      await runNotifyCommand([hook], body, { event: 'gate', session: 's1' }, 5_000, new AbortController().signal);
    } finally {
      delete process.env.UPGRADE_PILOT_API_KEY;
    }
    expect(readFileSync(join(dir, 'stdin.json'), 'utf8')).toBe(body);
    const env = readFileSync(join(dir, 'env.txt'), 'utf8');
    expect(env).toMatch(/^UPGRADE_PILOT_EVENT=gate$/m);
    expect(env).toMatch(/^UPGRADE_PILOT_SESSION=s1$/m);
    expect(env).not.toContain('k3y-for-the-test-only');
    expect(existsSync(join(dir, 'pwned'))).toBe(false);
    expect(existsSync(join(dir, 'pwned2'))).toBe(false);
  });

  it('a failing command is a failure with its exit code and first line of stderr; a missing one says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'up-notify-cmd-'));
    const hook = script(dir, 'echo "webhook refused: 403" >&2; exit 3');
    await expect(runNotifyCommand([hook], '{}', { event: 'done', session: 's1' }, 5_000, new AbortController().signal)).rejects.toThrow('exited with 3: webhook refused: 403');
    await expect(runNotifyCommand([join(dir, 'missing')], '{}', { event: 'done', session: 's1' }, 5_000, new AbortController().signal)).rejects.toBeInstanceOf(DeliveryError);
  });

  it('at the time limit its whole process group is killed, the children it started included', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'up-notify-cmd-'));
    const hook = script(dir, `sleep 30 & echo $! > "${dir}/child.pid"; wait`);
    // The limit leaves the shell ample time to start its child and say which it is, even on a busy
    // machine. Waiting for the child (`sleep 30`) to close its output would take 30 s: twenty is a hang.
    await expect(within(runNotifyCommand([hook], '{}', { event: 'gate', session: 's1' }, 3_000, new AbortController().signal), 20_000, 'the notify command')).rejects.toThrow(/did not finish within 3s \(its process group was killed\)/);
    expect(existsSync(join(dir, 'child.pid')), 'the hook had started its child before the limit').toBe(true);
    const child = Number(readFileSync(join(dir, 'child.pid'), 'utf8'));
    await until(`the hook's child (pid ${child}) to be gone`, () => !alive(child));
  });
});
