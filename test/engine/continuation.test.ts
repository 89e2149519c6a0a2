/**
 * How a stop says to go on: what to fix first (never the bypass flag first), a resume that works
 * when pasted, and no resume at all where none can work (the in-process lab ended with its process).
 */
import { describe, expect, it } from 'vitest';
import { continued, withoutResumeAdvice } from '../../src/engine/continuation.js';
import { approvalHint, GateStopError, InterruptedError, StepFailedError, StoppedError, type ErrorInfo, type PilotError } from '../../src/errors.js';

const ENDED = 'This lab ended with its process: start it again.';
const hintOf = (e: PilotError | ErrorInfo) => ('toInfo' in e ? e.toInfo() : e).hint;

describe('withoutResumeAdvice', () => {
  it.each<[string, string]>([
    ['Look at it (kubectl get vm -n vms db-01), fix what keeps it from starting, then resume: the restart is not sent again.', ''],
    ['Check the network. Resume the session to continue where it stopped.', 'Check the network.'],
    ['Fix the storage first.\nThen resume.', 'Fix the storage first.'],
    ['Nothing was changed. Check palette.baseUrl.', 'Nothing was changed. Check palette.baseUrl.'],
  ])('%s', (hint, kept) => {
    expect(withoutResumeAdvice(hint)).toBe(kept);
  });
});

describe('approvalHint', () => {
  const health = { gate: 'health', title: 'cluster-1 is not healthy: upgrade it anyway?', flag: '--approve health', fix: 'Fix what the red checks say (Nodes), then start again.' };

  it('a gate that goes on despite a problem: what to fix first, then the flag, for after reading', () => {
    const hint = approvalHint([health], 'upgrade-pilot resume s-1');
    expect(hint.split('\n')).toEqual(['Fix what the red checks say (Nodes), then start again.', 'The session is saved. Having read them, to go on knowingly, run: upgrade-pilot resume s-1 --approve health']);
  });

  it('an ordinary gate: the flag that approves it', () => {
    expect(approvalHint([{ gate: 'draft', title: 'Write the draft', flag: '--approve draft' }], 'upgrade-pilot resume s-1').split('\n')[0]).toBe('The session is saved. To approve, run: upgrade-pilot resume s-1 --approve draft');
  });

  it('a session that cannot be resumed: what to fix, why, and no command', () => {
    const hint = approvalHint([health], { ended: ENDED });
    expect(hint).toBe(`Fix what the red checks say (Nodes), then start again.\n${ENDED}`);
    expect(hint).not.toMatch(/resume|--approve/);
  });
});

describe('continued', () => {
  it('a resume command replaces the default one in a gate stop', () => {
    const stop = new GateStopError([{ gate: 'draft', title: 'Write', flag: '--approve draft' }], 's-1');
    expect(hintOf(continued(stop, { resume: 'upgrade-pilot resume s-1 --state-dir /x' }))).toMatch(/^The session is saved\. To approve, run: upgrade-pilot resume s-1 --state-dir \/x --approve draft/);
  });

  it.each<[string, PilotError, string]>([
    ['a gate stop keeps what to fix', new GateStopError([{ gate: 'health', title: 't', flag: '--approve health', fix: 'Fix the nodes.' }], 's-1'), `Fix the nodes.\n${ENDED}`],
    ['a decline keeps what to fix', new StoppedError('Declined.', { fix: 'Fix the nodes.', next: 'Or resume and approve.' }), `Fix the nodes. ${ENDED}`],
    ['a decline with nothing to fix', new StoppedError('Declined: the draft was not written.', { next: 'Resume when ready; you will be asked again.' }), ENDED],
    ['a failure keeps what to check, not how to resume', new StepFailedError('x', 'It failed.', { hint: 'Check the network. Resume the session afterwards.' }), `Check the network. ${ENDED}`],
    ['a signal', new InterruptedError(), ENDED],
  ])('where no resume can work, %s and offers none', (_what, error, hint) => {
    const shown = continued(error, { ended: ENDED });
    expect(hintOf(shown)).toBe(hint);
    expect(('toInfo' in shown ? shown.toInfo() : shown).message).toBe(error.message);
    expect(('toInfo' in shown ? shown.toInfo() : shown).kind).toBe(error.kind);
  });
});
