/**
 * What `fleet start`, `resume` and `retry` share before the coordinator runs: the plan frozen (start),
 * the run's approvals journaled (the start's flags; a resume's or retry's additions and revocations),
 * and the coordinator's wiring (Palette through the fleet's one rate limiter, the fleet's clock for
 * soaks and windows, each cluster's predicted duration, its session read as it stands). The command
 * only picks the screen or plain lines and prints.
 */
import { loadParams } from '../engine/load.js';
import type { SessionState } from '../engine/state.js';
import type { StepRegistry } from '../engine/step-kind.js';
import { EnvironmentError, InputError } from '../errors.js';
import type { PaletteApi } from '../palette/api.js';
import { readApiKey } from '../run/api-key.js';
import { buildPalette } from '../run/effects.js';
import { clockFor } from '../run/lab-clock.js';
import type { Redactor } from '../session/redact.js';
import { SessionStore } from '../session/store.js';
import { amendApprovals, approvalsText, flagApprovals, type Amended } from './approvals.js';
import { whoAmI, type CoordinatorOptions } from './run-options.js';
import { freezePlan } from './freeze.js';
import type { FleetSettings } from './settings.js';
import { FleetReads } from './shared-reads.js';
import { resolveFromPalette, fromPaletteText } from './from-palette.js';
import { boundHeapGrowth } from './heap-growth.js';
import type { FleetJournal } from './journal.js';
import type { LoadedFleet } from './load.js';
import { planP90Ms, predict } from './predicted.js';
import { kubeSoakHealth } from './soak-health.js';
import type { FleetStop } from './stop-control.js';
import { clusterExists, readTargets, stageClusters } from './target-set.js';
import type { FleetState } from './types.js';
import type { WatchedLimiter } from './watched-limiter.js';

export type Say = (event: Record<string, unknown> & { type: string }, line: string) => void;

export interface FleetRunRequest {
  command: 'start' | 'resume' | 'retry';
  fleet: LoadedFleet;
  settings: FleetSettings;
  env: NodeJS.ProcessEnv;
  stateDir: string;
  journal: FleetJournal;
  limiter: WatchedLimiter;
  redactor: Redactor;
  stop: FleetStop;
  say: Say;
  resumeCommand: string;
}

/** The run's approvals, journaled before anything runs: the start's flags, or the journal's with this command's flags added and --revoke taken away. */
export function journalRunApprovals(journal: FleetJournal, command: FleetRunRequest['command'], settings: FleetSettings, say: Say): Amended {
  const state = journal.state()!;
  const flags = flagApprovals(settings.approvals);
  let amended: Amended;
  try {
    // A journal from before the run's approvals were kept: this command's flags are the run's from now on.
    amended = state.approvals ? amendApprovals(state.approvals, flags, settings.revoke, state.stages) : amendApprovals({ ...flags, revoked: [] }, flags, settings.revoke, state.stages);
  } catch (err) {
    throw new InputError('usage.revoke', `${(err as Error).message}.`, { hint: '`upgrade-pilot fleet status --fleet FILE` lists the run\'s approvals.' });
  }
  const added = state.approvals ? amended.added : [];
  journal.append({ type: 'fleet.run', at: new Date().toISOString(), by: whoAmI(), command, approvals: amended.approvals, added, revoked: amended.revoked });
  const text = approvalsText(amended.approvals);
  if (command === 'start') say({ type: 'approvals', approvals: amended.approvals }, `approvals of the run (journaled; resume and retry use them again): ${text}`);
  else {
    const change = [...(added.length ? [`added ${added.join(' ')}`] : []), ...(amended.revoked.length ? [`revoked ${amended.revoked.join(', ')}`] : [])];
    say({ type: 'approvals', approvals: amended.approvals, added, revoked: amended.revoked }, `approvals of the run: ${text}${state.approvals ? ` (the start's${change.length ? `; ${change.join('; ')}` : ''})` : ' (none were recorded: these flags are the run\'s from now on)'}`);
  }
  return { ...amended, added };
}

/** `fleet start`: the clusters read (from Palette too, with `fromPalette` or selector stages), the plan frozen. */
async function freezeFromPalette(req: FleetRunRequest, palette: PaletteApi): Promise<void> {
  const { say } = req;
  const fleet = await resolveFromPalette(req.fleet, palette, req.stop.signal);
  if (fleet.fromPalette) say({ type: 'fleet.clusters', from: fleet.fromPalette, clusters: fleet.clusters.map((c) => c.name) }, `${fromPaletteText(fleet.fromPalette)}: ${fleet.clusters.map((c) => c.name).join(', ')}`);
  // Every cluster of the file is read: a selector stage takes its clusters by their Palette tags.
  const bySelector = fleet.spec.stages.some((s) => s.selector);
  const read = fleet.clusters.filter((c) => bySelector || fleet.spec.stages.some((s) => s.clusters?.includes(c.name)));
  const targets = await readTargets(palette, read, req.stop.signal);
  const members = stageClusters(fleet.spec.stages, fleet.clusters.map((c) => c.name), targets.tags);
  const staged = new Set([...members.values()].flat());
  const leftOut = targets.leftOut.filter((l) => staged.has(l.name));
  freezePlan(req.journal, fleet, leftOut, members);
  for (const l of leftOut) say({ type: 'cluster.left-out', cluster: l.name, reason: l.reason }, `${l.name}: left out of the plan: ${l.reason}`);
  for (const s of fleet.spec.stages.filter((x) => x.selector)) {
    const picked = members.get(s.name) ?? [];
    say({ type: 'stage.selected', stage: s.name, tags: s.selector!.tags, clusters: picked }, `stage ${s.name}: tagged ${s.selector!.tags.join(' and ')}: ${picked.length ? picked.join(', ') : 'no cluster'}`);
  }
}

/** A session's state as its journal stands, undefined when it cannot be read (a folder removed by hand). */
export function sessionReader(stateDir: string, redactor: Redactor): (id: string) => SessionState | undefined {
  const sessions = new SessionStore(stateDir, redactor);
  return (id) => {
    try {
      return sessions.load(id);
    } catch {
      return undefined;
    }
  };
}

/** Each cluster's predicted duration for its stage's window: its own plan's p90, else the longest of those that planned. */
function predictor(state: () => FleetState, session: (id: string) => SessionState | undefined): CoordinatorOptions['predict'] {
  const p90Of = (id: string | undefined) => {
    const s = id ? session(id) : undefined;
    return s ? planP90Ms(s) : undefined;
  };
  return (name) => {
    const all = state().clusters;
    const others = all.flatMap((c) => {
      const ms = c.name === name ? undefined : p90Of(c.session);
      return ms === undefined ? [] : [{ name: c.name, ms }];
    });
    return predict(name, p90Of(all.find((c) => c.name === name)?.session), others);
  };
}

/** The coordinator's wiring for `start` and `resume` (the plan frozen first on `start`), with the run's approvals journaled. */
export async function prepareFleetRun(req: FleetRunRequest, registry: StepRegistry): Promise<CoordinatorOptions> {
  const { journal, settings, say } = req;
  if (req.command === 'start' && journal.state()) throw new InputError('fleet.started', `Fleet ${req.fleet.spec.fleet} has already started (${journal.paths.journal}).`, { hint: 'Continue it with `upgrade-pilot fleet resume --fleet FILE`; its plan is frozen.' });
  if (req.command !== 'start' && !journal.state()) throw new InputError('fleet.not-started', `Fleet ${req.fleet.spec.fleet} has not started in ${req.stateDir}.`, { hint: 'Start it with `upgrade-pilot fleet start --fleet FILE`.' });
  if (req.command === 'start' && settings.revoke.length) throw new InputError('usage.revoke', '--revoke takes an approval away from a running fleet: `fleet start` has none yet.', { hint: 'Give only the approvals you mean to give; --revoke is for fleet resume and fleet retry.' });
  // The coordinator runs many sessions in this process: its heap is kept near what is live.
  boundHeapGrowth();
  const key = readApiKey(settings.apiKeyFile, req.env, req.redactor);
  // As a session without a key stops (env.unconfigured, exit 4): before anything runs, not in each cluster.
  if (!key.key) throw new EnvironmentError('env.unconfigured', `fleet ${req.command} needs the profile API key: every cluster's session reads and writes Palette.`, { hint: 'Set UPGRADE_PILOT_API_KEY in the environment, or pass --api-key-file FILE.' });
  const first = req.fleet.connection;
  const palette = buildPalette({ params: first, apiKey: key.key, redactor: req.redactor, allowInsecureHttp: settings.allowInsecureHttp, limiter: req.limiter });
  if (req.command === 'start') await freezeFromPalette(req, palette);
  else if (journal.state()!.digest !== req.fleet.digest) say({ type: 'warning', message: 'fleet file changed' }, 'the fleet file changed since the plan was frozen: the frozen plan is followed (the target set does not change under a running fleet)');
  const amended = journalRunApprovals(journal, req.command, settings, say);
  // Soaks and windows are measured on the clock the sessions follow: the lab's own (accelerated) against a lab.
  const frozen = journal.state()!.clusters[0];
  const clock = await clockFor(frozen ? loadParams(frozen.paramsFile).params : first, key.key, { allowInsecureHttp: settings.allowInsecureHttp });
  const sessionState = sessionReader(req.stateDir, req.redactor);
  return {
    journal,
    stateDir: req.stateDir,
    settings,
    registry,
    limiter: req.limiter,
    // The pack registry and the profile versions, read once for every cluster of the fleet.
    sharedReads: new FleetReads(),
    env: req.env,
    signal: req.stop.signal,
    halt: req.stop.halt,
    stopRequest: () => req.stop.requested(),
    approvals: amended.approvals,
    resumeCommand: req.resumeCommand,
    sessionState,
    clock,
    soakHealth: kubeSoakHealth(req.redactor),
    predict: predictor(() => journal.state()!, sessionState),
    exists: (uid: string) => clusterExists(palette, uid, req.stop.signal),
    say,
  };
}
