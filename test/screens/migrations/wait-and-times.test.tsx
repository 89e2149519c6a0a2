/**
 * The migration watch on screen (issue 33): what it waits for, with the time since the hop was sent
 * against the plan, and past the p90 what to check and how to stop, whole at 80x24 and 120x40; its
 * times from the same origin as the migrations' ages; the step's time in the list ticking with it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../../src/screens/App.js';
import type { SessionEvent, SessionState, StepState } from '../../../src/engine/state.js';
import { ConfirmQueue } from '../../../src/screens/confirm-queue.js';
import type { MigrationRow, MigrationsLive } from '../../../src/steps/migrations/monitor-types.js';
import { migrationWait } from '../../../src/steps/migrations/waiting.js';
import { meta, step } from '../../support/state-fixtures.js';
import { renderAt, waitForFrame, words } from '../../support/ui.js';

const kubevirt = { ref: 'kubevirt/kubevirt', found: true, phase: 'Deployed', observed: 'v1.2.0', target: 'v1.3.1', expected: 'v1.3.1', conditions: ['Progressing=True (UpdateInProgress)'], settled: false };

function live(extra: Partial<MigrationsLive> = {}): MigrationsLive {
  return {
    headline: '',
    rows: [],
    counts: {},
    outdated: 0,
    staying: 0,
    history: [],
    kubevirt,
    stall: [],
    movable: 0,
    ended: false,
    elapsedMs: 8_000,
    sinceSentMs: 31_000,
    hop: { p50Seconds: 720, p90Seconds: 1440 },
    sinceProgressMs: 8_000,
    polls: 3,
    nextPollInMs: 5_000,
    ...extra,
  };
}

function stateWith(s: StepState): SessionState {
  return { meta: { ...meta, lab: true }, entries: [step('plan', { title: 'Plan the hops', status: 'succeeded', durationMs: 2000 }), s], mutations: {}, run: { status: 'running', updatedAt: '', resumes: 0 }, log: [], seq: 1 } as SessionState;
}

let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  unmount = undefined;
  vi.useRealTimers();
});

function mount(initial: SessionState, size: { columns: number; rows: number }) {
  let state = initial;
  const listeners = new Set<(s: SessionState, e: SessionEvent) => void>();
  const source = { getState: () => state, subscribe: (l: (s: SessionState, e: SessionEvent) => void) => (listeners.add(l), () => listeners.delete(l)) };
  const ui = renderAt(<App controller={{ source, queue: new ConfirmQueue(), rehearsal: false, outcome: new Promise(() => undefined), stop: () => undefined, gateGuardMs: 0, labTime: true }} />, size);
  unmount = ui.unmount;
  const emit = (next: SessionState, event: SessionEvent) => {
    state = next;
    for (const l of listeners) l(next, event);
  };
  return { ui, emit };
}

const sizes = [
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 },
];

describe.each(sizes)('the watch waiting for KubeVirt at $columns x $rows', (size) => {
  it('says what it waits for and how long against the plan; past the p90, every command to check and how to stop, whole', async () => {
    const wait = migrationWait({ kubevirt, movable: 0, inFlight: 0, waitedMs: 25 * 60_000, deployedForMs: 0, rollout: { p50Seconds: 600, p90Seconds: 1200 } })!;
    const s = step('hop1.migrations', { kind: 'migrations', title: 'Watch live migrations', status: 'running', startedAt: new Date().toISOString(), live: live({ wait, sinceSentMs: 25 * 60_000 }) });
    const { ui } = mount(stateWith(s), size);
    const frame = await waitForFrame(ui.lastFrame, (f) => f.includes("Waiting for KubeVirt"));

    const lines = frame.split('\n');
    expect(lines.length).toBeLessThan(size.rows);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(size.columns);
    const text = words(frame);
    expect(text).toContain('Waiting for KubeVirt to report v1.3.1: virt-operator is rolling out');
    expect(text).toContain("25m00s lab time since the hop was sent; the plan's pack rollout: p50 10m, p90 20m: PAST its p90");
    for (const c of wait.checks) expect(text).toContain(c.replace(/\s+/g, ' '));
    expect(text).toContain('To stop safely: q (Ctrl+C in plain mode) saves the session, nothing half-sent;');
    expect(text).toContain('KubeVirt goes on by itself (the rollout, then the migrations); upgrade-pilot resume watches again.');
    expect(frame).not.toMatch(/…\s*$/m);
  });
});

describe('the watch’s times', () => {
  it('count from the hop’s send, the origin of the migrations’ ages too, against the hop’s window', async () => {
    const rows: MigrationRow[] = [{ key: 'vms/m-1', vmi: 'vms/web-01', source: 'node-1', target: 'node-2', phase: 'Running', ageMs: 31_000, runningMs: 29_000 }];
    const s = step('hop1.migrations', { kind: 'migrations', title: 'Watch live migrations', status: 'running', startedAt: new Date().toISOString(), live: live({ rows, counts: { Running: 1 }, outdated: 1, movable: 1 }) });
    const { ui } = mount(stateWith(s), { columns: 120, rows: 40 });
    const text = words(await waitForFrame(ui.lastFrame, (f) => f.includes('since the hop was sent')));
    expect(text).toContain('since the hop was sent 31s lab time (the hop: p50 12m, p90 24m) · watching 8s');
    expect(text).not.toMatch(/elapsed 8s/);
  });

  it('the step’s time in the list moves with each poll of the watch, even when the second’s tick has not come', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    vi.setSystemTime(new Date('2026-11-22T04:00:00Z'));
    const s = step('hop1.migrations', { kind: 'migrations', title: 'Watch live migrations', status: 'running', durationMs: 270, startedAt: '2026-11-22T04:00:00.000Z', live: live() });
    const { ui, emit } = mount(stateWith(s), { columns: 120, rows: 40 });
    await waitForFrame(ui.lastFrame, (f) => /Watch live migrations\s+270ms/.test(f));
    vi.setSystemTime(new Date('2026-11-22T04:00:31Z'));
    const polled = { ...s, live: live({ polls: 4 }) };
    emit(stateWith(polled), { type: 'step.progress', at: '2026-11-22T04:00:31.000Z', id: s.id, live: polled.live });
    await waitForFrame(ui.lastFrame, (f) => /Watch live migrations\s+31s/.test(f));
  });
});
