/**
 * A Palette that does not serve profile variables (an older one: the cluster's variables answer 404
 * or 405, right after the cluster itself was read) is read as having none, with a note where the
 * variables are shown; it is never a stop that blames the cluster uid. A missing variables read of
 * a profile version names the variables, not the profile. Against the lab playing a real Palette,
 * over real HTTP (its fault plan answers the route as not served).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../src/cli/args.js';
import { runDiffCommand } from '../../src/commands/diff.js';
import { runPlanCommand } from '../../src/commands/plan.js';
import { ParamsSchema } from '../../src/engine/params.js';
import { loadParams } from '../../src/engine/load.js';
import { startLab, type LabHandle } from '../../src/lab/index.js';
import { PaletteClient } from '../../src/palette/client.js';
import { PaletteApiError } from '../../src/palette/errors.js';
import { Redactor } from '../../src/session/redact.js';
import { ProfileVariables, unservedNote } from '../../src/palette/variables.js';
import { customizeSummary } from '../../src/steps/customize/customize.js';
import { ruleVariableViews, withVariablesNote } from '../../src/steps/customize/rule-variables-source.js';
import type { CustomizeOutput } from '../../src/steps/customize/types.js';
import { readProfileVariables } from '../../src/steps/plan/profile-variables.js';
import { builtinSteps } from '../../src/steps/index.js';
import type { PaletteApi } from '../../src/palette/api.js';
import type { ProfileDoc } from '../../src/palette/types.js';
import { initialState } from '../../src/engine/reducer.js';
import { buildReport } from '../../src/report/build.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { created, step } from '../support/state-fixtures.js';

const CLUSTER_VARIABLES = 'GET /v1/spectroclusters/*/variables';

async function command(run: typeof runDiffCommand, argv: string[], apiKey: string): Promise<{ code: number; out: string }> {
  const parsed = parseCommandLine(argv);
  if (parsed.kind !== 'run') throw new Error('bad argv');
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  const io = { stdout: stdout as unknown as NodeJS.WriteStream, stderr: new PassThrough() as unknown as NodeJS.WriteStream, stdin: process.stdin, env: { UPGRADE_PILOT_API_KEY: apiKey } };
  return { code: await run(parsed.invocation.options, io, builtinSteps()), out };
}

/** The variables reads over a transport that answers every read with this status. */
const answering = (status: number) =>
  new ProfileVariables(async (call) => {
    throw new PaletteApiError('palette.not-found', `answered ${status}`, { hint: '', where: `${call.method} ${call.path}`, status, mayHaveApplied: false });
  });

describe('the cluster variables not served', () => {
  it.each([404, 405])('%i: read as none, with the note (never "Cluster ... was not found")', async (status) => {
    const read = await answering(status).ofCluster('c-1');
    expect(read.all).toEqual([]);
    expect(read.unserved).toBe(unservedNote('/v1/spectroclusters/c-1/variables', status));
    expect(read.unserved).toMatch(new RegExp(`answered ${status}, so this Palette does not serve profile variables .*read as none`));
    expect(read.unserved).not.toMatch(/Check cluster\.uid/);
  });

  it('any other failure still stops the read (a 500 is not "no variables")', async () => {
    await expect(answering(500).ofCluster('c-1')).rejects.toBeInstanceOf(PaletteApiError);
  });

  it('the plan reads a referenced variable as undeclared and says why; the rules see none, and the review says so', async () => {
    const palette = { variables: answering(404) } as unknown as PaletteApi;
    const doc = (uid: string, values: string): ProfileDoc => ({ uid, name: `p-${uid}`, version: '1.0.0', packs: [{ name: 'nginx', tag: '1.0.0', values }] }) as unknown as ProfileDoc;
    const docs = { addon: doc('a-1', "x: '{{.spectro.var.INGRESS_IP}}'\n"), infra: doc('i-1', 'y: 1\n') };
    const planned = await readProfileVariables(palette, { flavor: 'palette' } as never, docs, 'c-1', new AbortController().signal);
    expect(planned.variables).toEqual([expect.objectContaining({ name: 'INGRESS_IP', state: 'undeclared' })]);
    expect(planned.unserved).toMatch(/does not serve profile variables/);

    const site = ParamsSchema.parse({ palette: { baseUrl: 'https://palette.example', projectUid: 'p1' }, cluster: { uid: 'c-1' }, profiles: { addon: { uid: 'a-1' }, infra: { uid: 'i-1' } }, target: '4.6.3', site: { blockStorageClass: 'px' } });
    const views = await ruleVariableViews(palette, site, 'palette');
    expect(views.views?.addon?.size).toBe(0);
    const result = withVariablesNote({ byHop: [], conflicts: 0, ruleFailures: 0, notOnSite: 0 } as CustomizeOutput, views.unserved);
    expect(result.variablesUnserved).toBe(views.unserved);
    // The review's first line (the customize screen's headline and the step's summary).
    expect(customizeSummary(result)).toMatch(/; profile variables: not served by this Palette, read as none$/);
  });
});

describe('the report', () => {
  it('says the variables were read as none, in report.json and in the Markdown', () => {
    const note = unservedNote('/v1/spectroclusters/c-1/variables', 404);
    const output = { byHop: [], conflicts: 0, ruleFailures: 0, notOnSite: 0, variablesUnserved: note };
    const state = initialState(created([step('customize', { kind: 'customize', status: 'succeeded', output })]));
    const data = buildReport(state);
    expect(data.variablesUnserved).toBe(note);
    expect(renderMarkdown(data)).toContain(`Note: ${note}`);
    expect(buildReport(initialState(created([step('customize', { kind: 'customize', status: 'succeeded', output: { ...output, variablesUnserved: undefined } })]))).variablesUnserved).toBeUndefined();
  });
});

describe('against the lab playing a real Palette', () => {
  let lab: LabHandle;
  beforeAll(async () => {
    lab = await startLab({ scenario: 'healthy', stateDir: mkdtempSync(join(tmpdir(), 'up-vars-unserved-')), speed: 1, seed: 3, flavor: 'palette' });
  }, 60_000);
  afterAll(async () => {
    await lab?.close();
  });

  it.each([404, 405] as const)('`diff` goes on (exit 0) and says the variables were read as none (%i)', async (status) => {
    lab.paletteFaults.set([{ route: CLUSTER_VARIABLES, faults: { unserved: status } }]);
    try {
      const r = await command(runDiffCommand, ['diff', '--params', lab.params], lab.apiKey);
      expect(r.code, r.out).toBe(0);
      expect(r.out).toMatch(new RegExp(`^Profile variables: GET /v1/spectroclusters/${lab.clusterUid}/variables answered ${status}, so this Palette does not serve profile variables`, 'm'));
      expect(r.out).not.toMatch(/was not found/);
    } finally {
      lab.paletteFaults.clear();
    }
  }, 60_000);

  it('without the fault the same read answers, and no note is said', async () => {
    const r = await command(runDiffCommand, ['diff', '--params', lab.params], lab.apiKey);
    expect(r.code).toBe(0);
    expect(r.out).not.toMatch(/does not serve profile variables/);
  }, 60_000);

  it('`plan` is untouched by it (this site references no variable, so nothing is read)', async () => {
    lab.paletteFaults.set([{ route: CLUSTER_VARIABLES, faults: { unserved: 404 } }]);
    try {
      const r = await command(runPlanCommand, ['plan', '--params', lab.params], lab.apiKey);
      expect(r.code, r.out).toBe(0);
      expect(r.out).not.toMatch(/Profile variables:/);
    } finally {
      lab.paletteFaults.clear();
    }
  }, 60_000);

  it("a version's own variables not found names the variables, not the profile or the cluster", async () => {
    lab.paletteFaults.set([{ route: 'GET /v1/clusterprofiles/*/variables', faults: { unserved: 404 } }]);
    try {
      const params = loadParams(lab.params).params;
      const client = new PaletteClient({ baseUrl: params.palette.baseUrl, projectUid: params.palette.projectUid, apiKey: lab.apiKey, clusterCollection: 'spectroclusters', timeoutMs: 10_000, redactor: new Redactor(), flavor: 'palette' });
      const uid = lab.labJson.profileUids.addon;
      const err = await client.variables.list(uid).then(
        () => undefined,
        (e: unknown) => e as PaletteApiError,
      );
      expect(err?.message).toMatch(new RegExp(`^The profile variables of version ${uid} were not found \\(404 on GET /v1/clusterprofiles/${uid}/variables`));
      expect(err?.hint).toMatch(/does not serve its profile variables/);
    } finally {
      lab.paletteFaults.clear();
    }
  }, 60_000);
});
