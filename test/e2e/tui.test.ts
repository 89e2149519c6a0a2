/**
 * The TUI end to end in a real pseudo-terminal: tmux (on a private socket) runs `upgrade-pilot lab`
 * (a lab playing a real Palette, as `npm start` does); the test presses the keys an operator would
 * and reads the screen at every step. The first gate is walked at 80x24 (its options and the key
 * line on screen), the rest at 120x40.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listen } from '../notify/support.js';
import { until } from '../support/wait.js';
import { flat, openTerminal, type Terminal } from './terminal.js';

let term: Terminal | undefined;
const send = (...keys: string[]) => term!.send(...keys);
const waitFor = (text: string | RegExp, timeoutMs?: number) => term!.waitFor(text, timeoutMs);

/**
 * A gate takes no key until it has been on screen for the runbook's guard time (500 ms), and says
 * so beside its options until then: answer once the screen no longer says it.
 */
const answer = async (key: string) => {
  await term!.armed();
  send(key);
};

let closeListener: (() => Promise<void>) | undefined;

afterAll(async () => {
  await closeListener?.();
  term?.close();
});

/** Changes the session journaled as sent (the lab runs in the TUI's process: its journal is the proof). */
function sentChanges(state: string): string[] {
  const sessions = join(state, 'sessions');
  const [id] = readdirSync(sessions);
  return readFileSync(join(sessions, id!, 'journal.ndjson'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { event: { type: string; key?: string } }).event)
    .filter((e) => e.type === 'mutation.intent')
    .map((e) => e.key!);
}

describe('TUI in a real terminal', () => {
  it('walks the healthy upgrade with the keys an operator presses', async () => {
    const state = mkdtempSync(join(tmpdir(), 'up-e2e-tui-'));
    const listener = await listen('ok');
    closeListener = () => listener.close();
    term = openTerminal(['lab', '--scenario', 'healthy', '--speed', '300', '--state-dir', state, '--notify', listener.url], { columns: 80, rows: 24 });

    let s = await waitFor('Enter: close this guide and go on');
    expect(s).toMatch(/ LAB  session /); // one badge: the lab, not a live cluster
    expect(s).not.toMatch(/\bLIVE\b(?!-)/);
    expect(s).toContain('Welcome to the upgrade-pilot lab.');
    // `npm start` plays a real Palette, and says so.
    expect(s).toMatch(/Profile API: a real Palette\. Each hop clones/);
    // The guide says what ran meanwhile (read-only) and that the first change waits.
    s = await waitFor('While you read this, these read-only steps ran');
    send('Enter');

    s = await waitFor('c continue with these values');
    expect(s).toMatch(/✔ Preflight checks/);
    expect(s).toMatch(/✔ Record what is deployed/);
    expect(s).toMatch(/✔ Plan the hops/);
    expect(s).toMatch(/RULES PASS 24\/24 customization rules hold/);
    // The rows that hold the conflicts come first, marked, with their counts.
    expect(flat(s)).toMatch(/! hop 1 · \S+ 4\.4\.10 → 4\.5\.4 conflicts 1 ·/);
    await answer('c');
    // Nobody decided the three conflicts: c lists them first, and only y continues.
    s = await waitFor('3 conflict(s) nobody decided');
    expect(s).toContain('[y] Continue with these proposals');
    send('G');
    // The list read to its end (a key sent with the next one in the same read would be a paste).
    await waitFor(/rows \d+-(\d+) of \1 /);
    await answer('y');

    // At 80x24 the whole gate is on screen: its title down to the key line on the last row.
    s = await waitFor(/GATE: Create vmo-infra 1\.5\.0 \(clone\)[\s\S]*y n choose .*\? help/);
    expect(s.trimEnd().split('\n').length).toBeLessThanOrEqual(24);
    expect(s).toContain('[y] Clone and write draft');
    expect(s).toMatch(/❯ \[n\] Not now/);
    // (That a key typed as a gate appears is dropped is proven in test/screens/gate-keys.test.tsx on
    // the guard's own clock: from outside the process, "as it appears" depends on the machine's load.)
    expect(sentChanges(state)).toEqual([]);
    term.resize(120, 40);

    for (const hop of [1, 2]) {
      s = await waitFor(/GATE: Create vmo-infra 1\.[56]\.0 \(clone\) and write its draft/);
      expect(s).toMatch(new RegExp(`Hop ${hop}/2`));
      expect(s).toMatch(/❯ \[n\] Not now/); // the safe option is focused
      await answer('y');
      await waitFor(/GATE: Create vmo-core-addon 1\.[56]\.0 \(clone\) and write its draft/);
      await answer('y');
      s = await waitFor(/GATE: Publish vmo-infra/);
      expect(s).toMatch(/No cluster changes/);
      await answer('y');
      await waitFor(/GATE: Publish vmo-core-addon/);
      await answer('y');
      s = await waitFor(/GATE: Apply vmo-infra 1\.[56]\.0 and vmo-core-addon 1\.[56]\.0 to/);
      expect(s).toMatch(/replaceWithProfile/);
      await answer('y');
      s = await waitFor(/GATE: Restart VM ns-packs\/build-cache-01/, 90_000);
      expect(s).toMatch(/❯ \[s\] Skip/); // Skip is focused by default
      expect(s).toMatch(/graceful shutdown and boot/);
      await answer('r');
    }

    s = await waitFor('f finish with these results', 90_000);
    // Amber only for the cluster's past: the nodes panel lists the lab's week-old eviction as pre-existing.
    expect(s).toMatch(/5 green, 0 red, 1 amber/);
    await answer('f');
    s = await waitFor('DONE: every step finished.');
    expect(s).toMatch(/Report:/);
    expect(sentChanges(state).filter((k) => k.endsWith('/put'))).toEqual(['hop1.draft-infra/put', 'hop1.draft-addon/put', 'hop2.draft-infra/put', 'hop2.draft-addon/put']);
    send('q');
    // Under the last frame, once the TUI has gone: where the report is.
    s = await waitFor(/^report: \S+report\.md$/m);
    // The run ends (its session lock released) before the terminal goes: nothing is left running.
    const session = join(state, 'sessions', readdirSync(join(state, 'sessions'))[0]!);
    await until('the session lock to be released', () => !existsSync(join(session, 'lock')), 30_000).catch(() => undefined);
    expect(existsSync(join(session, 'lock'))).toBe(false);
    // One message per gate that waited for a key, then the end; the lab's key in none of them.
    const messages = listener.received.map((r) => JSON.parse(r.body) as { event: string; gate?: string });
    const hop = ['draft', 'draft', 'publish', 'publish', 'apply', 'restart'];
    expect(messages.map((m) => m.gate ?? m.event)).toEqual(['customize', ...hop, ...hop, 'verify', 'done']);
    const key = (JSON.parse(readFileSync(join(state, 'lab.json'), 'utf8')) as { apiKey?: string }).apiKey;
    expect(key).toBeTruthy();
    expect(JSON.stringify(listener.received)).not.toContain(key!);
  }, 300_000);
});
