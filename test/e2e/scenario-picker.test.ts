/**
 * `upgrade-pilot lab` on a terminal without --scenario (what `npm start` does): the question in a
 * real pseudo-terminal (tmux on a private socket), answered with the keys an operator presses, then
 * gone from the screen: the lab's first frame starts at the top, not under a stale question.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI } from './support.js';

const socket = `up-e2e-pick-${process.pid}`;
const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
const screen = () => tmux('capture-pane', '-p', '-J', '-t', 'pick');

async function waitFor(test: (s: string) => boolean, what: string, timeoutMs = 30_000): Promise<string> {
  const started = Date.now();
  for (;;) {
    const s = screen();
    if (test(s)) return s;
    if (Date.now() - started > timeoutMs) throw new Error(`the screen never showed ${what}; it shows:\n${s}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

afterAll(() => {
  try {
    tmux('kill-server');
  } catch {
    // already gone
  }
});

describe('the lab scenario question', () => {
  it('↓ ↓ Enter picks `lost-customizations`; the question leaves the screen before the lab’s first frame', async () => {
    const state = mkdtempSync(join(tmpdir(), 'up-e2e-pick-'));
    tmux('new-session', '-d', '-s', 'pick', '-x', '100', '-y', '30', `env -u CI NO_COLOR=1 ${process.execPath} ${CLI} lab --state-dir ${state}; sleep 30`);
    await waitFor((s) => s.includes('Which lab scenario?') && s.includes('❯ healthy'), 'the question');
    // One key per write, as a hand types them (two in one write reach ink-select-input as one key).
    tmux('send-keys', '-t', 'pick', 'Down');
    await waitFor((s) => s.includes('❯ skip-minor'), 'the second choice highlighted');
    tmux('send-keys', '-t', 'pick', 'Down');
    await waitFor((s) => s.includes('❯ lost-customizations'), 'the third choice highlighted');
    tmux('send-keys', '-t', 'pick', 'Enter');
    const shell = await waitFor((s) => s.includes('Preflight checks'), 'the lab’s first frame');
    expect(shell).not.toContain('Which lab scenario?');
    // The header keeps the badge and the session, then the cluster, then the runbook's title as room allows.
    expect(shell.split('\n')[0]).toMatch(/VM orchestration pack upgrade · cluster the lab \(lost-customizations\) +LAB +session starting…/);
    const guide = await waitFor((s) => s.includes('Welcome to the upgrade-pilot lab'), 'the guide', 60_000);
    expect(guide).toContain('Scenario "lost-customizations"');
    tmux('send-keys', '-t', 'pick', 'C-c');
  }, 90_000);
});
