/**
 * `upgrade-pilot lab`: starts the embedded lab. With `--serve` it only serves: writes the state
 * folder's files, prints lab.json, and runs until SIGINT/SIGTERM. Without it (`npm start`), it opens
 * the runbook in the TUI against the lab and stops the lab when the session ends.
 */
import { resolve } from 'node:path';
import type { Invocation } from '../cli/args.js';
import type { StepRegistry } from '../engine/step-kind.js';
import { ExitCode } from '../errors.js';
import { startLab, type LabHandle } from '../lab/index.js';
import { runSession, type RunIO } from '../run/session-run.js';
import { makeScratch } from '../run/scratch.js';
import { assertCanHoldFiles } from '../session/durable-fs.js';

export interface RunLabOptions {
  /** Stops a `--serve` lab like SIGTERM would (tests). */
  signal?: AbortSignal;
}

export async function runLab(invocation: Invocation, io: RunIO, registry: StepRegistry, opts: RunLabOptions = {}): Promise<ExitCode> {
  const { options } = invocation;
  const given = options['state-dir'];
  if (given) assertCanHoldFiles(given, "the lab's files");
  const scratch = given ? undefined : makeScratch('lab');
  const stateDir = given ? resolve(given) : scratch!.dir;
  const speed = options.speed ?? 60;
  const sizes = { ...(options.vms !== undefined ? { vms: options.vms } : {}), ...(options.nodes !== undefined ? { nodes: options.nodes } : {}), ...(options.pods !== undefined ? { pods: options.pods } : {}) };
  let lab: LabHandle | undefined;
  try {
    lab = await startLab({ scenario: options.scenario ?? 'healthy', stateDir, speed, dialect: options.dialect ?? 'spec', sizes });
    if (options.serve) {
      io.stdout.write(`${JSON.stringify(lab.labJson, null, 2)}\n`);
      io.stderr.write(`upgrade-pilot lab: scenario ${lab.scenario} serving (Palette ${lab.paletteUrl}, Kubernetes ${lab.kubeUrl}); files in ${stateDir}. Ctrl+C stops it.\n`);
      await untilStopped(opts.signal);
      return ExitCode.ok;
    }
    return await runSession(
      { kind: 'start', options, registry, dryRun: options['dry-run'], lab: { paramsFile: lab.params, apiKey: lab.apiKey, guide: labGuide(lab, speed, given !== undefined) } },
      io,
    );
  } finally {
    await lab?.close();
    // A lab folder made for this run goes with it; one the operator named stays (its audit log too)
    scratch?.dispose();
  }
}

/** Resolves on SIGINT or SIGTERM (or the abort signal), whichever comes first. */
function untilStopped(signal?: AbortSignal): Promise<void> {
  return new Promise((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      signal?.removeEventListener('abort', stop);
      done();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop, { once: true });
  });
}

/** The first screen of `npm start`: what this is, that nothing real is touched, the keys. One paragraph per line: the screen wraps them. */
export function labGuide(lab: LabHandle, speed: number, keptFolder: boolean): string[] {
  return [
    'Welcome to the upgrade-pilot lab.',
    'This is a rehearsal ground: a simulated Palette profile API and a simulated Kubernetes cluster running on this machine (127.0.0.1). Nothing real is touched: the API key, project, cluster and kubeconfig were made for this run and disappear with it.',
    `Scenario "${lab.scenario}": ${lab.labJson.summary}`,
    `Simulated time runs ${speed}x faster than the clock on the wall, so a reconciliation that takes minutes on a real cluster takes seconds here.`,
    'You will walk the VM orchestration pack upgrade runbook: snapshot, plan, carry the site customizations, publish each hop, watch the migrations, recover, verify. Every change stops at a gate and waits for you.',
    `The lab's kubeconfig (try kubectl on it): ${lab.kubeconfig}${keptFolder ? '' : ' (removed when you quit; pass --state-dir to keep it)'}.`,
    'Keys: Enter choose · ↑↓ move · Esc the safe option · ? help · [ ] browse steps · f follow · q quit',
  ];
}
