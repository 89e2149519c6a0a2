/**
 * `fleet start|resume` on a terminal: the fleet screen (fleet-ui) over the coordinator. The
 * coordinator runs as in plain mode; its two screen hooks show each cluster's session and queue the
 * gates no flag answers (each cluster's, and the stage's own) for a key on the screen. The screen
 * stays after the fleet ends until `q`.
 */
import { render } from 'ink';
import { Coordinator, type CoordinatorOptions } from '../fleet/coordinator.js';
import type { ExitCode } from '../errors.js';
import type { FleetStop } from '../fleet/stop-control.js';
import { FleetLink } from '../fleet-ui/fleet-link.js';
import { FleetScreen } from '../fleet-ui/FleetScreen.js';
import type { RunIO } from '../run/session-run.js';

export interface FleetTuiRequest {
  link: FleetLink;
  coordinator: CoordinatorOptions;
  /** The fleet's stop: `q` halts it (applied clusters watched to a safe point), a second `q` or Ctrl+C stops it now. */
  stop: FleetStop;
  /** user@host, for the record of who stopped it. */
  by: string;
  resumeCommand: string;
  /** Writes the fleet report once the coordinator has ended (before the screen waits for `q`); its Markdown file. */
  writeReport(code: ExitCode): string;
  io: RunIO;
  /** Every frame written whole (tests). */
  inkDebug?: boolean;
}

/** The coordinator's hooks for a fleet shown on the screen. */
export function screenHooks(link: FleetLink): Pick<CoordinatorOptions, 'attach' | 'askStage'> {
  return { attach: (name) => (controller) => link.attach(name, controller), askStage: (stage, signal) => link.askStage(stage, signal) };
}

export async function runFleetTui(req: FleetTuiRequest): Promise<ExitCode> {
  let report: string | undefined;
  // The report is written as the fleet ends, so the screen can name it while it stays up for `q`.
  const outcome = new Coordinator(req.coordinator).run().then((code) => {
    report = req.writeReport(code);
    return code;
  });
  const halt = () => req.stop.ask({ mode: 'halt', how: 'operator', reason: 'q on the fleet screen', by: req.by });
  // Ctrl+C on the screen is the terminal's interrupt (raw mode delivers it as a key): a signal's stop; a second exits at once.
  const interrupt = () => {
    if (req.stop.requested()?.how === 'signal') process.exit(130);
    req.stop.ask({ mode: 'now', how: 'signal', reason: 'Ctrl+C on the fleet screen', by: req.by });
  };
  const controller = req.link.controller({ outcome, halt, interrupt, stopping: () => req.stop.requested(), resumeCommand: req.resumeCommand, reportPath: () => report });
  const app = render(<FleetScreen controller={controller} />, {
    stdout: req.io.stdout,
    stdin: req.io.stdin,
    exitOnCtrlC: false,
    patchConsole: false,
    debug: Boolean(req.inkDebug),
  });
  const code = await outcome;
  await app.waitUntilExit();
  return code;
}
