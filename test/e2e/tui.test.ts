/**
 * The TUI end to end in a real pseudo-terminal: tmux (on a private socket) runs `upgrade-pilot lab`
 * at 120x40; the test presses the keys an operator would and reads the screen at every step.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listen } from '../notify/support.js';
import { CLI } from './support.js';

const socket = `up-e2e-${process.pid}`;
const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
const screen = () => tmux('capture-pane', '-p', '-t', 'tui');
const send = (...keys: string[]) => tmux('send-keys', '-t', 'tui', ...keys);

async function waitFor(text: string | RegExp, timeoutMs = 60_000): Promise<string> {
  const started = Date.now();
  for (;;) {
    const s = screen();
    if (typeof text === 'string' ? s.includes(text) : text.test(s)) return s;
    if (Date.now() - started > timeoutMs) throw new Error(`the screen never showed ${String(text)}; it shows:\n${s}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

let closeListener: (() => Promise<void>) | undefined;

afterAll(async () => {
  await closeListener?.();
  try {
    tmux('kill-server');
  } catch {
    // already gone
  }
});

describe('TUI in a real terminal', () => {
  it('walks the healthy upgrade with the keys an operator presses', async () => {
    const state = mkdtempSync(join(tmpdir(), 'up-e2e-tui-'));
    const listener = await listen('ok');
    closeListener = () => listener.close();
    tmux('new-session', '-d', '-s', 'tui', '-x', '120', '-y', '40', `env -u CI NO_COLOR=1 ${process.execPath} ${CLI} lab --scenario healthy --speed 300 --state-dir ${state} --notify ${listener.url}; sleep 5`);

    let s = await waitFor('Press Enter to begin.');
    expect(s).toMatch(/LAB +LIVE/);
    expect(s).toContain('Welcome to the upgrade-pilot lab.');
    send('Enter');

    s = await waitFor('c continue with these values');
    expect(s).toMatch(/✔ Preflight checks/);
    expect(s).toMatch(/✔ Record what is deployed/);
    expect(s).toMatch(/✔ Plan the hops/);
    expect(s).toMatch(/RULES PASS 24\/24 customization rules hold/);
    send('c');

    for (const hop of [1, 2]) {
      s = await waitFor(/GATE: Write the draft of vmo-infra/);
      expect(s).toMatch(new RegExp(`Hop ${hop}/2`));
      expect(s).toMatch(/❯ \[n\] Not now/); // the safe option is focused
      send('y');
      await waitFor(/GATE: Write the draft of vmo-core-addon/);
      send('y');
      s = await waitFor(/GATE: Publish vmo-infra/);
      expect(s).toMatch(/reconciles against/);
      send('y');
      await waitFor(/GATE: Publish vmo-core-addon/);
      send('y');
      s = await waitFor(/GATE: Restart VM ns-packs\/build-cache-01/, 90_000);
      expect(s).toMatch(/❯ \[s\] Skip/); // Skip is focused by default
      expect(s).toMatch(/graceful shutdown and boot/);
      send('r');
    }

    s = await waitFor('f finish with these results', 90_000);
    expect(s).toMatch(/6 green, 0 red/);
    send('f');
    s = await waitFor('DONE: every step finished.');
    expect(s).toMatch(/Report:/);
    send('q');
    // The run ends (its session lock released) before the terminal goes: nothing is left running.
    const session = join(state, 'sessions', readdirSync(join(state, 'sessions'))[0]!);
    for (let i = 0; i < 200 && existsSync(join(session, 'lock')); i++) await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(join(session, 'lock'))).toBe(false);
    // One message per gate that waited for a key, then the end; the lab's key in none of them.
    const messages = listener.received.map((r) => JSON.parse(r.body) as { event: string; gate?: string });
    const hop = ['draft', 'draft', 'publish', 'publish', 'restart'];
    expect(messages.map((m) => m.gate ?? m.event)).toEqual(['customize', ...hop, ...hop, 'verify', 'done']);
    const key = (JSON.parse(readFileSync(join(state, 'lab.json'), 'utf8')) as { apiKey?: string }).apiKey;
    if (key) expect(JSON.stringify(listener.received)).not.toContain(key);
  }, 300_000);
});
