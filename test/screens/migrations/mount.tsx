/**
 * Mounts the real App (100×30, as ink-testing-library draws it) over a runner of the migration
 * steps, answering gates through the TUI's own confirm queue, as a session does.
 */
import { render } from 'ink-testing-library';
import { App } from '../../../src/screens/App.js';
import { noApprovals } from '../../../src/engine/approval-policy.js';
import type { RunOutcome } from '../../../src/engine/runner.js';
import { ConfirmQueue } from '../../../src/screens/confirm-queue.js';
import { tuiConfirm } from '../../../src/run/confirm.js';
import type { MigrationRun } from '../../steps/migrations/support/run.js';

export function mountApp(run: MigrationRun, opts: { rehearsal?: boolean } = {}): { ui: ReturnType<typeof render>; outcome: Promise<RunOutcome> } {
  const queue = new ConfirmQueue();
  const ctrl = new AbortController();
  const rehearsal = opts.rehearsal ?? false;
  const runner = run.runner({ confirm: tuiConfirm(queue, noApprovals, rehearsal), signal: ctrl.signal, dryRun: rehearsal });
  const outcome = runner.run();
  const ui = render(<App controller={{ source: runner, queue, rehearsal, outcome, stop: (reason) => ctrl.abort(reason), gateGuardMs: 0 }} />);
  return { ui, outcome };
}
