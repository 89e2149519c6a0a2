/**
 * `upgrade-pilot diff`: the customizations to carry into the new pack versions (per hop, profile
 * and pack), and the spec 9.2 rules on the result. Read-only. Exit 0 when every rule holds, 1
 * otherwise (or when no safe plan exists), 4 when the API or the cluster cannot be reached.
 */
import type { CliOptions } from './options.js';
import { bundledRunbook, loadParams } from '../engine/load.js';
import { loadRunbook } from '../steps/runbook-load.js';
import type { StepRegistry } from '../engine/step-kind.js';
import { ExitCode, InputError } from '../errors.js';
import { readApiKey } from '../run/api-key.js';
import { makeScratch } from '../run/scratch.js';
import { buildKube, buildPalette } from '../run/effects.js';
import type { RunIO } from '../run/session-run.js';
import { Redactor } from '../session/redact.js';
import { safeOut } from '../text/sanitize.js';
import { computeCustomizations } from '../steps/customize/compute.js';
import { renderCustomizationsText, conflictProposals } from '../steps/customize/render-text.js';
import { PackSources } from '../steps/customize/sources.js';
import { ruleVariableViews, withVariablesNote } from '../steps/customize/rule-variables-source.js';
import { computePlan } from '../steps/plan/compute.js';
import { renderPlanText } from '../steps/plan/render-text.js';
import { chosenKubeconfig } from '../run/kubeconfig-choice.js';
import { parseEachSchemaOnce } from '../io/one-shot-parsing.js';

export async function runDiffCommand(options: CliOptions, io: RunIO, registry: StepRegistry): Promise<ExitCode> {
  parseEachSchemaOnce();
  if (!options.params) throw new InputError('usage.params', '`diff` needs the site parameters.', { hint: 'Pass --params FILE (see params.example.yaml).' });
  const redactor = new Redactor();
  const key = readApiKey(options['api-key-file'], io.env, redactor);
  const { params } = loadParams(options.params);
  const { runbook } = loadRunbook(options.runbook ?? bundledRunbook(), params, registry);
  const scratch = makeScratch('kube');
  const cacheDir = scratch.dir;
  const out = (s: string) => io.stdout.write(`${safeOut(redactor.text(s), options.json)}\n`);
  try {
    const palette = buildPalette({ params, apiKey: key.key, redactor, allowInsecureHttp: options['allow-insecure-http'] });
    const kube = buildKube({ runbook, kubeconfig: chosenKubeconfig(options.kubeconfig, params), context: options.context ?? params.cluster.context, redactor, cacheDir });
    scratch.onDispose(() => kube.kubectl.close());
    const plan = await computePlan({ site: params, palette, kube, signal: new AbortController().signal, notes: runbook.versionNotes });
    const cluster = params.cluster.name ?? params.cluster.uid;
    if (plan.status !== 'planned') {
      if (options.json) out(JSON.stringify({ cluster, plan }));
      else for (const line of renderPlanText(plan, cluster)) out(line);
      return ExitCode.failed;
    }
    if (plan.hops.length === 0) {
      if (options.json) out(JSON.stringify({ cluster, hops: [], conflicts: 0, ruleFailures: 0 }));
      else out(`${cluster}: the pack is already at ${params.target}; nothing will be published, so nothing needs carrying.`);
      return ExitCode.ok;
    }
    const { views, unserved } = await ruleVariableViews(palette, params, plan.flavor);
    const computed = await computeCustomizations({ plan, site: params, rules: runbook.rules, settings: runbook.values, sources: new PackSources(palette, params.valuesDir, undefined, params.palette.registryUid), decisions: {}, notes: runbook.versionNotes, variables: views });
    const result = withVariablesNote(computed, unserved);
    if (options.json) {
      // The full values are long; the JSON gives every decision and the rules, not the documents.
      const slim = { ...result, byHop: result.byHop.map((h) => ({ ...h, profiles: h.profiles.map((p) => ({ ...p, packs: p.packs.map(({ values: _v, deployedValues: _d, ...rest }) => rest) })) })) };
      out(JSON.stringify({ cluster, ...slim }));
    } else {
      out(`upgrade-pilot diff: ${cluster}: customizations to carry forward (${conflictProposals(result)}; a key the new version removed is dropped unless kept)`);
      for (const line of renderCustomizationsText(result)) out(line);
    }
    return result.ruleFailures === 0 ? ExitCode.ok : ExitCode.failed;
  } finally {
    scratch.dispose();
  }
}
