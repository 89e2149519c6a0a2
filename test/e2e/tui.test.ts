/**
 * The TUI end to end in a real pseudo-terminal: tmux (on a private socket) runs `upgrade-pilot lab`
 * (a lab playing a real Palette, as `npm start` does) at 120x40; the test presses the keys an
 * operator would and reads the screen at every step.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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

afterAll(() => {
  try {
    tmux('kill-server');
  } catch {
    // already gone
  }
});

describe('TUI in a real terminal', () => {
  it('walks the healthy upgrade with the keys an operator presses', async () => {
    const state = mkdtempSync(join(tmpdir(), 'up-e2e-tui-'));
    tmux('new-session', '-d', '-s', 'tui', '-x', '120', '-y', '40', `env -u CI NO_COLOR=1 ${process.execPath} ${CLI} lab --scenario healthy --speed 300 --state-dir ${state}; sleep 5`);

    let s = await waitFor('Press Enter to begin.');
    expect(s).toMatch(/LAB +LIVE/);
    expect(s).toContain('Welcome to the upgrade-pilot lab.');
    // `npm start` plays a real Palette, and says so.
    expect(s).toMatch(/Profile API: a real Palette\. Each hop clones the deployed profile version/);
    send('Enter');

    s = await waitFor('c continue with these values');
    expect(s).toMatch(/✔ Preflight checks/);
    expect(s).toMatch(/✔ Record what is deployed/);
    expect(s).toMatch(/✔ Plan the hops/);
    expect(s).toMatch(/RULES PASS 24\/24 customization rules hold/);
    send('c');

    for (const hop of [1, 2]) {
      s = await waitFor(/GATE: Create vmo-infra 1\.[56]\.0 \(clone\) and write its draft/);
      expect(s).toMatch(new RegExp(`Hop ${hop}/2`));
      expect(s).toMatch(/❯ \[n\] Not now/); // the safe option is focused
      send('y');
      await waitFor(/GATE: Create vmo-core-addon 1\.[56]\.0 \(clone\) and write its draft/);
      send('y');
      s = await waitFor(/GATE: Publish vmo-infra/);
      expect(s).toMatch(/No cluster changes/);
      send('y');
      await waitFor(/GATE: Publish vmo-core-addon/);
      send('y');
      s = await waitFor(/GATE: Apply vmo-infra 1\.[56]\.0 and vmo-core-addon 1\.[56]\.0 to/);
      expect(s).toMatch(/replaceWithProfile/);
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
  }, 300_000);
});
