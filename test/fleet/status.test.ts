/** `fleet status` (status.ts): the exit code a script acts on and the next command on the last line, per where the fleet stands. */
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/errors.js';
import { foldFleet } from '../../src/fleet/state.js';
import { fleetStatus } from '../../src/fleet/status.js';
import type { FleetEvent } from '../../src/fleet/types.js';
import { planEvent } from './plan-fixture.js';

const at = (s: number) => new Date(Date.UTC(2026, 11, 2, 1, 0, s)).toISOString();
const plan = planEvent(at(0), [
  { name: 'canary', clusters: ['a'], maxConcurrency: 1, failureThreshold: 1, approval: false },
  { name: 'wave-1', clusters: ['b', 'c'], maxConcurrency: 2, failureThreshold: 1, approval: true, approve: ['apply'], at: { file: '/ops/edge.yaml', line: 12 } },
]);
const runEvent: FleetEvent = { type: 'fleet.run', at: at(1), by: 'ana@jump', command: 'start', approvals: { gates: ['draft', 'publish'], restarts: [], allRestarts: true, skipRestarts: [], acceptFixes: [], revoked: [] }, added: [], revoked: [] };
const ran = (c: string, outcome: 'done' | 'failed' | 'gate' | 'interrupted' | 'unwatched', extra: Partial<Extract<FleetEvent, { type: 'cluster.ended' }>> = {}): FleetEvent[] => [
  { type: 'cluster.started', at: at(2), cluster: c, session: `s-${c}`, attempt: 1, resumed: false },
  { type: 'cluster.ended', at: at(30), cluster: c, session: `s-${c}`, outcome, exitCode: 0, ...extra },
];
const canaryDone: FleetEvent[] = [plan, runEvent, { type: 'stage.started', at: at(2), stage: 'canary' }, ...ran('a', 'done'), { type: 'stage.ended', at: at(31), stage: 'canary', outcome: 'done' }];
const flags = '--fleet /ops/edge.yaml';

describe('fleet status', () => {
  it.each<[string, FleetEvent[], ExitCode, string]>([
    ['every stage done: 0, the report next', [...canaryDone, { type: 'stage.approved', at: at(32), stage: 'wave-1', by: 'ana@jump', how: 'flag --approve stage' }, { type: 'stage.started', at: at(33), stage: 'wave-1' }, ...ran('b', 'done'), ...ran('c', 'done'), { type: 'stage.ended', at: at(40), stage: 'wave-1', outcome: 'done' }], ExitCode.ok, '`upgrade-pilot fleet report --fleet /ops/edge.yaml` writes the fleet report'],
    ['a stage halted by a failure: 1, retry or skip it', [...canaryDone, { type: 'stage.started', at: at(33), stage: 'wave-1' }, ...ran('b', 'failed'), ...ran('c', 'done'), { type: 'stage.ended', at: at(40), stage: 'wave-1', outcome: 'failed', message: '1 failure' }], ExitCode.failed, '`upgrade-pilot fleet retry b --fleet /ops/edge.yaml` (once its cause is fixed) or `upgrade-pilot fleet skip b --reason TEXT --fleet /ops/edge.yaml`, then `upgrade-pilot fleet resume --fleet /ops/edge.yaml`'],
    ['the next stage waits for its approval: 3, resume with it', canaryDone, ExitCode.gate, '`upgrade-pilot fleet resume --fleet /ops/edge.yaml --approve stage` (after reading what each gate asks)'],
    ['a cluster at a gate: 3, resume with the flag that answers it', [...canaryDone, { type: 'stage.started', at: at(33), stage: 'wave-1' }, ...ran('b', 'gate', { flags: ['--approve-restart vms/db-1'] }), { type: 'stage.ended', at: at(40), stage: 'wave-1', outcome: 'stopped' }], ExitCode.gate, '`upgrade-pilot fleet resume --fleet /ops/edge.yaml --approve-restart vms/db-1` (after reading what each gate asks)'],
    ['stopped with a cluster unwatched: 3, resume watches it again', [...canaryDone, { type: 'stage.started', at: at(33), stage: 'wave-1' }, ...ran('b', 'unwatched', { motion: { hop: 1, of: 1, versions: '4.5.4 → 4.6.3', appliedAt: at(20) } }), { type: 'stage.ended', at: at(40), stage: 'wave-1', outcome: 'stopped' }, { type: 'fleet.stopped', at: at(41), reason: 'SIGTERM', mode: 'now', how: 'signal', by: 'ana@jump' }], ExitCode.gate, '`upgrade-pilot fleet resume --fleet /ops/edge.yaml` (it watches b again first)'],
  ])('%s', (_name, events, code, next) => {
    const status = fleetStatus(foldFleet(events)!, { fleetFlags: flags });
    expect(status.code).toBe(code);
    expect(status.next).toBe(next);
    expect(status.lines.at(-1)).toBe(`next: ${next}`);
  });

  it('a fleet running now: 3, not finished; says how to stop it', () => {
    const status = fleetStatus(foldFleet(canaryDone)!, { fleetFlags: flags, running: { pid: 42, host: 'jump', since: at(1) } });
    expect(status.code).toBe(ExitCode.gate);
    expect(status.next).toBe('it runs now (pid 42 on jump since 01:00 UTC): `upgrade-pilot fleet status --fleet /ops/edge.yaml` again, or `upgrade-pilot fleet stop --fleet /ops/edge.yaml` to halt it');
  });

  it('shows the run’s approvals, each stage’s policy with where it is written, and an unwatched cluster as such', () => {
    const events: FleetEvent[] = [...canaryDone, { type: 'fleet.run', at: at(50), by: 'bo@desk', command: 'resume', approvals: { gates: ['draft', 'publish', 'stage'], restarts: [], allRestarts: true, skipRestarts: [], acceptFixes: [], revoked: ['apply'] }, added: ['--approve stage'], revoked: ['apply'] }, { type: 'stage.started', at: at(51), stage: 'wave-1' }, ...ran('b', 'unwatched', { motion: { hop: 1, of: 2, versions: '4.4.10 → 4.5.4', appliedAt: at(20) } })];
    const lines = fleetStatus(foldFleet(events)!, { fleetFlags: flags }).lines;
    expect(lines).toContain('  approvals of the run: --approve draft,publish,stage --approve-all-restarts (start by ana@jump at 01:00 UTC, 1 run(s) since)');
    expect(lines).toContain('    resume by bo@desk at 01:00 UTC: added --approve stage revoked apply');
    expect(lines).toContain('    policy: approves nothing (revoked: apply) [edge.yaml:12]');
    expect(lines).toContain('    b                unwatched session s-b: applied (hop 1 of 2, 4.4.10 → 4.5.4), rollout continues unwatched since 01:00 UTC');
  });
});
