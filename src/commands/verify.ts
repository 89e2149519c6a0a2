/**
 * `upgrade-pilot verify`: the checks of spec 9.3 once, as panels (text or JSON). Read-only.
 * Exit 0 when every check is green (amber allowed), 1 when one is red, 4 when the cluster or the
 * API cannot be reached or did not answer some checks (none red, some unknown).
 */
import type { CliOptions } from './options.js';
import { bundledRunbook, loadParams } from '../engine/load.js';
import { loadRunbook } from '../steps/runbook-load.js';
import type { StepRegistry } from '../engine/step-kind.js';
import { ExitCode, InputError } from '../errors.js';
import { clusterUnreadable, gatherVerifyData } from '../kube/checks/gather.js';
import { renderChecksText } from '../domain/checks/render-text.js';
import { countLine, overallStatus, runChecks } from '../domain/checks/run.js';
import { readApiKey } from '../run/api-key.js';
import { makeScratch } from '../run/scratch.js';
import { buildKube, buildPalette } from '../run/effects.js';
import type { RunIO } from '../run/session-run.js';
import { Redactor } from '../session/redact.js';
import { safeOut, sanitizeLines } from '../text/sanitize.js';
import { deployedProfileViews } from '../steps/verify/profiles-source.js';
import { targetComponents, targetExpectations } from '../steps/verify/target.js';
import { resolveSince, type ResolvedSince } from '../steps/verify/verify-since.js';
import { checkKeyDestinations, clockFor } from '../run/lab-clock.js';
import { resolveStateDir } from '../session/paths.js';
import { SessionStore } from '../session/store.js';
import { junitXml } from '../report/junit.js';
import { checkJunitTarget, writeJunitFile } from '../report/junit-file.js';
import { chosenKubeconfig } from '../run/kubeconfig-choice.js';
import { formatDuration } from '../text/duration.js';
import { parseEachSchemaOnce } from '../io/one-shot-parsing.js';

export async function runVerifyCommand(options: CliOptions, io: RunIO, registry: StepRegistry): Promise<ExitCode> {
  parseEachSchemaOnce();
  if (!options.params) throw new InputError('usage.params', '`verify` needs the site parameters.', { hint: 'Pass --params FILE (see params.example.yaml).' });
  const redactor = new Redactor();
  const key = readApiKey(options['api-key-file'], io.env, redactor);
  const { params } = loadParams(options.params);
  const { runbook } = loadRunbook(options.runbook ?? bundledRunbook(), params, registry);
  if (runbook.checks.length === 0) throw new InputError('usage.no-checks', 'The runbook defines no checks.', { hint: 'Use a runbook with a `checks:` section.' });
  if (options.junit) checkJunitTarget(options.junit);
  const scratch = makeScratch('kube');
  const cacheDir = scratch.dir;
  try {
    const palette = buildPalette({ params, apiKey: key.key, redactor, allowInsecureHttp: options['allow-insecure-http'] });
    const kube = buildKube({ runbook, kubeconfig: chosenKubeconfig(options.kubeconfig, params), context: options.context ?? params.cluster.context, redactor, cacheDir });
    scratch.onDispose(() => kube.kubectl.close());
    const started = Date.now();
    // Against the lab the cluster's clock is the lab's: ages and --since are read on it, after the
    // reads, so it is read beside them (where the key may go is checked first, before anything is sent).
    checkKeyDestinations(params, { allowInsecureHttp: options['allow-insecure-http'] });
    const clockRead = clockFor(params, key.key, { allowInsecureHttp: options['allow-insecure-http'] });
    clockRead.catch(() => undefined); // awaited below
    // What the target deploys does not depend on the cluster: read beside it, not after it.
    const components = targetComponents(params, palette);
    components.catch(() => undefined); // awaited below; a failure must not surface as unhandled meanwhile
    const data = await gatherVerifyData(runbook.checks, {
      reader: kube.reader(),
      profiles: async () => deployedProfileViews(await palette.getClusterProfiles(params.cluster.uid)),
    });
    const clock = await clockRead;
    // No session says what was published: the params' target is what the cluster should run now.
    const deployed = data.profiles?.ok ? data.profiles.value : undefined;
    const target = await targetExpectations(params, palette, deployed, undefined, components);
    const since = sinceOf(options, io.env, params.cluster.uid, clock, redactor);
    const results = runChecks(runbook.checks, data, { ...target.expectations, ...(since.at !== undefined ? { since: since.at } : {}), now: clock.now() });
    const overall = overallStatus(results);
    const out = (s: string) => io.stdout.write(`${safeOut(redactor.text(s), options.json)}\n`);
    if (options.junit) writeJunitFile(options.junit, redactor.text(junitXml({ name: `upgrade-pilot verify ${params.cluster.name ?? params.cluster.uid}`, timestamp: new Date(started).toISOString().slice(0, 19), results })));
    const sinceJson = { ...(since.at !== undefined ? { at: new Date(since.at).toISOString() } : {}), source: since.source };
    if (options.json) out(JSON.stringify({ cluster: params.cluster.name ?? params.cluster.uid, target: params.target, overall, results, notes: target.notes, since: sinceJson, ms: Date.now() - started }));
    else {
      out(`upgrade-pilot verify: ${params.cluster.name ?? params.cluster.uid}: ${countLine(results)} (${formatDuration(Date.now() - started)})`);
      for (const n of target.notes) out(`  ${n}`);
      out(`  Since: ${since.source}.`);
      for (const l of renderChecksText(results)) out(l);
    }
    const unreadable = clusterUnreadable(data);
    if (unreadable !== undefined) {
      // Not one cluster read answered: whatever the profile panel says, nothing is known of the cluster (exit 4).
      io.stderr.write(`${sanitizeLines(redactor.text(`error: The cluster could not be read at all: ${unreadable}`))}\n`);
      io.stderr.write("  what to do: Check the cluster access file, the network or VPN to the cluster API (and the limits in the runbook's settings), then run verify again.\n");
      return ExitCode.environment;
    }
    if (overall === 'unknown') {
      // Nothing red, but some checks could not be run: the cluster or the API did not answer them,
      // so nothing is known to be wrong with the upgrade - the environment is (exit 4).
      const unknown = results.filter((r) => r.status === 'unknown');
      io.stderr.write(`${sanitizeLines(redactor.text(`error: ${unknown.length} check(s) could not be run: ${unknown.map((r) => r.title).join('; ')}. ${unknown[0]!.summary}`))}\n`);
      io.stderr.write('  what to do: Check that the cluster and the profile API answer (and the limits in the runbook\'s settings), then run verify again.\n');
      return ExitCode.environment;
    }
    return overall === 'pass' || overall === 'warn' ? ExitCode.ok : ExitCode.failed;
  } finally {
    scratch.dispose();
  }
}

/** `--since`, else the latest session on this cluster; a state dir that cannot be read only means no session is known. */
export function sinceOf(options: CliOptions, env: NodeJS.ProcessEnv, clusterUid: string, clock: Awaited<ReturnType<typeof clockFor>>, redactor: Redactor): ResolvedSince {
  let store: SessionStore | undefined;
  if (!options.since) {
    try {
      store = new SessionStore(resolveStateDir(options['state-dir'], env), redactor);
    } catch {
      store = undefined;
    }
  }
  try {
    return resolveSince({ arg: options.since, store, clusterUid, clock });
  } catch {
    return { source: 'the state dir could not be read: every recorded failure is listed with its age (pass --since TIME to judge from a time)' };
  }
}
