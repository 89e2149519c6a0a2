/**
 * Every gate of a session, and the plan screen, as the operator sees them at 80x24 and 120x40,
 * drawn from runs on the lab (issue 33): the real steps against the embedded lab (a Palette and a
 * cluster over real sockets, the real kubectl) ask each gate; the state of the session at that
 * moment and the gate are drawn by the real App. Each frame must fit the terminal with nothing cut
 * short inside the gate's box, and the gate's text - paged with PgDn where the box scrolls - must
 * hold the facts the decision depends on: the window (p50 and p90 against the one booked), the VMs
 * that go down, and what stays as it is and what goes on if the operator stops there.
 *
 * The fleet's `stage` gate belongs to a fleet, not to a session: the fleet's own screen tests draw it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App } from '../../src/screens/App.js';
import { noApprovals, type Approvals } from '../../src/engine/approval-policy.js';
import type { ConfirmFn, Decision, GateRequest } from '../../src/engine/gate.js';
import type { Runner } from '../../src/engine/runner.js';
import type { SessionState } from '../../src/engine/state.js';
import { startLab, type ScenarioName } from '../../src/lab/index.js';
import { ConfirmQueue } from '../../src/screens/confirm-queue.js';
import { policyConfirm } from '../support/engine-harness.js';
import { labRun } from '../support/lab-harness.js';
import { keys, pane, plain, press, pressAndWait, renderAt, waitForFrame, words } from '../support/ui.js';

const RUNBOOK = 'runbooks/vmo-upgrade.yaml';
const sizes = [
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 },
] as const;
type Size = (typeof sizes)[number];

interface Seen {
  request: GateRequest;
  state: SessionState;
}

/**
 * Runs the bundled runbook on a lab scenario; every gate is kept with the session's state as it was
 * asked. `stopAt` says which gate ends the run (answered with its safe choice, as "Not now" does);
 * the others are answered as the policy says.
 */
async function gatesOf(scenario: ScenarioName, flavor: 'spec' | 'palette', approvals: Approvals, stopAt: (r: GateRequest) => boolean): Promise<Seen[]> {
  const lab = await startLab({ scenario, stateDir: mkdtempSync(join(tmpdir(), `up33-${scenario}-`)), speed: 600, seed: 33, flavor });
  try {
    const seen: Seen[] = [];
    const policy = policyConfirm(approvals);
    let runner: Runner | undefined;
    const confirm: ConfirmFn = async (request, signal) => {
      seen.push({ request, state: structuredClone(runner!.getState()) });
      if (stopAt(request)) return { choice: request.safeChoice, by: 'operator', key: 'n', at: new Date().toISOString() } satisfies Decision;
      return policy(request, signal);
    };
    runner = labRun(lab, RUNBOOK).runner({ confirm });
    await runner.run();
    return seen;
  } finally {
    await lab.close();
  }
}

const all = (...gates: string[]): Approvals => ({ ...noApprovals, gates, allRestarts: true });
const first = (seen: Seen[], gate: string, where: (r: GateRequest) => boolean = () => true): Seen => {
  const s = seen.find((x) => x.request.gate === gate && where(x.request));
  if (!s) throw new Error(`no ${gate} gate was asked; asked: ${seen.map((x) => x.request.key).join(', ')}`);
  return s;
};

let unmount: (() => void) | undefined;
function mount({ request, state }: Seen, size: Size) {
  unmount?.();
  const queue = new ConfirmQueue();
  void queue.confirm(request).catch(() => undefined);
  const source = { getState: () => state, subscribe: () => () => undefined };
  const ui = renderAt(<App controller={{ source, queue, rehearsal: false, outcome: new Promise(() => undefined), stop: () => undefined, gateGuardMs: 0, labTime: true }} />, size);
  unmount = ui.unmount;
  return ui;
}

/** A frame inside the terminal, the key line last, no line of the gate's box cut short with an ellipsis. */
function expectWhole(frame: string, size: Size): void {
  const lines = frame.split('\n');
  expect(lines.length).toBeLessThan(size.rows);
  for (const l of lines) expect(l.length, l).toBeLessThanOrEqual(size.columns);
  expect(lines.at(-1)).toMatch(/\? help/);
  for (const l of lines.filter((x) => x.includes('║'))) expect(l, 'a line of the gate cut short').not.toMatch(/…\s*║\s*$/);
}

/** The gate's box content rows a frame shows, by their row number in the box (from its "rows a-b of n" line). */
function boxRows(frame: string): Map<number, string> {
  const lines = frame.split('\n');
  const at = lines.findIndex((l) => /rows \d+-\d+ of \d+ · ↑↓ PgUp PgDn scroll/.test(l));
  const rows = new Map<number, string>();
  if (at < 0) return rows;
  const [, a, b] = /rows (\d+)-(\d+) of \d+/.exec(lines[at]!)!.map(Number) as [number, number, number];
  for (let r = a; r <= b; r++) rows.set(r, lines[at - (b - r) - 1]!.replace(/^[^║]*║/, '').replace(/║\s*$/, ''));
  return rows;
}

/**
 * The gate as drawn: its first page, and its whole text: where the box scrolls, every row of it as
 * PgDn brings it into view (each frame whole), put back in order.
 */
async function readGate(seen: Seen, size: Size): Promise<{ first: string; text: string }> {
  const ui = mount(seen, size);
  await waitForFrame(ui.lastFrame, (f) => f.includes('GATE:'));
  // The box measures its content once drawn, then says whether it scrolls: the frame after that.
  let frame = plain(ui.lastFrame());
  expectWhole(frame, size);
  const first = frame;
  const rows = boxRows(frame);
  for (let i = 0; i < 60; i++) {
    const m = /rows (\d+)-(\d+) of (\d+) · ↑↓ PgUp PgDn scroll/.exec(frame);
    if (!m || m[2] === m[3]) break;
    frame = await pressAndWait(ui, [keys.pageDown], (f) => /rows \d+-\d+ of \d+ · ↑↓ PgUp PgDn scroll/.test(f));
    expectWhole(frame, size);
    for (const [r, l] of boxRows(frame)) rows.set(r, l);
  }
  for (const o of seen.request.options) expect(first).toContain(`[${o.key}] ${o.label.split(' ')[0]}`);
  expect(first).toContain(`GATE: ${seen.request.title.slice(0, 20)}`);
  const box = [...rows].sort(([a], [b]) => a - b).map(([, l]) => l);
  return { first: words(first), text: words(rows.size ? `${first}\n${box.join('\n')}` : first) };
}

const seenBy: Record<string, Seen[]> = {};

beforeAll(async () => {
  // One lab run per scenario, each ended at the gate it is here for (the rest answered by policy).
  // One after another: each lab runs on simulated time, which a machine busy with five would stretch.
  const runs: Array<[string, () => Promise<Seen[]>]> = [
    ['palette', () => gatesOf('healthy', 'palette', all('draft', 'publish', 'apply', 'repave'), (r) => r.gate === 'draft' && r.key.startsWith('hop2.'))],
    ['spec', () => gatesOf('healthy', 'spec', all('draft', 'publish'), (r) => r.gate === 'publish' && r.key.includes('publish-addon'))],
    ['repave', () => gatesOf('repave', 'palette', all('draft', 'publish', 'apply'), (r) => r.gate === 'repave')],
    ['degraded', () => gatesOf('degraded', 'palette', all(), (r) => r.gate === 'health')],
    ['skip-minor', () => gatesOf('skip-minor', 'palette', all('cancel-migrations'), (r) => r.gate === 'restart')],
  ];
  for (const [name, run] of runs) seenBy[name] = await run();
}, 600_000);

afterAll(() => unmount?.());

describe.each(sizes)('gates from lab runs at $columns x $rows', (size) => {
  it('health: every problem, what approving takes, and that nothing has changed if you stop', async () => {
    const seen = first(seenBy.degraded!, 'health');
    const { text } = await readGate(seen, size);
    for (const item of seen.request.items ?? []) expect(text).toContain(words(item).trim());
    expect(text).toContain('If you stop here: nothing has been changed');
  });

  it('draft: the profile and its new version, each pack, and that nothing is written if you stop', async () => {
    const seen = first(seenBy.palette!, 'draft');
    const { first: page, text } = await readGate(seen, size);
    expect(page).toMatch(/Hop 1\/2: 4\.4\.10 → 4\.5\.4 · Draft infra profile/);
    expect(text).toMatch(/cni-cilium-oss 1\.16\.6 → 1\.16\.9/);
    expect(text).toMatch(/If you stop here: nothing is cloned or written: vmo-infra 1\.4\.0 and the cluster stay as they are/);
  });

  it('publish on the spec’s service: the window against the one booked, the VM that restarts, and that nothing reaches the cluster if you stop', async () => {
    const seen = first(seenBy.spec!, 'publish', (r) => r.key.includes('publish-addon'));
    const { first: page, text } = await readGate(seen, size);
    expect(text).toMatch(/This hop takes about \d+m-\d+m: 7 VM\(s\) migrate, 5 at a time; 1 restart\(s\) at the gates, about [\dms-]+ of downtime each, counted; plus your time at its gate/);
    expect(text).toMatch(/Window: p50 \d+m, p90 \d+m; within the 4h00m window in the params file/);
    expect(text).toContain('Restarted after the moves, each at its own gate (downtime): ns-packs/build-cache-01');
    expect(text).toMatch(/If you stop here: the draft of vmo-core-addon 1\.5\.0 stays a draft .* nothing reaches it/);
    if (size.rows >= 40) expect(page).toMatch(/Window: p50 \d+m, p90 \d+m/); // on the first page where there is room
  });

  it('publish on Palette: that the cluster does not change, and what stays if you stop', async () => {
    const { text } = await readGate(first(seenBy.palette!, 'publish'), size);
    expect(text).toMatch(/No cluster changes/);
    expect(text).toMatch(/If you stop here: the draft of vmo-infra 1\.5\.0 stays a draft/);
  });

  it('apply: the versions replaced, the window against the one booked, the VM that restarts, what stays if you stop', async () => {
    const seen = first(seenBy.palette!, 'apply');
    const { first: page, text } = await readGate(seen, size);
    expect(text).toMatch(/vmo-infra 1\.4\.0 \(uid \w+\) → 1\.5\.0 \(uid \w+\)/);
    expect(text).toMatch(/Window: p50 \d+m, p90 \d+m; within the 4h00m window in the params file/);
    expect(text).toContain('Restarted after the moves, each at its own gate (downtime): ns-packs/build-cache-01');
    expect(text).toMatch(/If you stop here: nothing reaches vmo-prod-east: it keeps running vmo-infra 1\.4\.0, vmo-core-addon 1\.4\.0/);
    if (size.rows >= 40) expect(page).toMatch(/Window: p50 \d+m, p90 \d+m; within the 4h00m window/);
  });

  it('repave: why, every node in order with what its VMs go through, the VM that restarts, what stays if you stop', async () => {
    const seen = first(seenBy.repave!, 'repave');
    const { text } = await readGate(seen, size);
    expect(text).toMatch(/kubernetes 1\.32\.2 → 1\.32\.3/);
    for (const item of seen.request.items ?? []) expect(text).toContain(words(item).trim());
    expect(text).toMatch(/ns-packs\/build-cache-01 restarts \(downtime\)/);
    expect(text).toMatch(/If you stop here: no node is drained: Palette keeps the rebuild of vmo-prod-east pending/);
  });

  it('restart: which VM, where, why, how long it is down as the plan predicts, and what goes on if you stop', async () => {
    const seen = first(seenBy.palette!, 'restart');
    const { text } = await readGate(seen, size);
    expect(text).toMatch(/GATE: Restart VM ns-packs\/build-cache-01 \(1 of 1\)/);
    expect(text).toMatch(/running on node vmo-worker-3 with launcher v1\.2\.0/);
    expect(text).toMatch(/The VM is unavailable meanwhile: about \d+s-\d+m, as the plan predicts it/);
    expect(text).toMatch(/If you stop here: ns-packs\/build-cache-01 keeps running on launcher v1\.2\.0, untouched; KubeVirt's own work goes on without upgrade-pilot/);
  });

  it('cancel stuck migrations: each migration and how long it has hung, and what goes on if you stop', async () => {
    const seen = first(seenBy['skip-minor']!, 'cancel-migrations');
    const { text } = await readGate(seen, size);
    expect(seen.request.items?.length).toBeGreaterThan(0);
    for (const item of seen.request.items ?? []) expect(text).toContain(words(item).trim());
    expect(text).toMatch(/If you stop here: nothing is cancelled: these migrations stay in flight/);
  });

  it('the plan screen: each hop’s window against the one booked, every VM row and every note within reach', async () => {
    const review = first(seenBy.palette!, 'customize');
    const plan = review.state.entries.find((e) => 'kind' in e && e.kind === 'plan') as { output: { impact: Array<{ vm: string }>; notes: string[] } };
    const ui = mount(review, size);
    await waitForFrame(ui.lastFrame, (f) => f.includes('RULES'));
    await press(ui.stdin, '[');
    let frame = await waitForFrame(ui.lastFrame, (f) => f.includes('viewing Plan the hops'));
    // Every line of the plan's scroll, put back in order from the pages PgDn brings (each frame whole).
    const rows = new Map<number, string>();
    for (let i = 0; i < 30; i++) {
      expect(frame.split('\n').length).toBeLessThan(size.rows);
      for (const l of frame.split('\n')) expect(l.length).toBeLessThanOrEqual(size.columns);
      const lines = pane(frame).split('\n');
      const at = lines.findIndex((l) => /^lines \d+-\d+ of \d+/.test(l));
      const [, a, b, n] = /^lines (\d+)-(\d+) of (\d+)/.exec(lines[at]!)!.map(Number) as [number, number, number, number];
      for (let r = a; r <= b; r++) rows.set(r, lines[at - (b - r) - 1]!);
      if (b === n) break;
      frame = await pressAndWait(ui, [keys.pageDown], (f) => /lines \d+-\d+ of \d+/.test(f));
    }
    const text = words([...rows].sort(([x], [y]) => x - y).map(([, l]) => l).join('\n'));
    expect(text).toMatch(/The 2 hops take about \d+m-\d+m, its 2 VM restart\(s\) at the gates included; plus your time at those 2 gates: within the 4h00m window in the params file/);
    expect(text.match(/Window: p50 \d+m · p90 \d+m · within the 4h00m window in the params file/g)).toHaveLength(2);
    expect(text).toMatch(/rollout [\dms-]+ · VM moves [\dms-]+ · restarts [\dms-]+; plus your time at the restart gate \(not predicted\)/);
    for (const vm of plan.output.impact) expect(text).toContain(vm.vm);
    for (const note of plan.output.notes) expect(text).toContain(words(note).trim().slice(0, 60));
  });
});
