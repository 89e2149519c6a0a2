/** `upgrade-pilot lab --serve --fleet N [--fleet-fail NAME:pack-error|stuck-migration|node-not-ready]`: serves a fleet lab until Ctrl+C. */
import { resolve } from 'node:path';
import type { CommandCall } from './options.js';
import { ExitCode, InputError } from '../errors.js';
import type { RunIO } from '../run/session-run.js';
import { assertCanHoldFiles } from '../session/durable-fs.js';
import { makeScratch } from '../run/scratch.js';
import { untilStopped } from './until-stopped.js';

export async function runFleetLab(invocation: CommandCall, io: RunIO, signal?: AbortSignal): Promise<ExitCode> {
  const { options } = invocation;
  const { fleetFaultKinds, startFleetLab } = await import('../lab/fleet/index.js');
  const raw = options.fleet ?? '';
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 500) throw new InputError('usage.option', `lab --fleet takes a number of clusters from 1 to 500, got "${raw}".`, { hint: 'e.g. upgrade-pilot lab --serve --fleet 12' });
  if (!options.serve) throw new InputError('usage.option', 'lab --fleet serves the fleet lab: add --serve, then run `upgrade-pilot fleet start --fleet <the fleet file in lab.json>`.', { hint: 'e.g. upgrade-pilot lab --serve --fleet 12 --state-dir ./fleet-lab' });
  if (options.scenario) throw new InputError('usage.option', 'lab --fleet plays its own site (the pack-error scenario without its fault): --scenario does not apply.', { hint: 'Drop --scenario; make one cluster fail with --fleet-fail NAME:pack-error|stuck-migration|node-not-ready.' });
  const fails: Record<string, (typeof fleetFaultKinds)[number]> = {};
  for (const f of options['fleet-fail']) {
    const [name, how] = f.split(':');
    if (!name || !how || !(fleetFaultKinds as readonly string[]).includes(how)) {
      throw new InputError('usage.option', `--fleet-fail takes NAME:${fleetFaultKinds.join('|')}, got "${f}".`, { hint: 'e.g. --fleet-fail store-007:pack-error' });
    }
    fails[name] = how as (typeof fleetFaultKinds)[number];
  }
  const given = options['state-dir'];
  if (given) assertCanHoldFiles(given, "the lab's files");
  const scratch = given ? undefined : makeScratch('lab');
  const stateDir = given ? resolve(given) : scratch!.dir;
  let lab: Awaited<ReturnType<typeof startFleetLab>> | undefined;
  try {
    try {
      lab = await startFleetLab({ clusters: Number(raw), stateDir, speed: options.speed ?? 60, fails, templateManaged: options['fleet-template'], variables: options['fleet-variables'] });
    } catch (err) {
      if (err instanceof Error && err.message.startsWith('--fleet-')) throw new InputError('usage.option', err.message, { hint: 'Clusters are named store-001, store-002, ...' });
      throw err;
    }
    const { readFileSync } = await import('node:fs');
    io.stdout.write(readFileSync(lab.labJsonPath, 'utf8'));
    io.stderr.write(`upgrade-pilot lab: a fleet of ${raw} clusters serving (Palette ${lab.paletteUrl}); fleet file ${lab.fleetFile}. Ctrl+C stops it.\n`);
    await untilStopped(signal);
    return ExitCode.ok;
  } finally {
    await lab?.close();
    scratch?.dispose();
  }
}
