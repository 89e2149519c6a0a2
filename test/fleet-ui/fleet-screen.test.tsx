/**
 * The fleet screen, drawn by Ink at 120x40 and 80x24 over a 12-cluster fleet journal, with real
 * single-cluster runners (the engine harness) attached where a cluster runs: rows, stage headers,
 * the gates queued across clusters with their cluster named, Enter/`a` into a cluster's own session
 * screens and Esc back, the stage gate answered only by a key typed after it was drawn, a hurried
 * operator's double keys, `q` asking Quit?/Stay, the rate-limit line. Frames are waited for, never slept.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppController } from '../../src/screens/App.js';
import { noApprovals } from '../../src/engine/approval-policy.js';
import { findStep } from '../../src/engine/state.js';
import { FleetJournal, fleetPaths } from '../../src/fleet/journal.js';
import type { FleetEvent } from '../../src/fleet/types.js';
import { WatchedLimiter } from '../../src/fleet/watched-limiter.js';
import { FleetStop } from '../../src/fleet/stop-control.js';
import { ConfirmQueue } from '../../src/screens/confirm-queue.js';
import { tuiConfirm } from '../../src/run/confirm.js';
import { shortenMiddle } from '../../src/screens/fit-text.js';
import { FleetLink } from '../../src/fleet-ui/fleet-link.js';
import { FleetScreen } from '../../src/fleet-ui/FleetScreen.js';
import { planEvent } from '../fleet/plan-fixture.js';
import { harness, type Harness } from '../support/engine-harness.js';
import { ManualClock } from '../support/manual-clock.js';
import { keys, press, renderAt, waitForFrame, words } from '../support/ui.js';
import { until } from '../support/wait.js';

const LONG = 'store-0042-frankfurt-east-edge';
const names = ['store-001', 'store-002', 'store-003', 'store-004', 'store-005', 'store-006', 'store-007', 'store-008', 'store-009', 'store-010', 'store-011', LONG];
const at = (s: number) => new Date(Date.now() - 600_000 + s * 1000).toISOString();

function planned(approvalWave2: boolean): FleetEvent {
  return planEvent(
    at(0),
    [
      { name: 'canary', clusters: names.slice(0, 1), maxConcurrency: 1, failureThreshold: 1, approval: false },
      { name: 'wave-1', clusters: names.slice(1, 4), maxConcurrency: 2, failureThreshold: 1, approval: false },
      { name: 'wave-2', clusters: names.slice(4), maxConcurrency: 4, failureThreshold: 1, approval: approvalWave2 },
    ],
    [{ name: 'store-099', uid: 'uid-99', reason: 'a cluster template manages it' }],
  );
}

const ran = (cluster: string, s: number, outcome?: 'done' | 'failed'): FleetEvent[] => [
  { type: 'cluster.started', at: at(s), cluster, session: `sess-${cluster}`, attempt: 1, resumed: false },
  ...(outcome ? [{ type: 'cluster.ended', at: at(s + 60), cluster, session: `sess-${cluster}`, outcome, exitCode: outcome === 'done' ? 0 : 1 } as FleetEvent] : []),
];

const twoDrafts = `apiVersion: upgrade-pilot/v1
kind: Runbook
metadata: { name: fleet-screen, title: Fleet cluster }
steps:
  - { id: infra, kind: gated-write, title: Draft infra, with: { path: /v1/clusterprofiles/infra } }
  - { id: addon, kind: gated-write, title: Draft add-on, with: { path: /v1/clusterprofiles/addon } }
`;

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** A held request: the limiter's inner budget never lets it through until released. */
function heldLimiter(now: () => number) {
  let release: () => void = () => undefined;
  const inner = { acquire: () => new Promise<void>((r) => (release = r)) };
  return { limiter: new WatchedLimiter(inner, now), release: () => release() };
}

function mount(size: { columns: number; rows: number }, events: FleetEvent[], opts: { attach?: string[]; reportPath?: string } = {}) {
  const journal = new FleetJournal(fleetPaths(mkdtempSync(join(tmpdir(), 'up-fleet-screen-')), 'edge'));
  for (const e of events) journal.append(e);
  const clock = { t: Date.now() };
  const held = heldLimiter(() => clock.t);
  const link = new FleetLink(journal, held.limiter);
  const guard = new ManualClock();
  const stop = new FleetStop();
  const stopped = { n: 0, asked: [] as string[] };
  let end: (code: number) => void = () => undefined;
  const outcome = new Promise<number>((r) => (end = r));
  const runs: Record<string, { h: Harness; queue: ConfirmQueue; stop: AbortController }> = {};
  for (const name of opts.attach ?? []) {
    const h = harness(twoDrafts);
    const queue = new ConfirmQueue();
    const stop = new AbortController();
    const runner = h.runner({ confirm: tuiConfirm(queue, noApprovals, false), signal: stop.signal });
    const controller: AppController = { source: runner, queue, rehearsal: false, outcome: runner.run(), stop: () => stop.abort(), gateGuardMs: 500, guardClock: guard.now };
    link.attach(name, controller);
    runs[name] = { h, queue, stop };
  }
  const halt = () => {
    stopped.n += 1;
    const did = stop.ask({ mode: 'halt', how: 'operator', reason: 'q on the fleet screen', by: 'ana@jump' });
    stopped.asked.push(did);
    return did;
  };
  const interrupt = () => void stopped.asked.push(stop.ask({ mode: 'now', how: 'signal', reason: 'Ctrl+C', by: 'ana@jump' }));
  const controller = { ...link.controller({ outcome, halt, interrupt, stopping: () => stop.requested(), resumeCommand: 'upgrade-pilot fleet resume --fleet /ops/edge.yaml', gateGuardMs: 500, ...(opts.reportPath ? { reportPath: () => opts.reportPath } : {}) }), guardClock: guard.now };
  const ui = renderAt(<FleetScreen controller={controller} />, size);
  cleanups.push(() => {
    for (const r of Object.values(runs)) r.stop.abort();
    ui.unmount();
    held.release();
    journal.close();
  });
  return { ui, link, journal, guard, runs, stopped, end, clock, held };
}

const wave2Running: FleetEvent[] = [
  planned(false),
  { type: 'stage.started', at: at(1), stage: 'canary' },
  ...ran('store-001', 2, 'done'),
  { type: 'stage.ended', at: at(63), stage: 'canary', outcome: 'done' },
  { type: 'stage.started', at: at(64), stage: 'wave-1' },
  ...ran('store-002', 65, 'done'),
  ...ran('store-003', 66, 'done'),
  ...ran('store-004', 130, 'failed'),
  { type: 'stage.ended', at: at(200), stage: 'wave-1', outcome: 'failed', message: 'store-004 failed' },
  { type: 'cluster.skipped', at: at(210), cluster: 'store-004', reason: 'closed', by: 'ana@jump' },
  { type: 'stage.started', at: at(220), stage: 'wave-2' },
  ...ran('store-005', 221),
  ...ran('store-006', 222),
  ...ran('store-007', 223),
  { type: 'cluster.ended', at: at(250), cluster: 'store-007', session: 'sess-store-007', outcome: 'failed', exitCode: 1, message: 'cni-cilium-oss 1.17.1 of vmo-infra 1.6.0 failed on store-007' },
];

describe('the fleet screen', () => {
  it('80x24: more gates than lines for them says how many are listed and where the rest are', async () => {
    const { ui } = mount({ columns: 80, rows: 24 }, wave2Running, { attach: ['store-005', 'store-006'] });
    const frame = await waitForFrame(ui.lastFrame, (f) => (f.match(/GATE/g) ?? []).length >= 2);
    expect(frame).toContain('Gates waiting (2), 1 listed, all GATE below: a or Enter on the row opens it');
  });

  it('120x40: every stage and cluster on screen, the gates queued with their cluster named', async () => {
    const { ui } = mount({ columns: 120, rows: 40 }, wave2Running, { attach: ['store-005', 'store-006'] });
    const frame = await waitForFrame(ui.lastFrame, (f) => (f.match(/GATE/g) ?? []).length >= 2);
    expect(frame).toContain('fleet edge → 4.6.3 · 12 clusters: 3 done, 1 skipped, 2 running, 1 failed, 5 pending');
    expect(frame).toContain('Gates waiting (2)');
    expect(frame).toContain('  store-005: Write draft /v1/clusterprofiles/infra');
    expect(frame).toContain('  store-006: Write draft /v1/clusterprofiles/infra');
    expect(frame).toMatch(/▸ canary: done · 1\/1 done/);
    expect(frame).toMatch(/▸ wave-1: failed · 2\/3 done/);
    expect(frame).toMatch(/▸ wave-2: running · 0\/8 done · 1 failed · 4 at a time, stops at 1/);
    // A failed row says what stopped it, not only the step it stopped in, cut only between words (Enter shows it whole).
    expect(frame).toMatch(/ store-007 +failed +cni-cilium-oss 1\.17\.1 of vmo-infra 1\.6\.0 failed on… +\d/);
    for (const n of names.slice(0, 11)) expect(frame, n).toContain(` ${n} `);
    expect(frame).toContain(shortenMiddle(LONG, 22));
    expect(frame).toMatch(/ store-005 +GATE +at gate: Write draft \/v1\/clusterprofiles\/infra +0\/0\/0 - +\d+m\d\ds/);
    expect(frame).toMatch(/ store-004 +skipped +skipped: closed \(ana@jump\)/);
    expect(frame).toMatch(/ store-002 +done .* 1m00s/);
    expect(frame).toContain('left out: a cluster template manages it');
    expect(frame.split('\n').every((l) => l.length <= 120)).toBe(true);
  });

  it('the selected failed cluster: what stopped it, whole, under the table', async () => {
    const { ui } = mount({ columns: 80, rows: 24 }, wave2Running);
    await waitForFrame(ui.lastFrame, (f) => f.includes('▸ wave-2'));
    await press(ui.stdin, keys.down, keys.down, keys.down, keys.down, keys.down, keys.down, keys.down, keys.down);
    const frame = await waitForFrame(ui.lastFrame, (f) => f.includes('store-007: cni-cilium-oss'));
    expect(words(frame)).toContain('store-007: cni-cilium-oss 1.17.1 of vmo-infra 1.6.0 failed on store-007');
  });

  it('Enter on a row with no session running here shows the row whole, wrapped; Esc returns', async () => {
    const events: FleetEvent[] = [
      ...wave2Running.slice(0, -1),
      { type: 'cluster.ended', at: at(250), cluster: 'store-007', session: 'sess-store-007', outcome: 'failed', exitCode: 1, message: 'cni-cilium-oss 1.17.1 of vmo-infra 1.6.0 failed on store-007: HelmUpgradeFailed: Error: UPGRADE FAILED: cannot patch "cilium-operator" with kind Deployment' },
      { type: 'cluster.ended', at: at(251), cluster: 'store-006', session: 'sess-store-006', outcome: 'unwatched', exitCode: 130, message: 'applied', motion: { hop: 1, of: 2, versions: '4.4.10 → 4.5.4', appliedAt: at(240) } },
    ];
    for (const size of [{ columns: 80, rows: 24 }, { columns: 120, rows: 40 }]) {
      const { ui } = mount(size, events);
      await waitForFrame(ui.lastFrame, (f) => f.includes('▸ wave-2'));
      // The unwatched row says so in its own column, cut only between words.
      expect(ui.lastFrame()).toMatch(size.columns === 80 ? / store-006 +unwatched +applied, rollout… / : / store-006 +unwatched +applied, rollout continues unwatched since \d\d:\d\d UTC /);
      await press(ui.stdin, keys.down, keys.down, keys.down, keys.down, keys.down, keys.down, keys.down, keys.down);
      await press(ui.stdin, keys.enter);
      let frame = await waitForFrame(ui.lastFrame, (f) => f.includes('store-007 · stage wave-2 · failed · session sess-store-007'));
      expect(words(frame), `${size.columns}`).toContain('HelmUpgradeFailed: Error: UPGRADE FAILED: cannot patch "cilium-operator" with kind Deployment');
      expect(frame.split('\n').every((l) => l.length <= size.columns)).toBe(true);
      await press(ui.stdin, keys.escape, keys.up);
      await waitForFrame(ui.lastFrame, (f) => f.includes('CLUSTER') && !f.includes('· stage wave-2 ·'));
      await press(ui.stdin, keys.enter);
      frame = await waitForFrame(ui.lastFrame, (f) => f.includes('store-006 · stage wave-2 · unwatched'));
      expect(words(frame)).toMatch(/applied hop 1 of 2 \(4\.4\.10 → 4\.5\.4\) at \d\d:\d\d UTC; nobody watches its rollout since \d\d:\d\d UTC: `upgrade-pilot fleet resume --fleet \/ops\/edge\.yaml` watches it again/);
      await press(ui.stdin, keys.escape);
    }
  });

  it('80x24: rows scroll with PgDn/G/g, names shortened in the middle, the key line whole', async () => {
    const { ui } = mount({ columns: 80, rows: 24 }, wave2Running, { attach: ['store-005'] });
    let frame = await waitForFrame(ui.lastFrame, (f) => f.includes('GATE'));
    expect(frame).toContain('store-005: Write draft /v1/clusterprofiles/infra');
    expect(frame).toMatch(/rows 1-\d+ of 17/);
    expect(frame).not.toContain('store-099');
    expect(frame.split('\n').every((l) => l.length <= 80)).toBe(true);
    expect(frame.split('\n').length).toBeLessThanOrEqual(24);
    await press(ui.stdin, 'G');
    frame = await waitForFrame(ui.lastFrame, (f) => f.includes('store-099'));
    expect(frame).toContain(shortenMiddle(LONG, 17));
    expect(frame).not.toMatch(/▸ canary/);
    await press(ui.stdin, 'g');
    frame = await waitForFrame(ui.lastFrame, (f) => f.includes('▸ canary'));
    await press(ui.stdin, keys.pageDown);
    frame = await waitForFrame(ui.lastFrame, (f) => !f.includes('▸ canary'));
    expect(frame).toMatch(/↑↓ select +Enter open +a next +PgDn PgUp g G +q quit|Enter open cluster/);
  });

  it("a opens the first queued gate on its cluster's own screens; Esc returns and sends nothing; keys typed before the gate was drawn do not count", async () => {
    const { ui, runs, guard } = mount({ columns: 120, rows: 40 }, wave2Running, { attach: ['store-005'] });
    await waitForFrame(ui.lastFrame, (f) => f.includes('Gates waiting (1)'));
    // Esc on the fleet at a queued gate: nothing.
    await press(ui.stdin, keys.escape, keys.escape);
    expect(runs['store-005']!.queue.current()?.title).toBe('Write draft /v1/clusterprofiles/infra');
    // A hurried operator: a, then y y at once. The y's reach a gate drawn that instant: dropped.
    await press(ui.stdin, 'a', 'y', 'y');
    let frame = await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Write draft /v1/clusterprofiles/infra'));
    expect(frame).toContain('Esc back to fleet edge');
    expect(runs['store-005']!.h.world.sent).toEqual([]);
    // Esc goes back to the fleet: the gate stays queued, unanswered (Esc is not its safe choice here).
    await press(ui.stdin, keys.escape);
    frame = await waitForFrame(ui.lastFrame, (f) => f.includes('Gates waiting (1)'));
    expect(findStep(runs['store-005']!.h.runner().getState(), 'infra')?.decisions).toEqual({});
    expect(runs['store-005']!.queue.current()?.title).toBe('Write draft /v1/clusterprofiles/infra');
    // Enter on its row opens it again; after the guard time a y approves it, once, by key.
    await press(ui.stdin, keys.down, keys.down, keys.down, keys.down, keys.down, keys.down);
    await press(ui.stdin, keys.enter);
    await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Write draft /v1/clusterprofiles/infra'));
    guard.advance(600);
    await press(ui.stdin, 'y');
    await until('the draft to be sent', () => runs['store-005']!.h.world.sent.length === 1);
    frame = await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Write draft /v1/clusterprofiles/addon'));
    expect(runs['store-005']!.h.world.sent.length).toBe(1);
  });

  it('the stage gate: drawn on the fleet screen, double keys inside its guard dropped, Esc hides it deciding nothing, a key after the guard approves', async () => {
    const events: FleetEvent[] = [planned(true), { type: 'stage.started', at: at(1), stage: 'canary' }, ...ran('store-001', 2, 'done'), { type: 'stage.ended', at: at(63), stage: 'canary', outcome: 'done' }, { type: 'stage.started', at: at(64), stage: 'wave-1' }, ...ran('store-002', 65, 'done'), ...ran('store-003', 66, 'done'), ...ran('store-004', 67, 'done'), { type: 'stage.ended', at: at(200), stage: 'wave-1', outcome: 'done' }];
    const { ui, link, journal, guard } = mount({ columns: 80, rows: 24 }, events);
    const stage = journal.state()!.stages[2]!;
    const signal = new AbortController();
    const asked = link.askStage(stage, signal.signal);
    let frame = await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Start stage wave-2: 8 cluster(s)?'));
    expect(frame).toMatch(/❯ \[n\] Not now/);
    await press(ui.stdin, 'y', 'y');
    expect(link.stageQueue.current()?.key).toBe('stage/wave-2');
    await press(ui.stdin, keys.escape);
    frame = await waitForFrame(ui.lastFrame, (f) => f.includes('▸ wave-2: waiting approval'));
    expect(frame).toContain('stage wave-2: Start stage wave-2');
    expect(link.stageQueue.current()?.key).toBe('stage/wave-2');
    // Back with a: drawn again, so its guard starts again.
    guard.advance(600);
    await press(ui.stdin, 'a', 'y');
    await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Start stage wave-2'));
    expect(link.stageQueue.current()?.key).toBe('stage/wave-2');
    guard.advance(600);
    await press(ui.stdin, 'y');
    expect(await asked).toMatchObject({ how: 'key y' });
  });

  it('q asks first: n stays; y halts (applied clusters watched to a safe point, said); q again asks to stop now; the rate-limit line shows while reads wait', async () => {
    const { ui, stopped, held, clock } = mount({ columns: 120, rows: 40 }, wave2Running);
    await waitForFrame(ui.lastFrame, (f) => f.includes('▸ wave-2'));
    void held.limiter.acquire('/v1/clusterprofiles/x');
    clock.t += 1_000;
    await waitForFrame(ui.lastFrame, (f) => f.includes("1 Palette request(s) waiting for the fleet's shared rate limit"));
    held.release();
    await press(ui.stdin, 'q');
    let frame = await waitForFrame(ui.lastFrame, (f) => f.includes('Halt the fleet?'));
    expect(words(frame)).toContain('No new cluster starts. Clusters whose change is not applied yet stop after their step: nothing more is sent to them.');
    expect(words(frame)).toContain('watched to a safe point first (rollout reconciled, migrations, restarts by the flags and the stage policy or left at their gates, verification)');
    await press(ui.stdin, 'n');
    await waitForFrame(ui.lastFrame, (f) => !f.includes('Halt the fleet?') && f.includes('▸ wave-2'));
    expect(stopped.n).toBe(0);
    // A hurried operator: q y y halts once.
    await press(ui.stdin, 'q', 'y', 'y');
    await waitForFrame(ui.lastFrame, (f) => f.includes('halting; q: leave now'));
    expect(stopped.asked).toEqual(['halt']);
    // Halting, q asks whether to stop now (no rollout is being watched here: nothing is left unwatched); y stops now.
    await press(ui.stdin, 'q');
    frame = await waitForFrame(ui.lastFrame, (f) => f.includes('Stop now?'));
    expect(words(frame)).toContain('No cluster is in its rollout now: each stops at its next safe point, saved; what waits at a gate stays there.');
    await press(ui.stdin, 'y');
    await waitForFrame(ui.lastFrame, (f) => f.includes('stopping now: every session stops at its next safe point'));
    expect(stopped.asked).toEqual(['halt', 'now']);
  });

  it('Ctrl+C stops the fleet now, as a signal, even from a cluster’s own screens', async () => {
    const { ui, stopped } = mount({ columns: 80, rows: 24 }, wave2Running, { attach: ['store-005'] });
    await waitForFrame(ui.lastFrame, (f) => f.includes('Gates waiting (1)'));
    await press(ui.stdin, 'a');
    await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Write draft'));
    await press(ui.stdin, keys.ctrlC);
    await until('the stop now', () => stopped.asked.length === 1);
    expect(stopped.asked).toEqual(['now']);
  });

  it('80x24: the fleet ended names its report file whole, wrapped rather than cut', async () => {
    const reportPath = '/var/lib/upgrade-pilot/state/fleets/vmo-edge-east-region/report.md';
    const { ui, end } = mount({ columns: 80, rows: 24 }, wave2Running, { reportPath });
    end(1);
    const frame = await waitForFrame(ui.lastFrame, (f) => f.includes('the fleet ended (exit 1)'));
    const lines = frame.split('\n');
    const at = lines.findIndex((l) => l.includes('the fleet ended (exit 1)'));
    // Two rows: the path goes on where the first ends (spaces dropped to join them).
    expect(lines.slice(at, at + 2).join('').replace(/\s+/g, '')).toContain(`report:${reportPath}`);
    expect(frame).toContain('q exit');
  });
});
