/**
 * One session's events as the journal would hold them: a flag approval, a skipped restart by key,
 * a stop at a gate, a resume by someone else with flags, a crash (no stop recorded), a resume, a
 * "Not now" at a gate that stops the run (the operator's stop). Shared by the timeline and the report-history tests.
 */
import { approveOrDecline, restartOptions, type GateRequest } from '../../src/engine/gate.js';
import { initialState, reduce } from '../../src/engine/reducer.js';
import type { SessionEvent, SessionState } from '../../src/engine/state.js';
import { at, created, step } from './state-fixtures.js';

export const draftGate: GateRequest = { gate: 'draft', key: 'a/draft', title: 'Write the draft of vmo-core', lines: [], options: approveOrDecline('Write draft'), safeChoice: 'abort' };
export const restartGate = (vm: string): GateRequest => {
  const [namespace, name] = vm.split('/') as [string, string];
  return { gate: 'restart', key: `a/restart/${vm}`, title: `Restart VM ${vm}`, lines: [], options: restartOptions, safeChoice: 'skip', subject: { namespace, name } };
};

export const storyEvents: SessionEvent[] = [
  { type: 'step.started', at: at(1), id: 'a' },
  { type: 'step.awaiting', at: at(2), id: 'a', gate: draftGate },
  { type: 'step.decided', at: at(3), id: 'a', key: 'a/draft', decision: { choice: 'approve', by: 'flag', flag: '--approve draft', at: at(3) } },
  { type: 'step.awaiting', at: at(4), id: 'a', gate: restartGate('vms/db-1') },
  { type: 'step.decided', at: at(5), id: 'a', key: 'a/restart/vms/db-1', decision: { choice: 'skip', by: 'operator', key: 's', at: at(5) } },
  { type: 'step.awaiting', at: at(6), id: 'a', gate: restartGate('vms/web-1') },
  { type: 'session.stopped', at: at(7), status: 'awaitingApproval', reason: 'Stopped at a gate awaiting approval: restart VM vms/web-1', error: { kind: 'gate', code: 'gate', message: 'x', hint: 'upgrade-pilot resume test-session --approve-restart vms/web-1' } },
  { type: 'session.resumed', at: at(20), by: 'bob@jump', with: '--approve-restart vms/web-1' },
  { type: 'step.started', at: at(21), id: 'a' },
  { type: 'step.awaiting', at: at(22), id: 'a', gate: restartGate('vms/web-1') },
  { type: 'step.decided', at: at(23), id: 'a', key: 'a/restart/vms/web-1', decision: { choice: 'approve', by: 'flag', flag: '--approve-restart vms/web-1', at: at(23) } },
  // The process is killed here: no stop is journaled. The next resume finds the run still "running".
  { type: 'session.resumed', at: at(40) },
  { type: 'step.started', at: at(41), id: 'a' },
  { type: 'step.awaiting', at: at(42), id: 'a', gate: draftGate },
  { type: 'step.decided', at: at(43), id: 'a', key: 'a/draft', decision: { choice: 'abort', by: 'operator', key: 'n', at: at(43) } },
  { type: 'session.stopped', at: at(44), status: 'stopped', reason: 'Declined: the draft of vmo-core was not written.' },
];

export function storyState(events = storyEvents): SessionState {
  return events.reduce(reduce, initialState(created([step('a'), step('b')])));
}
