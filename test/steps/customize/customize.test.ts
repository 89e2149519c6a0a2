import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseCommandLine } from '../../../src/cli/args.js';
import { runDiffCommand } from '../../../src/commands/diff.js';
import { noApprovals } from '../../../src/engine/approval-policy.js';
import type { ConfirmFn } from '../../../src/engine/gate.js';
import { findStep } from '../../../src/engine/state.js';
import { buildReport } from '../../../src/report/build.js';
import { startLab, type LabHandle } from '../../../src/lab/index.js';
import type { CustomizeOutput, PackCustomization } from '../../../src/steps/customize/types.js';
import { builtinSteps } from '../../../src/steps/index.js';
import { labRun } from '../../support/lab-harness.js';

let lab: LabHandle | undefined;
afterEach(async () => {
  await lab?.close();
  lab = undefined;
});

const RUNBOOK = 'test/fixtures/runbooks/plan-customize.yaml';
const start = (scenario: 'healthy' | 'lost-customizations') => startLab({ scenario, stateDir: mkdtempSync(join(tmpdir(), 'up-cust-')), speed: 1, seed: 9 });

function pack(out: CustomizeOutput, hop: number, name: string): PackCustomization {
  const p = out.byHop.find((h) => h.index === hop)!.profiles.flatMap((x) => x.packs).find((x) => x.name === name);
  if (!p) throw new Error(`no ${name} in hop ${hop}`);
  return p;
}

const at = (values: string, path: string[]): unknown => path.reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], parse(values));

async function customize(l: LabHandle, confirm?: ConfirmFn) {
  const run = labRun(l, RUNBOOK);
  const outcome = await run.runner({ approvals: noApprovals, ...(confirm ? { confirm } : {}) }).run();
  const state = run.store.load(run.id);
  const step = findStep(state, 'customize')!;
  return { outcome, step, out: step.output as CustomizeOutput, state };
}

describe('customize against the lab', () => {
  it('healthy: two hops, 3-way, every site setting carried, every image tag ignored, all 12 rules hold', async () => {
    lab = await start('healthy');
    const { outcome, out } = await customize(lab);
    expect(outcome.status).toBe('done');
    expect(out.byHop.map((h) => `${h.from}→${h.to}`)).toEqual(['4.4.10→4.5.4', '4.5.4→4.6.3']);
    expect(out.ruleFailures).toBe(0);
    expect(out.byHop.flatMap((h) => h.profiles.flatMap((p) => p.rules))).toHaveLength(24);
    const vmo = pack(out, 2, 'virtual-machine-orchestrator');
    expect(vmo.mode).toBe('threeWay');
    expect(vmo.counts.ignored).toBeGreaterThan(0);
    expect(pack(out, 1, "virtual-machine-orchestrator").counts.ignored).toBeGreaterThan(10);
    expect(vmo.entries.some((e) => /(^|\.)(image|tag)(\.|$|\[)/.test(e.path))).toBe(false);
    expect(at(vmo.values, ['charts', 'virtual-machine-orchestrator', 'kubevirt', 'kubevirtResource', 'additionalFeatureGates'])).toContain('SMM');
    // Comments and macros of the new defaults survive.
    expect(vmo.values).toContain('# below gates are required for virtual machine orchestrator pack');
    expect(vmo.values).toContain('{{ .spectro.system.kubernetes.version | substr 0 4 }}');
    const px = pack(out, 2, 'csi-portworx-generic');
    expect(at(px.values, ['charts', 'portworx-generic', 'storageClass', 'name'])).toBe('px-vm-block');
    expect(at(px.values, ['charts', 'portworx-generic', 'activateLicense'])).toBe(false);
    const cilium = pack(out, 1, 'cni-cilium-oss');
    expect(String(at(cilium.values, ['charts', 'cilium', 'ipam', 'operator', 'clusterPoolIPv4PodCIDRList']))).toMatch(/\{\{ *\.spectro/);
  });

  it('lost-customizations: conflicts keep the site value by default and every rule holds', async () => {
    lab = await start('lost-customizations');
    const { out } = await customize(lab);
    expect(out.conflicts).toBeGreaterThan(0);
    const px = pack(out, 1, 'csi-portworx-generic');
    const nameEntry = px.entries.find((e) => e.path === 'charts.portworx-generic.storageClass.name')!;
    expect(nameEntry).toMatchObject({ label: 'conflict', deployed: 'px-vm-block', newDefault: 'px-csi-replicated', decision: 'keepSite', result: 'px-vm-block' });
    expect(out.ruleFailures).toBe(0);
  });

  it("an operator's take-new-default that loses a customization is red (nothing written); the rule's fix is offered, and written only when chosen", async () => {
    lab = await start('lost-customizations');
    const name = '1/infra/csi-portworx-generic/charts.portworx-generic.storageClass.name';
    const decide = (fixes?: Record<string, unknown>): ConfirmFn => async (req) =>
      req.gate === 'customize' && req.key.endsWith('/review/1')
        ? { choice: 'skip', by: 'operator', at: new Date().toISOString(), data: { decisions: { [name]: 'takeNew' }, ...(fixes ? { fixes } : {}) } }
        : { choice: 'approve', by: 'operator', at: new Date().toISOString() };

    // Taken as decided: the draft would lose the site's class name, so the rule is a regression and blocks.
    const lost = await customize(lab, decide());
    expect(lost.step.status).toBe('failed');
    expect(lost.step.error?.code).toBe('customize.rules-red');
    const rule = lost.out.byHop[0]!.profiles.flatMap((p) => p.rules).find((r) => r.id === 'storage-class-name')!;
    expect(rule).toMatchObject({ status: 'fail', before: 'pass', verdict: 'held before the upgrade and would be lost by the draft' });
    const offer = lost.out.byHop[0]!.profiles.flatMap((p) => p.fixes).find((f) => f.rule === 'storage-class-name')!;
    expect(offer).toMatchObject({ accepted: false, items: [{ path: 'charts.portworx-generic.storageClass.name', value: 'px-vm-block' }] });
    expect(at(pack(lost.out, 1, 'csi-portworx-generic').values, ['charts', 'portworx-generic', 'storageClass', 'name'])).toBe('px-csi-replicated');
    expect(lab.audit.entries({ api: 'palette' }).filter((e) => e.method !== 'GET')).toEqual([]);
    await lab.close();

    // Chosen at the review (key f): the fix is in the draft, marked as chosen by the operator, and the rule holds.
    lab = await start('lost-customizations');
    const { out, step, state } = await customize(lab, decide({ 'storage-class-name': { by: 'operator', key: 'f' } }));
    expect(step.status).toBe('succeeded');
    const px = pack(out, 1, 'csi-portworx-generic');
    expect(px.entries.find((e) => e.label === 'conflict' && e.path.endsWith('storageClass.name'))?.decision).toBe('takeNew');
    expect(px.entries.find((e) => e.label === 'ruleFix' && e.path.endsWith('storageClass.name'))).toMatchObject({ result: 'px-vm-block' });
    expect(at(px.values, ['charts', 'portworx-generic', 'storageClass', 'name'])).toBe('px-vm-block');
    expect(out.byHop[0]!.profiles.flatMap((p) => p.fixes).find((f) => f.rule === 'storage-class-name')).toMatchObject({ accepted: true, chosenBy: { by: 'operator', key: 'f' } });
    expect(step.notes.fixes).toEqual({ 'storage-class-name': { by: 'operator', key: 'f' } });
    // The report lists the value the fix writes, and who chose it.
    expect(buildReport(state).additions).toContainEqual(expect.objectContaining({ hop: 1, pack: 'csi-portworx-generic', path: 'charts.portworx-generic.storageClass.name', value: 'px-vm-block', included: true, chosenBy: 'operator, key f' }));
  }, 90_000);

  it('`upgrade-pilot diff` prints the same, as text and as JSON', async () => {
    lab = await start('lost-customizations');
    const run = async (json: boolean) => {
      const parsed = parseCommandLine(['diff', '--params', lab!.params, '--runbook', 'runbooks/vmo-upgrade.yaml', ...(json ? ['--json'] : [])]);
      if (parsed.kind !== 'run') throw new Error('argv');
      const stdout = new PassThrough();
      let text = '';
      stdout.on('data', (d: Buffer) => (text += d.toString()));
      const code = await runDiffCommand(parsed.invocation.options, { stdout: stdout as unknown as NodeJS.WriteStream, stderr: new PassThrough() as unknown as NodeJS.WriteStream, stdin: process.stdin, env: { UPGRADE_PILOT_API_KEY: lab!.apiKey } }, builtinSteps());
      return { code, text };
    };
    const text = await run(false);
    expect(text.code).toBe(0);
    expect(text.text).toMatch(/vmo-infra \/ csi-portworx-generic \S+ → \S+ {2}\(3-way: /);
    expect(text.text).toMatch(/CONFLICT {5}charts\.portworx-generic\.storageClass\.name: px-vm-block → px-vm-block \[keep site\]/);
    expect(text.text).toMatch(/PASS rule Block StorageClass keeps its name/);
    const json = await run(true);
    const data = JSON.parse(json.text) as CustomizeOutput;
    expect(data.ruleFailures).toBe(0);
    // The JSON gives every decision and the rules, not the (long) values documents.
    const packs = data.byHop.flatMap((h) => h.profiles.flatMap((p) => p.packs));
    expect(packs.length).toBeGreaterThan(0);
    for (const p of packs) expect(Object.keys(p)).not.toContain('values');
  }, 90_000);
});
