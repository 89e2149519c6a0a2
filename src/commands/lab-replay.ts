/**
 * `upgrade-pilot lab --replay FILE`: a capture served as the lab (src/lab/replay). With `--serve` it
 * only serves, writes the state folder's files and prints lab.json, until SIGINT/SIGTERM. Without
 * it the runbook runs against the replay as a rehearsal: a replay is frozen and refuses every
 * change, so a live session there could only fail at its first change.
 */
import { resolve } from 'node:path';
import type { CommandCall } from './options.js';
import { sessionSettings } from './session-settings.js';
import type { StepRegistry } from '../engine/step-kind.js';
import { ExitCode, InputError } from '../errors.js';
import type { ReplayHandle } from '../lab/replay/index.js';
import { makeScratch } from '../run/scratch.js';
import type { RunIO } from '../run/session-run.js';
import { assertCanHoldFiles } from '../session/durable-fs.js';
import { sanitizeLines } from '../text/sanitize.js';
import { untilStopped } from './until-stopped.js';

/** What a replay cannot take: it plays what was captured, not a scenario. */
const NOT_FOR_REPLAY = ['scenario', 'flavor', 'dialect', 'speed', 'vms', 'nodes', 'pods'] as const;

export function replayGuide(replay: ReplayHandle, keptFolder: boolean): string[] {
  const r = replay.labJson.replay;
  return [
    `Replay of ${replay.labJson.clusterName}: the site as captured at ${r.capturedAt} by upgrade-pilot ${r.tool} (Kubernetes ${r.serverVersion}).`,
    `Profile API: ${replay.labJson.flavor === 'palette' ? 'a real Palette' : "the spec's service"}, as captured. The cluster's clock starts at its time of the capture.`,
    'A replay is frozen and read-only: this session is a rehearsal. Every read is answered as the site answered it; every change is recorded in the report, never sent (the replay would refuse it anyway).',
    `The replay's kubeconfig (try kubectl on it): ${replay.kubeconfig}${keptFolder ? '' : ' (removed when you quit; pass --state-dir to keep it)'}.`,
    'Keys: at a gate press the option’s letter (or move with ← → and press Enter) · Esc the safe option · ↑↓ scroll · ? help · [ ] look at other steps · f follow · q quit',
  ];
}

export async function runReplayLab(invocation: CommandCall, io: RunIO, registry: StepRegistry | (() => Promise<StepRegistry>), opts: { signal?: AbortSignal } = {}): Promise<ExitCode> {
  const { options } = invocation;
  const clash = NOT_FOR_REPLAY.find((o) => options[o] !== undefined);
  if (clash) throw new InputError('usage.replay', `--${clash} does not apply to --replay: a replay serves what was captured.`, { hint: 'Leave it out (or drop --replay to run a lab scenario).' });
  const file = resolve(options.replay!);
  const given = options['state-dir'];
  if (given) assertCanHoldFiles(given, "the lab's files");
  const scratch = given ? undefined : makeScratch('lab');
  const stateDir = given ? resolve(given) : scratch!.dir;
  let replay: ReplayHandle | undefined;
  try {
    const { startReplay } = await import('../lab/replay/index.js');
    replay = await startReplay({ file, stateDir, ...(options['server-path'] ? { serverPath: options['server-path'] } : {}) });
    for (const s of replay.served.skipped) io.stderr.write(sanitizeLines(`warning: not served: ${s}\n`));
    if (options.serve) {
      io.stdout.write(`${JSON.stringify(replay.labJson, null, 2)}\n`);
      const objects = Object.values(replay.served.objects).reduce((a, b) => a + b, 0);
      io.stderr.write(
        sanitizeLines(`upgrade-pilot lab: replaying ${replay.labJson.clusterName} as captured at ${replay.labJson.replay.capturedAt} (${objects} objects, ${replay.served.logs} log tails, ${replay.served.answers} profile API answers; frozen, read-only) (Palette ${replay.paletteUrl}, Kubernetes ${replay.kubeUrl}); files in ${stateDir}. Ctrl+C stops it.\n`),
      );
      const since = replay.labJson.replay.verifySince;
      if (since) io.stderr.write(sanitizeLines(`On the site, verify judged failures from ${since.at} (${since.source}); to judge the same here: upgrade-pilot verify --params ${replay.params} ${since.arg}\n`));
      await untilStopped(opts.signal);
      return ExitCode.ok;
    }
    const steps = typeof registry === 'function' ? await registry() : registry;
    const { runSession } = await import('../run/session-run.js');
    return await runSession({ kind: 'start', settings: sessionSettings(options, { dryRun: true, lab: { paramsFile: replay.params, apiKey: replay.apiKey, guide: replayGuide(replay, given !== undefined) } }), registry: steps }, io);
  } finally {
    await replay?.close();
    scratch?.dispose();
  }
}
