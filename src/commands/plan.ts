/**
 * `upgrade-pilot plan`: the hops (one minor at a time), what each publishes, and what every VM will
 * go through, as text or JSON. Read-only. Exit 0 with a plan, 2 when the plan is refused (a skipped
 * minor, a downgrade, a missing reference: the target or the params are wrong), 4 when the API or the cluster cannot be reached.
 */
import type { CliOptions } from './options.js';
import { bundledRunbook, loadParams } from '../engine/load.js';
import { loadRunbook } from '../steps/runbook-load.js';
import type { StepRegistry } from '../engine/step-kind.js';
import { ExitCode, InputError } from '../errors.js';
import { readApiKey } from '../run/api-key.js';
import { makeScratch } from '../run/scratch.js';
import { buildKube, buildPalette } from '../run/effects.js';
import { clockFor } from '../run/lab-clock.js';
import type { RunIO } from '../run/session-run.js';
import { Redactor } from '../session/redact.js';
import { safeOut } from '../text/sanitize.js';
import { computePlan } from '../steps/plan/compute.js';
import { renderPlanText } from '../steps/plan/render-text.js';
import { chosenKubeconfig } from '../run/kubeconfig-choice.js';
import { parseEachSchemaOnce } from '../io/one-shot-parsing.js';

export async function runPlanCommand(options: CliOptions, io: RunIO, registry: StepRegistry): Promise<ExitCode> {
  parseEachSchemaOnce();
  if (!options.params) throw new InputError('usage.params', '`plan` needs the site parameters.', { hint: 'Pass --params FILE (see params.example.yaml).' });
  const redactor = new Redactor();
  const key = readApiKey(options['api-key-file'], io.env, redactor);
  const { params } = loadParams(options.params);
  // kubectl settings and the version notes (stepping stones, new variables) come from the runbook.
  const { settings, versionNotes } = loadRunbook(options.runbook ?? bundledRunbook(), params, registry).runbook;
  const scratch = makeScratch('kube');
  const cacheDir = scratch.dir;
  const controller = new AbortController();
  try {
    const palette = buildPalette({ params, apiKey: key.key, redactor, allowInsecureHttp: options['allow-insecure-http'] });
    const kube = buildKube({ runbook: { settings }, kubeconfig: chosenKubeconfig(options.kubeconfig, params), context: options.context ?? params.cluster.context, redactor, cacheDir });
    scratch.onDispose(() => kube.kubectl.close());
    // Against the lab the cluster's now is the lab's: the VMs' restart windows are judged at that time.
    const clock = await clockFor(params, key.key, { allowInsecureHttp: options['allow-insecure-http'] });
    const plan = await computePlan({ site: params, palette, kube, signal: controller.signal, notes: versionNotes, now: clock.now() });
    const cluster = params.cluster.name ?? params.cluster.uid;
    const out = (s: string) => io.stdout.write(`${safeOut(redactor.text(s), options.json)}\n`);
    if (options.json) out(JSON.stringify({ cluster, ...plan }));
    else for (const line of renderPlanText(plan, cluster)) out(line);
    if (!options.json) for (const w of key.warnings) io.stderr.write(`warning: ${redactor.text(w)}\n`);
    return plan.status === 'planned' ? ExitCode.ok : ExitCode.usage;
  } finally {
    controller.abort();
    scratch.dispose();
  }
}
