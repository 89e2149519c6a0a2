/**
 * `resume` without an id: the latest session, unless several could be continued and a terminal
 * can ask which one (a choice list; plain mode keeps the latest, as a script expects).
 */
import type { CliOptions } from '../cli/args.js';
import { resolveStateDir } from '../session/paths.js';
import { Redactor } from '../session/redact.js';
import { SessionStore } from '../session/store.js';
import { isInteractive } from './interactive.js';
import type { RunIO } from './session-run.js';
import { wallDate, wallTime } from '../text/time.js';

/** The id to resume: given, picked, or undefined for the latest. Nothing picked stops here (Esc: exit 3, Ctrl+C: 130). */
export async function sessionToResume(options: CliOptions, given: string | undefined, io: RunIO): Promise<string | undefined> {
  if (given || !isInteractive(options, io)) return given;
  const store = new SessionStore(resolveStateDir(options['state-dir'], io.env), new Redactor());
  const open = store.resumable();
  if (open.length < 2) return undefined;
  const { pick } = await import('../screens/pick.js');
  const when = (iso: string) => `${wallDate(iso)} ${wallTime(iso)}`;
  return pick(
    io,
    `${open.length} sessions can be continued. Which one?`,
    open.map((s) => ({
      key: s.id,
      label: `${s.id}  ${s.cluster}  ${s.mode}  ${s.currentTitle ?? s.currentStep}`,
      value: s.id,
      description: `Runbook ${s.runbook}, cluster ${s.cluster} (${s.mode}); last change ${when(s.updatedAt)}; ${s.status === 'running' ? 'ended without closing' : s.status === 'awaitingApproval' ? 'stopped at a gate' : s.status} at ${s.currentTitle ?? s.currentStep}.`,
    })),
    { nothing: { message: 'No session picked: nothing was resumed.', next: 'Run `upgrade-pilot sessions` to list them, then `upgrade-pilot resume ID`.' } },
  );
}
