/**
 * `upgrade-pilot lab` on a terminal without --scenario (what `npm start` does): the question in a
 * real pseudo-terminal (tmux on a private socket), answered with the keys an operator presses, then
 * gone from the screen: the lab's first frame starts at the top, not under a stale question. Each
 * scenario is listed with its line from the one catalog; Esc is the operator's choice not to start
 * (exit 3), Ctrl+C an interruption (130).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scenarioCatalog } from '../../src/lab/scenario-catalog.js';
import { openTerminal, type Terminal } from './terminal.js';

let term: Terminal | undefined;
afterEach(() => term?.close());

const question = () => {
  const state = mkdtempSync(join(tmpdir(), 'up-e2e-pick-'));
  term = openTerminal(['lab', '--state-dir', state], { columns: 100, rows: 30 });
  return term;
};

describe('the lab scenario question', () => {
  it('↓ ↓ Enter picks `lost-customizations`; the question leaves the screen before the lab’s first frame', async () => {
    const t = question();
    const asked = await t.waitFor(/Which lab scenario\?[\s\S]*❯ healthy/, 30_000);
    // Every scenario of the catalog, each with (the start of) its line.
    for (const s of scenarioCatalog) expect(asked).toMatch(new RegExp(`${s.name} +${s.line.slice(0, 20).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    // One key per write, as a hand types them (two in one write reach ink-select-input as one key).
    t.send('Down');
    await t.waitFor(/❯ skip-minor/, 30_000);
    t.send('Down');
    await t.waitFor(/❯ lost-customizations/, 30_000);
    t.send('Enter');
    const shell = await t.waitFor(/Preflight checks/, 30_000);
    expect(shell).not.toContain('Which lab scenario?');
    // The header keeps the badge and the session, then the cluster, then the runbook's title as room allows.
    expect(shell.split('\n')[0]).toMatch(/VM orchestration pack upgrade · cluster the lab \(lost-customizations\) +LAB +session starting…/);
    const guide = await t.waitFor('Welcome to the upgrade-pilot lab', 60_000);
    expect(guide).toContain('Scenario "lost-customizations"');
    t.send('C-c');
  }, 90_000);

  it.each<[string, string, number]>([
    ['Esc: the operator chose not to start (exit 3)', 'Escape', 3],
    ['Ctrl+C: an interruption (exit 130)', 'C-c', 130],
  ])('%s', async (_what, key, code) => {
    const t = question();
    await t.waitFor(/❯ healthy/, 30_000);
    // A key the list answers first: the terminal is then in raw mode, where Ctrl+C is a key the
    // question reads (before it, the terminal would turn it into SIGINT for the whole window).
    t.send('Down');
    await t.waitFor(/❯ skip-minor/, 30_000);
    t.send(key);
    expect(await t.exitCode()).toBe(code);
    expect(t.screen()).toMatch(/No scenario picked: the lab did not start\./);
  }, 60_000);
});
