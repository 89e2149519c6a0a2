/**
 * The coordinator's halts with scripted cluster runs (each cluster's session state set by the test):
 * a failure halts the stage, the applied cluster beside it is carried (its stop-after-step asked,
 * its `carry` saying yes to its hop) and ends done, nothing new starts; a stop now leaves an applied
 * cluster recorded unwatched (exit 130 for a signal); a deliberate stop at a cluster's gate halts the
 * stage (exit 3); a stage blocked at its threshold from an earlier run starts nothing but watches
 * again a cluster a crash left mid-change.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FleetSettings } from '../../src/fleet/settings.js';
import { systemClock } from '../../src/engine/clock.js';
import { nextEntry, type SessionState } from '../../src/engine/state.js';
import { StepRegistry } from '../../src/engine/step-kind.js';
import { ExitCode } from '../../src/errors.js';
import type { ClusterRunRequest, ClusterRunResult } from '../../src/fleet/cluster-run.js';
import { Coordinator, type CoordinatorOptions } from '../../src/fleet/coordinator.js';
import { FleetJournal, fleetPaths } from '../../src/fleet/journal.js';
import { FleetStop } from '../../src/fleet/stop-control.js';
import type { FleetEvent } from '../../src/fleet/types.js';
import { until } from '../support/wait.js';
import { applied, before, drafting, hopSteps, S, sessionState, step } from './session-fixture.js';
import { planEvent } from './plan-fixture.js';

const at = (s: number) => new Date(Date.UTC(2026, 11, 2, 1, 0, s)).toISOString();
const approvals = { gates: ['draft', 'publish', 'apply'], restarts: [], allRestarts: true, skipRestarts: [], acceptFixes: [], revoked: [] };

interface Scripted {
  req: ClusterRunRequest;
  end(result: ClusterRunResult): void;
}

function setup(events: FleetEvent[] = []) {
  const journal = new FleetJournal(fleetPaths(mkdtempSync(join(tmpdir(), 'up-coord-')), 'edge'));
  journal.append(planEvent(at(0), [{ name: 'wave-1', clusters: ['a', 'b', 'c'], maxConcurrency: 2, failureThreshold: 1, approval: false }]));
  journal.append({ type: 'fleet.run', at: at(0), by: 'ana@jump', command: 'start', approvals, added: [], revoked: [] });
  for (const e of events) journal.append(e);
  const sessions = new Map<string, SessionState>();
  const runs = new Map<string, Scripted>();
  const stop = new FleetStop();
  const said: string[] = [];
  const o: CoordinatorOptions = {
    journal,
    stateDir: '/x',
    settings: {} as FleetSettings,
    registry: new StepRegistry(),
    limiter: { acquire: async () => undefined },
    env: {},
    signal: stop.signal,
    halt: stop.halt,
    stopRequest: () => stop.requested(),
    approvals,
    resumeCommand: 'upgrade-pilot fleet resume --fleet /ops/edge.yaml',
    sessionState: (id) => sessions.get(id),
    clock: systemClock,
    soakHealth: async () => ({ healthy: true, evidence: [] }),
    predict: () => undefined,
    exists: async () => true,
    say: (_e, line) => void said.push(line),
    runCluster: (req) =>
      new Promise<ClusterRunResult>((end) => {
        const id = req.session ?? `s-${req.name}`;
        if (!req.session) req.onSession(id);
        runs.set(req.name, { req, end });
      }),
  };
  const ended = () => journal.state()!.clusters.map((c) => [c.name, c.status]);
  return { journal, sessions, runs, stop, said, o, ended };
}

const running = (s: ReturnType<typeof setup>, name: string) => until(`${name} running`, () => s.runs.get(name));

describe('the coordinator halts starting, not watching', () => {
  it('a failure halts the stage: the applied cluster beside it is carried to done, nothing new starts (exit 1)', async () => {
    const s = setup();
    const code = new Coordinator(s.o).run();
    const a = await running(s, 'a');
    // The fleet's first cluster runs alone; once a is applied and b fails, the stage halts.
    s.sessions.set('s-a', applied());
    a.end({ outcome: 'done', exitCode: 0 });
    const b = await running(s, 'b');
    const c = await running(s, 'c');
    s.sessions.set('s-b', applied());
    s.sessions.set('s-c', applied());
    b.end({ outcome: 'failed', exitCode: 1, message: 'cni failed on b' });
    await until('the halt', () => s.journal.state()!.stages[0]!.halting);
    expect(s.journal.state()!.stages[0]!.halting).toMatchObject({ carrying: ['c'], why: '1 failure(s) reached the threshold 1 (last: b)' });
    expect(c.req.stopAfterStep?.aborted).toBe(true);
    // What it carries: the rest of its applied hop; not a cluster that applied nothing.
    const st = applied();
    expect(c.req.carry!(st, nextEntry(st)!)).toBe(true);
    expect(c.req.carry!(drafting(), nextEntry(drafting())!)).toBe(false);
    c.end({ outcome: 'done', exitCode: 0 });
    expect(await code).toBe(ExitCode.failed);
    expect(s.ended()).toEqual([['a', 'done'], ['b', 'failed'], ['c', 'done']]);
    expect(s.journal.state()!.clusters[2]!.message).toBe('watched to a safe point after the stage halted (1 failure(s) reached the threshold 1 (last: b))');
  });

  it('a carried cluster left at a restart gate no flag answers says its rollout was watched and what answers the gate', async () => {
    const s = setup();
    const code = new Coordinator(s.o).run();
    (await running(s, 'a')).end({ outcome: 'done', exitCode: 0 });
    const b = await running(s, 'b');
    const c = await running(s, 'c');
    s.sessions.set('s-c', applied());
    b.end({ outcome: 'failed', exitCode: 1, message: 'cni failed on b' });
    await until('the halt', () => s.journal.state()!.stages[0]!.halting);
    const gate = { gate: 'restart', key: 'k', title: 'Restart VM vms/db-1', lines: ['Restart VM vms/db-1  (--approve-restart vms/db-1)'], options: [], safeChoice: 'abort' as const };
    s.sessions.set('s-c', sessionState([...before, ...hopSteps(1, 1, [S, S, S, S, S, S]), step('hop1.recover', 'recover', 'awaitingApproval', { group: 'hop', hop: { index: 1, count: 1, from: '4.4.0', to: '4.5.0' }, gate })]));
    c.end({ outcome: 'gate', exitCode: 3, message: 'Stopped at a gate awaiting approval: Restart VM vms/db-1' });
    expect(await code).toBe(ExitCode.failed);
    expect(s.journal.state()!.clusters[2]).toMatchObject({
      status: 'gate',
      gateFlags: ['--approve-restart vms/db-1'],
      message: 'Stopped at a gate awaiting approval: Restart VM vms/db-1 (its rollout watched to the end after the stage halted (1 failure(s) reached the threshold 1 (last: b)); it waits at its gate: `upgrade-pilot fleet resume --fleet /ops/edge.yaml --approve-restart vms/db-1` answers it)',
    });
  });

  it('a cluster not applied yet stops after its step; a stop now leaves an applied one unwatched, said (exit 130 for a signal)', async () => {
    const s = setup();
    const code = new Coordinator(s.o).run();
    (await running(s, 'a')).end({ outcome: 'done', exitCode: 0 });
    const b = await running(s, 'b');
    const c = await running(s, 'c');
    s.sessions.set('s-b', applied());
    s.sessions.set('s-c', drafting());
    s.stop.ask({ mode: 'now', how: 'signal', reason: 'SIGTERM', by: 'ana@jump' });
    expect(b.req.signal.aborted).toBe(true);
    b.end({ outcome: 'interrupted', exitCode: 130, message: 'Interrupted; the session is saved.' });
    c.end({ outcome: 'interrupted', exitCode: 130, message: 'Interrupted; the session is saved.' });
    expect(await code).toBe(ExitCode.interrupted);
    expect(s.ended()).toEqual([['a', 'done'], ['b', 'unwatched'], ['c', 'stopped']]);
    expect(s.journal.state()!.clusters[1]!.message).toMatch(/^applied \(hop 1 of 1, 4\.4\.0 → 4\.5\.0, at 01:00 UTC\); rollout continues unwatched since \d\d:\d\d UTC: `upgrade-pilot fleet resume --fleet \/ops\/edge\.yaml` watches it again$/);
    expect(s.journal.state()!.stopped).toMatchObject({ reason: 'SIGTERM', mode: 'now', how: 'signal' });
    expect(s.journal.state()!.stages[0]).toMatchObject({ status: 'stopped', message: 'stopped by SIGTERM; applied and unwatched: b' });
  });

  it('the operator declining at a cluster’s gate halts the stage as a stop (exit 3)', async () => {
    const s = setup();
    const code = new Coordinator(s.o).run();
    (await running(s, 'a')).end({ outcome: 'done', exitCode: 0 });
    const b = await running(s, 'b');
    const c = await running(s, 'c');
    s.sessions.set('s-b', drafting());
    s.sessions.set('s-c', drafting());
    b.end({ outcome: 'interrupted', exitCode: 3, message: 'Stopped: the operator said not now.' });
    await until('the halt', () => s.journal.state()!.stages[0]!.halting);
    c.end({ outcome: 'interrupted', exitCode: 130, message: 'Stopped safely after Draft (hop1.draft); the session is saved.' });
    expect(await code).toBe(ExitCode.gate);
    expect(s.journal.state()!.stages[0]).toMatchObject({ status: 'stopped', message: 'b was stopped at its gate' });
  });

  it('a stage blocked at its threshold starts nothing new, but watches again a cluster a crash left mid-change', async () => {
    const s = setup([
      { type: 'stage.started', at: at(1), stage: 'wave-1' },
      { type: 'cluster.started', at: at(2), cluster: 'a', session: 's-a', attempt: 1, resumed: false },
      { type: 'cluster.ended', at: at(3), cluster: 'a', session: 's-a', outcome: 'failed', exitCode: 1, message: 'cni failed on a' },
      { type: 'stage.halting', at: at(3), stage: 'wave-1', why: '1 failure(s) reached the threshold 1 (last: a)', carrying: ['b'] },
      // The coordinator died here, while it carried b.
      { type: 'cluster.started', at: at(2), cluster: 'b', session: 's-b', attempt: 1, resumed: false },
    ]);
    s.sessions.set('s-b', applied());
    const code = new Coordinator(s.o).run();
    const b = await running(s, 'b');
    expect(b.req.session).toBe('s-b');
    expect(b.req.stopAfterStep?.aborted).toBe(true);
    b.end({ outcome: 'done', exitCode: 0 });
    expect(await code).toBe(ExitCode.failed);
    expect(s.runs.has('c')).toBe(false);
    expect(s.ended()).toEqual([['a', 'failed'], ['b', 'done'], ['c', 'pending']]);
    expect(s.said.join('\n')).toContain('stage wave-1: stopped at its failure threshold (1) by a; watching b again (left mid-change), starting nothing new');
  });
});
