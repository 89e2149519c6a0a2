/**
 * The pack registry as the source of the new defaults (issue 16), against the lab over real
 * sockets with Palette's documented rate limits on (10 requests/s for /v1/packs):
 * - the registry reads a cold `plan` + `diff` of the healthy lab needs (the orchestration pack's
 *   tags and each moving pack's tags, whose answers carry every tag's values), timed and counted;
 * - the same defaults read one (pack, tag) at a time through the filters query, where the limiter sets the pace;
 * - cold `plan` and `diff` with the registry and with reference profiles, for comparison.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { runDiffCommand } from '../src/commands/diff.js';
import { runPlanCommand } from '../src/commands/plan.js';
import { parseCommandLine } from '../src/cli/args.js';
import { startLab, type LabHandle } from '../src/lab/index.js';
import { PaletteClient } from '../src/palette/client.js';
import { defaultRateLimits } from '../src/palette/rate-limit.js';
import type { RunIO } from '../src/run/session-run.js';
import { Redactor } from '../src/session/redact.js';
import { builtinSteps } from '../src/steps/index.js';

export interface RegistryBenchmarkResult {
  /** Tag-list reads (one per pack) and the wall time of all of them, per run. */
  tagReads: number;
  tagListMs: number[];
  /** Values read one (pack, tag) at a time through the filters query. */
  valueReads: number;
  valuesMs: number[];
  planRegistryMs: number[];
  planReferencesMs: number[];
  diffRegistryMs: number[];
  diffReferencesMs: number[];
}

function client(lab: LabHandle): PaletteClient {
  return new PaletteClient({ baseUrl: lab.paletteUrl, projectUid: lab.projectUid, apiKey: lab.apiKey, clusterCollection: 'clusters', timeoutMs: 30_000, redactor: new Redactor(), rateLimits: defaultRateLimits });
}

/** The repository's runbook (the bench runs from dist-bench/, where the bundled path does not lead). */
const runbook = fileURLToPath(new URL('../../runbooks/vmo-upgrade.yaml', import.meta.url));

async function command(name: 'plan' | 'diff', params: string, apiKey: string): Promise<number> {
  const parsed = parseCommandLine([name, '--params', params, '--runbook', runbook]);
  if (parsed.kind !== 'run') throw new Error('not a run');
  const io = { stdout: { write: () => true }, stderr: { write: () => true }, stdin: {}, env: { UPGRADE_PILOT_API_KEY: apiKey } } as unknown as RunIO;
  const t0 = performance.now();
  const code = await (name === 'plan' ? runPlanCommand : runDiffCommand)(parsed.invocation.options, io, builtinSteps());
  if (code !== 0) throw new Error(`${name} exited ${code}`);
  return performance.now() - t0;
}

export async function runRegistryBenchmark(root: string, opts: { runs?: number } = {}): Promise<RegistryBenchmarkResult> {
  const runs = opts.runs ?? 5;
  const stateDir = mkdtempSync(join(root, 'registry-'));
  const lab = await startLab({ scenario: 'healthy', stateDir, seed: 16, speed: 60 });
  try {
    const params = parse(readFileSync(lab.params, 'utf8')) as { moveWith: Record<string, Record<string, string>> };
    const deployed = [lab.profileUids.addon, lab.profileUids.infra].flatMap((uid) => lab.profiles.get(uid)!.published!.packs);
    const registryUid = deployed[0]!.registryUid;
    const hops: Record<string, string[]> = { 'virtual-machine-orchestrator': ['4.5.4', '4.6.3'], ...Object.fromEntries(Object.entries(params.moveWith).map(([p, m]) => [p, Object.values(m)])) };
    const packs = Object.keys(hops);
    // What a diff compares: each moving pack's deployed tag (the old defaults) and every tag it moves to.
    const pairs = packs.flatMap((p) => [deployed.find((d) => d.name === p)!.tag, ...hops[p]!].map((tag) => `${p}@${tag}`));
    const out: RegistryBenchmarkResult = { tagReads: packs.length, tagListMs: [], valueReads: pairs.length, valuesMs: [], planRegistryMs: [], planReferencesMs: [], diffRegistryMs: [], diffReferencesMs: [] };
    for (let i = 0; i < runs; i++) {
      let t0 = performance.now();
      const a = client(lab);
      await Promise.all(packs.map((p) => a.registry.tags(p, registryUid)));
      out.tagListMs.push(performance.now() - t0);
      t0 = performance.now();
      const b = client(lab);
      await Promise.all(pairs.map((x) => b.registry.values(x.split('@')[0]!, x.split('@')[1]!, registryUid)));
      out.valuesMs.push(performance.now() - t0);
      out.planRegistryMs.push(await command('plan', lab.params, lab.apiKey));
      out.planReferencesMs.push(await command('plan', lab.labJson.paramsWithReferences, lab.apiKey));
      out.diffRegistryMs.push(await command('diff', lab.params, lab.apiKey));
      out.diffReferencesMs.push(await command('diff', lab.labJson.paramsWithReferences, lab.apiKey));
    }
    return out;
  } finally {
    await lab.close();
    rmSync(stateDir, { recursive: true, force: true });
  }
}
