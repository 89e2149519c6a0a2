/**
 * The TUI's end screen shows the run's timeline under the outcome, as text bars fitted to the pane:
 * at 120x40 the whole hop (its steps on the axis, the operator's wait, the restart, the predicted
 * p50..p90), at 80x24 the start of it with the rest a scroll away; every line inside the terminal.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../src/screens/App.js';
import type { SessionState, StepState } from '../../src/engine/state.js';
import { ConfirmQueue } from '../../src/screens/confirm-queue.js';
import { meta, step } from '../support/state-fixtures.js';
import { keys, press, renderAt, waitForFrame } from '../support/ui.js';

const T0 = Date.parse('2026-12-02T01:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();
const hop = { index: 1, count: 1, from: '4.4.10', to: '4.5.4' };
const ran = (id: string, kind: string, from: number, to: number, extra: Partial<StepState> = {}) => step(id, { kind, title: id, status: 'succeeded', startedAt: at(from), endedAt: at(to), attempts: 1, ...extra });
const inHop = (id: string, kind: string, from: number, to: number, extra: Partial<StepState> = {}) => ran(`hop1.${id}`, kind, from, to, { localId: id, hop, group: 'hops', ...extra });
const eta = { p50Seconds: 600, p90Seconds: 900, parts: [], summary: 'about 10-15 min' };

const done: SessionState = {
  meta: { ...meta, createdAt: at(0), timeZone: 'Europe/Berlin', windowMs: 4 * 3_600_000 },
  entries: [
    ran('preflight', 'preflight', 1, 5),
    ran('plan', 'plan', 5, 8, { output: { hops: [{ index: 1, from: '4.4.10', to: '4.5.4', profiles: [], eta }] } }),
    inHop('draft-infra', 'draft', 10, 13),
    inHop('publish-infra', 'publish', 14, 80, { decisions: {} }),
    inHop('reconcile', 'reconcile', 100, 700),
    inHop('migrations', 'migrations', 700, 1000, { output: { outcome: 'completed', moved: { since: at(100), migrated: [{ vm: 'vms/web-1', migration: 'vms/m1', seconds: 30, endedAt: at(800) }], evicted: [], totals: { migrated: 1, evicted: 0 } } } }),
    ran('verify', 'verify', 1000, 1010),
  ],
  mutations: {},
  run: { status: 'done', updatedAt: at(1010), resumes: 0 },
  log: [],
  seq: 9,
  timeline: [
    { type: 'decided', at: at(70), shownAt: at(15), step: 'hop1.publish-infra', gate: 'publish', key: 'k', title: 'Publish vmo-infra 1.5.0', choice: 'approve', offeredSkip: false, by: 'operator', pressed: 'y' },
    { type: 'done', at: at(1010) },
  ],
};

let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  unmount = undefined;
});

function mount(size: { columns: number; rows: number }) {
  const source = { getState: () => done, subscribe: () => () => undefined };
  const ui = renderAt(<App controller={{ source, queue: new ConfirmQueue(), rehearsal: false, outcome: Promise.resolve({ status: 'done' as const }), stop: () => undefined, gateGuardMs: 0 }} />, size);
  unmount = ui.unmount;
  return ui;
}

const fits = (frame: string, size: { columns: number; rows: number }) => {
  const lines = frame.split('\n');
  expect(lines.length).toBeLessThan(size.rows);
  for (const l of lines) expect([...l].length).toBeLessThanOrEqual(size.columns);
};

describe('the end screen draws the timeline', () => {
  it('at 120x40: the hop, its steps on the axis, the wait for the key, the forecast, under DONE', async () => {
    const ui = mount({ columns: 120, rows: 40 });
    const frame = await waitForFrame(ui.lastFrame, (f) => f.includes('DONE: every step finished.') && f.includes('predicted p50..p90'));
    fits(frame, { columns: 120, rows: 40 });
    expect(frame).toMatch(/Upgrade of cluster-1 4\.4\.10 → 4\.5\.4 · 2026-12-02/);
    expect(frame).toMatch(/Europe\/Berlin \+01:00 +02:00:00 /);
    expect(frame).toMatch(/Hop 1 4\.4\.10 → 4\.5\.4 · planned 10m-15m/);
    expect(frame).toMatch(/ drafts +█+ +3s/);
    // The pane beside the step list is 81 columns: the label column is 22 wide, names shortened in the middle.
    expect(frame).toMatch(/ publish vm…nfra 1\.5\.0\? +░+ +55s/);
    expect(frame).toMatch(/ reconcile +▓+ +10m00s/);
    expect(frame).toMatch(/ predicted p50\.\.p90 +┄*▒+ +10m-15m/);
    expect(frame.indexOf('DONE: every step finished.')).toBeLessThan(frame.indexOf('Hop 1 4.4.10'));
  });

  it('at 80x24: beside the step list, the hop in the first page (names shortened in the middle), the end a page further', async () => {
    const size = { columns: 80, rows: 24 };
    const ui = mount(size);
    const first = await waitForFrame(ui.lastFrame, (f) => f.includes('DONE: every step finished.') && f.includes('Before the hops'));
    fits(first, size);
    expect(first).toMatch(/ prefli… checks +█ +4s/);
    expect(first).toMatch(/ reconcile +▓+ +10m00s/);
    expect(first).toMatch(/ predic…50\.\.p90 +┄+▒+ +10m-15m/);
    await press(ui.stdin, keys.pageDown);
    const next = await waitForFrame(ui.lastFrame, (f) => f.includes('◆'));
    fits(next, size);
    expect(next).toMatch(/ verification +█ +10s/);
    expect(next).toMatch(/ done +◆ +01:16:50/);
  });
});
