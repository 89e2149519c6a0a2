import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { bundledRunbook } from '../../../src/engine/load.js';
import type { LabHandle } from '../../../src/lab/index.js';
import { diagnoseStep, migrationsStep, recoverStep } from '../../../src/steps/migrations/index.js';
import type { DiagnoseOutput } from '../../../src/steps/migrations/diagnose-types.js';
import { runningVmis, startScenario } from './support/lab.js';
import { migrationRun, runbookYaml, simClock } from './support/run.js';

let lab: LabHandle | undefined;
afterEach(async () => {
  await lab?.close();
  lab = undefined;
});

const bundledText = () => readFileSync(bundledRunbook(), 'utf8');

describe('the bundled runbook with these step kinds', () => {
  it('its migrations, diagnose and recover steps validate against the kinds’ parameters', () => {
    // Read as plain YAML: the steps of these kinds, wherever they sit (top level, hop steps, ifEmpty).
    type Spec = { kind?: string; with?: unknown; steps?: Spec[]; ifEmpty?: Spec[] };
    const all = (specs: Spec[]): Spec[] => specs.flatMap((s) => [s, ...all(s.steps ?? []), ...all(s.ifEmpty ?? [])]);
    const kinds = new Map([migrationsStep, diagnoseStep, recoverStep].map((k) => [k.kind, k]));
    const ours = all((parse(bundledText()) as { steps: Spec[] }).steps).filter((s) => s.kind && kinds.has(s.kind));
    expect(ours.map((s) => s.kind)).toEqual(['migrations', 'diagnose', 'recover', 'migrations', 'diagnose', 'recover']);
    for (const s of ours) expect(() => kinds.get(s.kind!)!.params.parse(s.with ?? {})).not.toThrow();
  });

  it('its known-issue signatures find the three skipped-minor symptoms in the lab', async () => {
    lab = await startScenario('skip-minor', 300);
    const knownIssues = stringify({ knownIssues: (parse(bundledText()) as { knownIssues: unknown }).knownIssues });
    const steps = `  - { id: snapshot, kind: snapshot, with: { runningVmis: ${JSON.stringify(runningVmis(lab))} } }
  - { id: migrations, kind: migrations }
  - { id: diagnose, kind: diagnose }`;
    const run = migrationRun(lab.kubeconfig, runbookYaml(steps, knownIssues), { clock: simClock(lab.clock) });
    expect((await run.run()).status).toBe('done');
    const out = run.step('diagnose').output as DiagnoseOutput;
    expect(out.findings).toHaveLength(1);
    expect(out.findings[0]!.signatures.map((s) => [s.id, s.matches > 0])).toEqual([
      ['closed-socket', true],
      ['dirty-rate-unimplemented', true],
      ['network-cache-missing', true],
    ]);
    expect(out.unknown).toEqual([]);
  });
});
