/**
 * `upgrade-pilot lab`: starts the embedded lab. With `--serve` it only serves: writes the state
 * folder's files, prints lab.json, and runs until SIGINT/SIGTERM. Without it (`npm start`), it opens
 * the runbook in the TUI against the lab and stops the lab when the session ends.
 */
import { resolve } from 'node:path';
import type { Invocation } from '../cli/args.js';
import type { StepRegistry } from '../engine/step-kind.js';
import { ExitCode } from '../errors.js';
import type { LabHandle } from '../lab/index.js';
// The names only: the scenarios themselves (and the YAML they build) load with the lab, after the first frame.
import { scenarioCatalog, scenarioNames, type ScenarioName } from '../lab/scenario-catalog.js';
import { isInteractive } from '../run/interactive.js';
import type { LabShell } from '../screens/LabShell.js';
import { makeScratch } from '../run/scratch.js';
import type { RunIO } from '../run/session-run.js';
import { assertCanHoldFiles } from '../session/durable-fs.js';
import { untilStopped } from './until-stopped.js';

export interface RunLabOptions {
  /** Stops a `--serve` lab like SIGTERM would (tests). */
  signal?: AbortSignal;
}

export async function runLab(invocation: Invocation, io: RunIO, registry: StepRegistry | (() => Promise<StepRegistry>), opts: RunLabOptions = {}): Promise<ExitCode> {
  const { options } = invocation;
  if (options.replay) return (await import('./lab-replay.js')).runReplayLab(invocation, io, registry, opts);
  if (options.fleet !== undefined) return (await import('./lab-fleet.js')).runFleetLab(invocation, io, opts.signal);
  const scenario = options.scenario ?? (await chooseScenario(invocation, io));
  const given = options['state-dir'];
  if (given) assertCanHoldFiles(given, "the lab's files");
  const scratch = given ? undefined : makeScratch('lab');
  const stateDir = given ? resolve(given) : scratch!.dir;
  const speed = options.speed ?? 60;
  const sizes = { ...(options.vms !== undefined ? { vms: options.vms } : {}), ...(options.nodes !== undefined ? { nodes: options.nodes } : {}), ...(options.pods !== undefined ? { pods: options.pods } : {}) };
  let lab: LabHandle | undefined;
  let shell: LabShell | undefined;
  try {
    // The TUI lab plays a real Palette (what operators run); a served lab keeps the spec's service unless asked.
    const flavor = options.flavor ?? options.dialect ?? (options.serve ? 'spec' : 'palette');
    // The TUI's first frame does not wait for the lab: the shell is drawn first, the lab starts under it.
    if (!options.serve && isInteractive(options, io)) shell = await (await import('../run/lab-shell.js')).openLabShell(io, { scenario, rehearsal: options['dry-run'], flavor });
    const { startLab } = await import('../lab/index.js');
    lab = await startLab({ scenario, stateDir, speed, flavor, sizes, ...(options['server-path'] ? { serverPath: options['server-path'] } : {}) });
    if (options.serve) {
      io.stdout.write(`${JSON.stringify(lab.labJson, null, 2)}\n`);
      io.stderr.write(`upgrade-pilot lab: scenario ${lab.scenario} serving (Palette ${lab.paletteUrl}, Kubernetes ${lab.kubeUrl}); files in ${stateDir}. Ctrl+C stops it.\n`);
      await untilStopped(opts.signal);
      return ExitCode.ok;
    }
    const quit = shell?.quitRequested();
    if (quit) {
      shell!.close();
      io.stderr.write('upgrade-pilot lab: stopped before the session started.\n');
      // q is the operator's stop (exit 3); Ctrl+C an interruption (130).
      return quit === 'q' ? ExitCode.gate : ExitCode.interrupted;
    }
    const steps = typeof registry === 'function' ? await registry() : registry;
    const { runSession } = await import('../run/session-run.js');
    // The session draws its App into the shell's Ink instance, and leaves its last frame on the screen.
    const ink = shell?.ink;
    return await runSession(
      {
        kind: 'start',
        options,
        registry: steps,
        dryRun: options['dry-run'],
        lab: { paramsFile: lab.params, apiKey: lab.apiKey, guide: labGuide(lab, speed, given !== undefined) },
        ...(ink ? { ink } : {}),
      },
      io,
    );
  } catch (err) {
    // The error is printed below: the frame goes first (and Ink lets go of the terminal).
    shell?.close();
    throw err;
  } finally {
    await lab?.close();
    // A lab folder made for this run goes with it; one the operator named stays (its audit log too)
    scratch?.dispose();
  }
}

/** `lab` on a terminal without --scenario: the operator picks one (healthy first); elsewhere healthy. */
async function chooseScenario(invocation: Invocation, io: RunIO): Promise<ScenarioName> {
  const { options } = invocation;
  if (options.serve || !isInteractive(options, io)) return 'healthy';
  // Ink is loaded only when there is a question to draw.
  const [{ pick }, { scenarioSpec }] = await Promise.all([import('../screens/pick.js'), import('../lab/world/scenarios/index.js')]);
  const width = Math.max(...scenarioNames.map((n) => n.length));
  // One row per scenario: its line is cut to the terminal (the border, the pointer and the name's column aside).
  const room = Math.max(10, (io.stdout.columns || 80) - width - 9);
  return pick(
    io,
    'Which lab scenario?',
    // The catalog's line beside each name (as `lab --help` lists them), the full summary under the highlighted one.
    scenarioCatalog.map(({ name, line }) => ({ key: name, label: `${name.padEnd(width)}  ${cutEnd(line, room)}`, value: name, description: scenarioSpec(name).summary })),
    {
      lines: ['A simulated Palette and cluster on this machine; nothing real is touched. Pass --scenario NAME to skip this question.'],
      nothing: { message: 'No scenario picked: the lab did not start.', next: `Run \`upgrade-pilot lab --scenario healthy\` (or another: ${scenarioNames.join(', ')}).` },
    },
  );
}

const cutEnd = (text: string, room: number) => (text.length <= room ? text : `${text.slice(0, room - 1).trimEnd()}…`);

/** The first screen of `npm start`: what this is, that nothing real is touched, the keys. One paragraph per line: the screen wraps them. */
export function labGuide(lab: LabHandle, speed: number, keptFolder: boolean): string[] {
  return [
    'Welcome to the upgrade-pilot lab.',
    // What this lab plays comes first: a small terminal shows it without scrolling.
    `Scenario "${lab.scenario}": ${lab.labJson.summary}`,
    lab.labJson.flavor === 'palette'
      ? 'Profile API: a real Palette. Each hop clones the deployed profile version (the old one stays: the way back), publishes the clone, then applies it to the cluster at its own gate; node rebuilds wait for your repave approval. (--flavor spec: the spec\'s service.)'
      : "Profile API: the spec's service. A published profile reaches the cluster by itself. (--flavor palette plays a real Palette instead.)",
    'This is a rehearsal ground: a simulated Palette profile API and a simulated Kubernetes cluster running on this machine (127.0.0.1). Nothing real is touched: the API key, project, cluster and kubeconfig were made for this run and disappear with it.',
    `Simulated time runs ${speed}x faster than the clock on the wall, so a reconciliation that takes minutes on a real cluster takes seconds here.`,
    `You will walk the VM orchestration pack upgrade runbook: snapshot, plan, carry the site customizations, ${lab.labJson.flavor === 'palette' ? 'clone, publish and apply' : 'publish'} each hop, watch the migrations, recover, verify. Every change stops at a gate and waits for you.`,
    `The lab's kubeconfig (try kubectl on it): ${lab.kubeconfig}${keptFolder ? '' : ' (removed when you quit; pass --state-dir to keep it)'}.`,
    'Keys: at a gate press the option’s letter (or move with ← → and press Enter) · Esc the safe option · ↑↓ scroll · ? help · [ ] look at other steps · f follow · q quit',
  ];
}
