/**
 * `fleet start|resume` on a terminal: the fleet screen (screens/fleet) over the coordinator. The
 * coordinator runs as in plain mode; its two screen hooks show each cluster's session and queue the
 * gates no flag answers (each cluster's, and the stage's own) for a key on the screen. The screen
 * stays after the fleet ends until `q`.
 */
import { render } from 'ink';
import { Coordinator, type CoordinatorOptions } from '../fleet/coordinator.js';
import type { ExitCode } from '../errors.js';
import { FleetLink } from '../screens/fleet/fleet-link.js';
import { FleetScreen } from '../screens/fleet/FleetScreen.js';
import type { RunIO } from '../run/session-run.js';

export interface FleetTuiRequest {
  link: FleetLink;
  coordinator: CoordinatorOptions;
  /** Stops the fleet (the coordinator's signal). */
  stop(): void;
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
  const app = render(<FleetScreen controller={req.link.controller({ outcome, stop: req.stop, resumeCommand: req.resumeCommand, reportPath: () => report })} />, {
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
