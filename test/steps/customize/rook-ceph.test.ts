/**
 * Rules per pack kind on a site that runs Rook-Ceph and no ingress or monitoring pack (the lab's
 * `rook-ceph` scenario): the rules that apply hold, the others are listed as not applicable with
 * the reason and block nothing; a Rook-Ceph setting the site does not have is amber and blocks
 * nothing, unless a runbook marks its rule `required`: then it is red and the run stops before any
 * draft is written.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledRunbook } from '../../../src/engine/load.js';
import { findStep } from '../../../src/engine/state.js';
import { deleteValue, parseValues, printValues } from '../../../src/lab/data/yaml-edit.js';
import { startLab, type LabHandle } from '../../../src/lab/index.js';
import type { CustomizeOutput } from '../../../src/steps/customize/types.js';
import { labRun } from '../../support/lab-harness.js';
import { runCommand } from '../plan/support/commands.js';

let lab: LabHandle;
const dir = mkdtempSync(join(tmpdir(), 'up16-rook-'));

beforeAll(async () => {
  lab = await startLab({ scenario: 'rook-ceph', stateDir: join(dir, 'lab'), seed: 16, speed: 60 });
});
afterAll(async () => {
  await lab?.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = () => ({ UPGRADE_PILOT_API_KEY: lab.apiKey });
const ruleLines = (text: string) => [...new Set(text.split('\n').filter((l) => /^ {2}(PASS|FAIL|WARN|N\/A) +rule /.test(l)))];

describe('a Rook-Ceph site without ingress or monitoring packs', () => {
  it('diff exits 0: the applicable rules hold on Rook-Ceph, the others are not applicable, with the reason', async () => {
    const r = await runCommand('diff', ['--params', lab.params], env());
    expect(r.code, r.error).toBe(0);
    const lines = ruleLines(r.stdout);
    expect(lines.filter((l) => l.includes('FAIL'))).toEqual([]);
    expect(lines.filter((l) => l.startsWith('  N/A'))).toEqual([
      "  N/A  rule Volume-claim controller uses the site's ports: Rook-Ceph runs no volume-claim controller of its own, so it has no such ports",
      '  N/A  rule No storage license activation: Rook-Ceph has no licence to activate',
      '  N/A  rule Ingress controller keeps its fixed address: the site runs no ingress controller pack (packs.ingress: none)',
      '  N/A  rule Monitoring operator carries the self-signed issuer: the site runs no monitoring operator pack (packs.monitoring: none)',
    ]);
    for (const title of ['Block StorageClass keeps its name', 'Block StorageClass keeps its custom parameters', 'Block StorageClass is the default class for VMs', 'Storage runs on the chosen nodes', 'Storage may run on control-plane nodes']) {
      expect(lines.find((l) => l.includes(`rule ${title}:`))).toMatch(/^ {2}PASS rule .*: csi-rook-ceph-helm \(draft\): /);
    }
  }, 60_000);

  it('a Rook-Ceph setting the deployed profile lacks is amber, not red (diff exits 0); a runbook that marks the rule required stops the run before any draft', async () => {
    // The deployed profile has no storage placement: the site never had it, so no draft can lose it.
    const infra = lab.profiles.get(lab.profileUids.infra)!;
    const rook = infra.published!.packs.find((p) => p.name === 'csi-rook-ceph-helm')!;
    const before = rook.values;
    const doc = parseValues(before);
    deleteValue(doc, ['charts', 'rook-ceph-cluster', 'cephClusterSpec', 'placement', 'all', 'nodeAffinity']);
    rook.values = printValues(doc, before);
    try {
      const r = await runCommand('diff', ['--params', lab.params], env());
      expect(r.code, r.error).toBe(0);
      const lines = ruleLines(r.stdout);
      expect(lines.filter((l) => l.includes('FAIL'))).toEqual([]);
      expect(lines.filter((l) => l.startsWith('  WARN'))).toEqual([
        '  WARN rule Storage runs on the chosen nodes: csi-rook-ceph-helm (draft): not on this site before the upgrade (left as it is): `charts.rook-ceph-cluster.cephClusterSpec.placement.all.nodeAffinity` is not set',
      ]);

      // The same rule with `required: true` in a runbook of the site's own: red, and nothing is written.
      const text = readFileSync(bundledRunbook(), 'utf8').replace('    reason: Controls which nodes run storage\n', '    reason: Controls which nodes run storage\n    required: true\n');
      expect(text).toContain('required: true');
      const custom = join(dir, 'required.yaml');
      writeFileSync(custom, text);
      const run = labRun(lab, custom);
      const outcome = await run.runner({ approvals: { gates: ['draft', 'publish'], restarts: [], allRestarts: true, skipRestarts: [] } }).run();
      expect(outcome.status).toBe('failed');
      const customize = findStep(run.store.load(run.id), 'customize')!;
      expect(customize.status).toBe('failed');
      expect(customize.error?.code).toBe('customize.rules-red');
      const red = (customize.output as CustomizeOutput).byHop.flatMap((h) => h.profiles.flatMap((p) => p.rules)).filter((x) => x.status === 'fail');
      expect(red.map((x) => x.id)).toEqual(['storage-node-affinity', 'storage-node-affinity']);
      expect(red[0]!.verdict).toBe('not on this site before the upgrade, and the runbook requires it');
      expect((customize.output as CustomizeOutput).byHop.flatMap((h) => h.profiles.flatMap((p) => p.rules)).filter((x) => x.status === 'notApplicable')).toHaveLength(8);
      expect(lab.audit.entries({ api: 'palette' }).filter((e) => e.method !== 'GET')).toEqual([]);
    } finally {
      rook.values = before;
    }
  }, 120_000);
});
