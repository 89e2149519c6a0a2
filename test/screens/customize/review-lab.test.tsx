/**
 * The customizations review drawn from a rehearsal of the healthy lab (the bundled runbook, the real
 * runner, kubectl and the lab's Palette; stopped at the review), at 80x24 and 120x40. Asserts the
 * facts a decision depends on are on screen: each conflict's pack row with its counts (first,
 * marked), the header's totals as the rows add them up, `/conflict` finding them, each conflict's
 * path and both values whole, and what `c` keeps; then the keys of the conflicts confirmation:
 * hurried sequences (c c, arrows, q, Esc, y too soon) answer nothing and decide nothing; y after
 * the list was read continues, with the decisions untouched.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App } from '../../../src/screens/App.js';
import { CustomizeScreen } from '../../../src/screens/CustomizeScreen.js';
import { noApprovals } from '../../../src/engine/approval-policy.js';
import type { Decision, GateRequest } from '../../../src/engine/gate.js';
import { findStep, type SessionState } from '../../../src/engine/state.js';
import { startLab, type LabHandle } from '../../../src/lab/index.js';
import { ConfirmQueue } from '../../../src/screens/confirm-queue.js';
import { tuiConfirm } from '../../../src/run/confirm.js';
import { packRows, reviewTotals } from '../../../src/screens/customize/pack-rows.js';
import type { CustomizeLive, CustomizeOutput } from '../../../src/steps/customize/types.js';
import { labRun } from '../../support/lab-harness.js';
import { ManualClock } from '../../support/manual-clock.js';
import { keys, pane, plain, press, renderAt, settle, waitForFrame, words } from '../../support/ui.js';

const RUNBOOK = new URL('../../../runbooks/vmo-upgrade.yaml', import.meta.url).pathname;
const sizes = [
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 },
] as const;
const GUARD_MS = 500;

let lab: LabHandle | undefined;
let saved: { state: SessionState; gate: GateRequest; out: CustomizeOutput };

beforeAll(async () => {
  lab = await startLab({ scenario: 'healthy', stateDir: mkdtempSync(join(tmpdir(), 'up33-review-')), speed: 150, seed: 33, flavor: 'palette' });
  const run = labRun(lab, RUNBOOK, { dryRun: true });
  const queue = new ConfirmQueue();
  const ctrl = new AbortController();
  const runner = run.runner({ confirm: tuiConfirm(queue, noApprovals, true), signal: ctrl.signal });
  const outcome = runner.run();
  // The rehearsal runs preflight, the snapshot and the plan, then waits at the review.
  const start = Date.now();
  while (queue.current()?.gate !== 'customize') {
    if (Date.now() - start > 120_000) throw new Error('the rehearsal never reached the customizations review');
    await new Promise((r) => setTimeout(r, 20));
  }
  const state = structuredClone(runner.getState());
  const gate = queue.current()!;
  const out = (findStep(state, 'customize')!.live as CustomizeLive).result!;
  saved = { state, gate, out };
  ctrl.abort();
  await outcome.catch(() => undefined);
}, 180_000);

afterAll(async () => {
  await lab?.close();
});

/** The review on screen, its gate open in a queue of its own; `answered` holds the answer once one is sent. */
function mount(size: { columns: number; rows: number }) {
  const queue = new ConfirmQueue();
  const answer: { decision?: Decision } = {};
  void queue.confirm(saved.gate).then((d) => (answer.decision = d), () => undefined);
  const clock = new ManualClock();
  const stops = { n: 0 };
  const source = { getState: () => saved.state, subscribe: () => () => undefined };
  const ui = renderAt(<App controller={{ source, queue, rehearsal: true, outcome: new Promise(() => undefined), stop: () => void (stops.n += 1), gateGuardMs: GUARD_MS, guardClock: clock.now }} />, size);
  return { ui, answer, clock, stops };
}

/** What the pane says, its wrapping undone and its spaces removed: a path or a value wrapped anywhere still reads whole. */
const flat = (frame: string) => pane(frame).replace(/\s+/g, '');
const compact = (s: string) => s.replace(/\s+/g, '');
const json = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

const conflicts = () =>
  packRows(saved.out).flatMap((row) => row.entries.filter((e) => e.label === 'conflict').map((entry) => ({ row, entry })));

describe('the rehearsal’s review', () => {
  it('holds the healthy lab’s three conflicts (hop 1 orchestration pack, hop 2 storage pack twice)', () => {
    expect(saved.out.conflicts).toBe(3);
    expect(conflicts().map((c) => `${c.row.hop} ${c.row.pack.name} ${c.entry.path}`)).toEqual([
      '1 virtual-machine-orchestrator charts.virtual-machine-orchestrator.kubevirt.kubevirtResource.additionalFeatureGates',
      '2 csi-portworx-generic charts.portworx-generic.storageClass.name',
      '2 csi-portworx-generic charts.portworx-generic.storageClass.parameters.io_profile',
    ]);
  });
});

describe.each(sizes)('the customizations review at $columns x $rows', (size) => {
  it('shows each conflict’s pack row first, marked, with its counts; the header adds the rows up; /conflict finds them', async () => {
    const { ui } = mount(size);
    const frame = await waitForFrame(ui.lastFrame, (f) => f.includes('RULES PASS'));
    const lines = frame.split('\n');
    expect(lines.length).toBeLessThan(size.rows);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(size.columns);
    const totals = reviewTotals(packRows(saved.out));
    expect(words(pane(frame))).toContain(`conflicts ${totals.conflicts} · new ${totals.newDefaults} · carried ${totals.carried} · ignored ${totals.ignored}`);
    // The two rows that hold the conflicts are the first two, marked, with their counts whole (on their line or the one under it).
    const rows = pane(frame).split('\n');
    for (const [hop, versions, count] of [
      [1, '4.4.10 → 4.5.4', 'conflicts 1'],
      [2, '3.1.8 → 3.2.1', 'conflicts 2'],
    ] as const) {
      const at = rows.findIndex((l) => l.includes(`! hop ${hop} · `) && l.includes(versions));
      expect(at).toBeGreaterThanOrEqual(0);
      expect(`${rows[at]} ${rows[at + 1]}`).toContain(count);
    }
    const packLines = rows.filter((l) => /^[❯ ] [!+ ] hop \d+ · /.test(l));
    expect(packLines[0]).toContain('! hop 1 · ');
    expect(packLines[1]).toContain('! hop 2 · ');
    // The search finds what the rows say: the first conflict, then (n) the next.
    await press(ui.stdin, 'g', '/', ...'conflict', keys.enter);
    let found = await waitForFrame(ui.lastFrame, (f) => f.includes('"conflict": n next'));
    expect(found).not.toContain('not found');
    expect(found).toMatch(/❯ ! hop 1 · /);
    await press(ui.stdin, 'n');
    found = await waitForFrame(ui.lastFrame, (f) => /❯ ! hop 2 · /.test(f));
    expect(found).toContain('3.1.8 → 3.2.1');
    ui.unmount();
  });

  it('opens each conflict whole: its path, the site value and the new default on one screen', async () => {
    const { ui } = mount(size);
    await waitForFrame(ui.lastFrame, (f) => f.includes('RULES PASS'));
    // The conflicts' rows are the first two packs, their conflicts first among the differences.
    const ways = [[keys.tab, keys.enter], [keys.tab, keys.down, keys.tab, keys.enter], [keys.down, keys.enter]];
    for (const [i, { entry }] of conflicts().entries()) {
      await press(ui.stdin, ...ways[i]!);
      const whole = await waitForFrame(ui.lastFrame, (f) => f.includes('Decision now:') && flat(f).includes(compact(entry.path)));
      const lines = whole.split('\n');
      expect(lines.length).toBeLessThan(size.rows);
      for (const l of lines) expect(l.length).toBeLessThanOrEqual(size.columns);
      expect(flat(whole)).toContain(compact(`path: ${entry.path}`));
      expect(flat(whole)).toContain(compact(`site (deployed): ${json(entry.deployed)}`));
      expect(flat(whole)).toContain(compact(`new default: ${json(entry.newDefault)}`));
      expect(whole).toMatch(/Decision now: (merge both|keep site) \(proposed\)/);
      await press(ui.stdin, keys.escape);
      await waitForFrame(ui.lastFrame, (f) => f.includes('RULES PASS'));
    }
    ui.unmount();
  });

  it('c lists every undecided conflict with its pack, path, both values and what c keeps; y (after reading it) continues', async () => {
    const { ui, answer, clock } = mount(size);
    await waitForFrame(ui.lastFrame, (f) => f.includes('RULES PASS'));
    clock.advance(GUARD_MS);
    await press(ui.stdin, 'c');
    let frame = await waitForFrame(ui.lastFrame, (f) => f.includes('3 conflict(s) nobody decided'));
    expect(frame).toContain('[y] Continue with these proposals');
    expect(frame).toContain('[n] Back to the review (Esc)');
    expect(frame.split('\n').at(-1)).toMatch(/y continue with these proposals/);
    // Read it all, page by page (the rows of each page put in their place): every conflict's facts are in it.
    const all: string[] = [];
    for (let i = 0; i < 12; i++) {
      const lines = pane(frame).split('\n');
      const at = lines.findIndex((l) => /^rows \d+-\d+ of \d+/.test(l));
      if (at < 0) {
        all.push(...lines);
        break;
      }
      const [, a, b, n] = /^rows (\d+)-(\d+) of (\d+)/.exec(lines[at]!)!.map(Number) as [number, number, number, number];
      lines.slice(at - (b - a + 1), at).forEach((l, j) => (all[a - 1 + j] = l));
      if (b === n) break;
      await press(ui.stdin, keys.pageDown);
      frame = await waitForFrame(ui.lastFrame, (f) => !f.includes(`rows ${a}-${b} of`));
    }
    const seen = compact(all.join('\n'));
    for (const { row, entry } of conflicts()) {
      expect(seen).toContain(compact(`hop ${row.hop} · ${row.profile} / ${row.pack.name} ${row.pack.from} → ${row.pack.tag}`));
      expect(seen).toContain(compact(`path: ${entry.path}`));
      expect(seen).toContain(compact(`site: ${json(entry.deployed)}`));
      expect(seen).toContain(compact(`new default: ${json(entry.newDefault)}`));
    }
    expect(seen).toContain(compact(`c keeps: both lists merged (the new version's items, then the site's): ${json(conflicts()[0]!.entry.result)}`));
    expect(seen).toContain(compact('c keeps: the site value: px-vm-block'));
    expect(answer.decision).toBeUndefined();
    clock.advance(GUARD_MS);
    await press(ui.stdin, 'y');
    await waitForFrame(ui.lastFrame, () => answer.decision !== undefined);
    expect(answer.decision).toMatchObject({ choice: 'approve', key: 'c then y (undecided conflicts shown)', data: { decisions: {}, fixes: {} } });
    ui.unmount();
  });
});

describe('the conflicts confirmation’s hurried keys send nothing and decide nothing', () => {
  const size = { columns: 80, rows: 24 };

  /** The review, armed, with the confirmation open. */
  async function opened() {
    const m = mount(size);
    await waitForFrame(m.ui.lastFrame, (f) => f.includes('RULES PASS'));
    m.clock.advance(GUARD_MS);
    await press(m.ui.stdin, 'c');
    await waitForFrame(m.ui.lastFrame, (f) => f.includes('3 conflict(s) nobody decided'));
    return m;
  }

  /** Nothing was sent; the deliberate way (c, read to the end, y) then continues with no decision taken. */
  async function nothingSentThenDeliberate(m: Awaited<ReturnType<typeof opened>>) {
    await settle();
    expect(m.answer.decision).toBeUndefined();
    expect(m.stops.n).toBe(0);
    if (!plain(m.ui.lastFrame()).includes('3 conflict(s) nobody decided')) {
      await waitForFrame(m.ui.lastFrame, (f) => f.includes('RULES PASS'));
      await press(m.ui.stdin, 'c');
      await waitForFrame(m.ui.lastFrame, (f) => f.includes('3 conflict(s) nobody decided'));
    }
    m.clock.advance(GUARD_MS);
    await press(m.ui.stdin, 'G', 'y');
    await waitForFrame(m.ui.lastFrame, () => m.answer.decision !== undefined);
    expect(m.answer.decision).toMatchObject({ choice: 'approve', data: { decisions: {} } });
    m.ui.unmount();
  }

  it('c c: the second c continues nothing (it says y continues)', async () => {
    const m = await opened();
    m.clock.advance(GUARD_MS);
    await press(m.ui.stdin, 'c');
    await waitForFrame(m.ui.lastFrame, (f) => f.includes('c does not continue here: y continues'));
    await nothingSentThenDeliberate(m);
  });

  it('arrows scroll and move nothing else', async () => {
    const m = await opened();
    m.clock.advance(GUARD_MS);
    await press(m.ui.stdin, keys.up, keys.down, keys.left, keys.right, keys.enter);
    expect(plain(m.ui.lastFrame())).toContain('3 conflict(s) nobody decided');
    await nothingSentThenDeliberate(m);
  });

  it('q asks to quit; staying comes back to the review with nothing sent', async () => {
    const m = await opened();
    await press(m.ui.stdin, 'q');
    await waitForFrame(m.ui.lastFrame, (f) => /Quit/.test(f));
    await press(m.ui.stdin, 'n');
    await waitForFrame(m.ui.lastFrame, (f) => f.includes('RULES PASS'));
    await nothingSentThenDeliberate(m);
  });

  it('Esc goes back to the review, the conflicts still proposed', async () => {
    const m = await opened();
    await press(m.ui.stdin, keys.escape);
    await waitForFrame(m.ui.lastFrame, (f) => f.includes('RULES PASS'));
    await press(m.ui.stdin, keys.tab);
    await waitForFrame(m.ui.lastFrame, (f) => f.includes('Decision: merge both (proposed)'));
    await nothingSentThenDeliberate(m);
  });

  it('y inside the guard time, or before the list was read to its end, continues nothing', async () => {
    const m = await opened();
    await press(m.ui.stdin, 'y', 'y');
    expect(m.answer.decision).toBeUndefined();
    m.clock.advance(GUARD_MS);
    await press(m.ui.stdin, 'y');
    await waitForFrame(m.ui.lastFrame, (f) => f.includes('Read to the end first'));
    await nothingSentThenDeliberate(m);
  });
});

describe('deciding at the review', () => {
  it('a conflict decided is not listed by c; a new round of the review (decisions applied) is shown, not confirmed', async () => {
    const step = findStep(saved.state, 'customize')!;
    const answers: Array<{ choice: string; data: unknown; pressed?: string | undefined }> = [];
    const props = { step, state: saved.state, isActive: true, rehearsal: true, width: 100, height: 40, guard: { ms: 0 }, decide: (choice: string, data?: unknown, pressed?: string) => void answers.push({ choice, data, pressed }) };
    const ui = render(<CustomizeScreen {...props} gate={saved.gate} />);
    await waitForFrame(ui.lastFrame, (f) => f.includes('RULES PASS'));
    // The first conflict (the feature gates): opened, then its choices; take the new default.
    await press(ui.stdin, keys.tab, keys.enter, keys.enter, keys.down, keys.enter);
    await waitForFrame(ui.lastFrame, (f) => f.includes('Decision: take new default'));
    await press(ui.stdin, 'c');
    const frame = await waitForFrame(ui.lastFrame, (f) => f.includes('2 conflict(s) nobody decided'));
    expect(frame).not.toContain('additionalFeatureGates');
    expect(frame).toContain('storageClass.name');
    await press(ui.stdin, 'G', 'y');
    expect(answers).toHaveLength(1);
    const key = `1/addon/virtual-machine-orchestrator/${conflicts()[0]!.entry.path}`;
    expect(answers[0]).toMatchObject({ choice: 'approve', pressed: 'c then y (undecided conflicts shown)', data: { decisions: { [key]: 'takeNew' } } });
    // The step computes again and asks a new round: the review is on screen, nothing answers it.
    ui.rerender(<CustomizeScreen {...props} gate={{ ...saved.gate, key: 'customize/review/2' }} />);
    await waitForFrame(ui.lastFrame, (f) => f.includes('RULES PASS'));
    await press(ui.stdin, 'y');
    expect(answers).toHaveLength(1);
    ui.unmount();
  });
});
