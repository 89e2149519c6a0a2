/**
 * The health gate end to end: the `degraded` lab (a NotReady node, Portworx Degraded, a
 * crash-looping pod, a leaked load-balancer address), plain mode, every other gate approved.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, serveLab, type ServedLab } from './support.js';

describe('degraded, plain mode, every gate but health approved', () => {
  let lab: ServedLab;
  beforeAll(async () => {
    lab = await serveLab('degraded', 300, 'palette');
  }, 90_000);
  afterAll(() => lab?.stop());

  it('stops before its first write (exit 3) naming the four facts; with --approve health it goes on, and the apply gate restates what still holds', async () => {
    const state = mkdtempSync(join(tmpdir(), 'up-e2e-state-'));
    const env = { UPGRADE_PILOT_API_KEY: lab.json.apiKey };
    const facts = [/node vmo-worker-2: NotReady/, /storage cluster portworx\/px-cluster \(StorageCluster\): phase Degraded/, /pod monitoring\/prometheus-operator-kube-state-metrics-\S+ on \S+: CrashLoopBackOff/, /service monitoring\/grafana-external holds load-balancer address 10\.10\.100\.50/];

    const first = await cli(['start', '--params', lab.json.params, '--state-dir', state, '--approve', 'draft,publish,repave,cancel-migrations', '--approve-all-restarts'], env);
    expect(first.code, first.stdout + first.stderr).toBe(3);
    expect(first.stdout).toMatch(/GATE: vmo-prod-east is not healthy: upgrade it anyway\?/);
    for (const fact of facts) expect(first.stdout).toMatch(fact);
    expect(first.stderr).toMatch(/--approve health/);
    expect((await lab.audit()).filter((e) => e.method !== 'GET')).toEqual([]);

    const second = await cli(['resume', '--state-dir', state, '--approve', 'health,draft,publish,repave,cancel-migrations', '--approve-all-restarts'], env);
    expect(second.code, second.stdout + second.stderr).toBe(3);
    expect(second.stdout).toMatch(/decision: approve \(flag --approve health\)/);
    const applyGate = second.stdout.slice(second.stdout.indexOf('GATE: Apply'));
    for (const fact of facts) expect(applyGate).toMatch(new RegExp(`WARNING: Not healthy \\(read just now\\): .*${fact.source}`));
    expect(second.stderr).toMatch(/--approve apply/);
  }, 300_000);
});
