import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { loadParams } from '../../../src/engine/load.js';
import { generateCertificate } from '../../../src/lab/cert.js';
import { startLab, type LabHandle } from '../../../src/lab/index.js';
import type { PlanOutput } from '../../../src/steps/plan/types.js';
import type { PreflightOutput } from '../../../src/steps/preflight/types.js';
import type { SnapshotOutput } from '../../../src/steps/snapshot/snapshot.js';
import { clientFor } from '../../palette/support.js';
import { kubeFor, runSteps, type StepsRun } from './support/run-steps.js';

const DAY = 24 * 3_600_000;

async function labRun(lab: LabHandle, kubeconfig = lab.kubeconfig, kinds = ['preflight', 'snapshot', 'plan'], approve: string[] = []): Promise<StepsRun> {
  const { params: site } = loadParams(lab.params);
  const palette = clientFor(lab.paletteUrl, { apiKey: lab.apiKey, projectUid: lab.projectUid, clusterCollection: site.palette.clusterCollection }).client;
  return runSteps({ site, palette, kube: kubeFor(kubeconfig, site.cluster.context), kinds, approve });
}

/** The lab's access file plus a client certificate valid for 30 days: an expiry preflight can read. */
async function withCertificate(lab: LabHandle): Promise<string> {
  const doc = parse(readFileSync(lab.kubeconfig, 'utf8')) as { users: Array<{ user: Record<string, string> }> };
  const cert = await generateCertificate({ commonName: 'lab-operator', notAfter: new Date(Date.now() + 30 * DAY) });
  doc.users[0]!.user['client-certificate-data'] = Buffer.from(cert.certPem).toString('base64');
  doc.users[0]!.user['client-key-data'] = Buffer.from(cert.keyPem).toString('base64');
  const file = join(lab.labJson.stateDir, 'kubeconfig-with-certificate');
  writeFileSync(file, stringify(doc), { mode: 0o600 });
  return file;
}

const statuses = (run: StepsRun) => Object.fromEntries((run.step('preflight').output as PreflightOutput).items.map((i) => [i.id, i.status]));

describe('against the lab: healthy', () => {
  let lab: LabHandle;
  const stateDir = mkdtempSync(join(tmpdir(), 'up6-lab-'));
  beforeAll(async () => {
    lab = await startLab({ scenario: 'healthy', stateDir, seed: 6, speed: 1 });
  });
  afterAll(async () => {
    await lab.close();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('preflight is all green, the snapshot records the nine VMs, the plan has two hops and predicts the node-local-disk VM needs a restart', async () => {
    const run = await labRun(lab, await withCertificate(lab));
    expect(run.outcome.status).toBe('done');
    expect(new Set(Object.values(statuses(run)))).toEqual(new Set(['pass']));

    const snap = run.step('snapshot').output as SnapshotOutput;
    expect(snap.baseline.deployedProfiles.map((p) => `${p.name} ${p.version}`).sort()).toEqual(['vmo-core-addon 1.4.0', 'vmo-infra 1.4.0']);
    expect(snap.counts).toMatchObject({ vms: 9, runningVmis: 8, notRunning: 1, nodes: 7, notReadyNodes: 0, nads: 2 });
    expect(snap.baseline.vms.find((v) => v.vm === 'ns-packs/build-cache-01')).toEqual({ vm: 'ns-packs/build-cache-01', runStrategy: 'Always', phase: 'Running', node: 'vmo-worker-3' });
    expect(snap.baseline.vms.find((v) => v.vm === 'ns-adv/legacy-app-01')).toMatchObject({ runStrategy: 'Halted' });
    expect(snap.baseline.nads).toEqual(['ns-edge/vlan-129', 'virtual-machines/vlan-128']);
    expect(snap.baseline.loadBalancerServices.map((s) => s.service)).toEqual(expect.arrayContaining(['ingress-nginx/ingress-nginx-controller', 'virtual-machines/web-frontend-lb']));
    expect([snap.baseline.kubevirtVersion, snap.baseline.cdiVersion]).toEqual(['v1.2.0', 'v1.58.0']);

    const plan = run.step('plan').output as PlanOutput;
    expect(plan.hops.map((h) => `${h.from}→${h.to} ${h.kubevirtVersion}`)).toEqual(['4.4.10→4.5.4 v1.3.1', '4.5.4→4.6.3 v1.4.0']);
    expect(plan.hops.map((h) => h.profiles.map((p) => `${p.role} ${p.fromVersion}→${p.toVersion}`))).toEqual([
      ['infra 1.4.0→1.5.0', 'addon 1.4.0→1.5.0'],
      ['infra 1.5.0→1.6.0', 'addon 1.5.0→1.6.0'],
    ]);
    const fate = Object.fromEntries(plan.impact.map((i) => [i.vm, i.fate]));
    expect(fate['ns-packs/build-cache-01']).toBe('restart');
    expect(fate['ns-adv/legacy-app-01']).toBe('not-running');
    expect(plan.impactCounts).toEqual({ 'live-migrate': 7, evict: 0, restart: 1, 'not-running': 1 });
    expect(plan.expectations).toMatchObject({ kubevirtVersion: 'v1.4.0', cdiVersion: 'v1.61.0' });
  });

  it("with the lab's own access file (a token that says when it expires) every panel is green", async () => {
    const run = await labRun(lab, lab.kubeconfig, ['preflight']);
    const items = (run.step('preflight').output as PreflightOutput).items;
    expect(items.filter((i) => i.status !== 'pass').map((i) => [i.id, i.status])).toEqual([]);
    expect(items.find((i) => i.id === 'access-freshness')!.summary).toMatch(/^Valid for (24h00m|23h\d\dm) \(until \S+Z\), longer than the planned window of 4h00m\.$/);
  });
});

describe('against the lab: degraded', () => {
  it('preflight names the NotReady node, the degraded storage, the crash-looping pod and the stray address (red, passed at the health gate); the plan has one hop', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'up6-lab-'));
    const lab = await startLab({ scenario: 'degraded', stateDir, seed: 6, speed: 1 });
    try {
      const run = await labRun(lab, await withCertificate(lab), undefined, ['health']);
      expect(run.outcome.status).toBe('done');
      const out = run.step('preflight').output as PreflightOutput;
      expect(out.items.filter((i) => i.status !== 'pass').map((i) => [i.id, i.status, i.failure])).toEqual([
        ['nodes', 'fail', 'health'],
        ['storage', 'fail', 'health'],
        ['pods', 'fail', 'health'],
        ['addresses', 'fail', 'health'],
      ]);
      expect(out.items.find((i) => i.id === 'nodes')!.lines[0]).toMatch(/^node vmo-worker-2: NotReady \(Ready Unknown, NodeStatusUnknown/);
      expect(out.items.find((i) => i.id === 'storage')!.summary).toBe('storage cluster portworx/px-cluster (StorageCluster): phase Degraded; RuntimeState Degraded (1 storage node(s) offline (vmo-worker-2)).');
      expect(out.items.find((i) => i.id === 'pods')!.lines[0]).toMatch(/^pod monitoring\/prometheus-operator-kube-state-metrics-\S+ on vmo-worker-\d: CrashLoopBackOff \(restarts \d+\)$/);
      expect(out.items.find((i) => i.id === 'addresses')!.summary).toMatch(/^service monitoring\/grafana-external holds load-balancer address 10\.10\.100\.50/);
      expect(out.health?.map((f) => f.key)).toContain('node:vmo-worker-2:not-ready');
      const plan = run.step('plan').output as PlanOutput;
      expect(plan.hops.map((h) => `${h.from}→${h.to}`)).toEqual(['4.5.4→4.6.3']);
      expect((run.step('snapshot').output as SnapshotOutput).baseline.nodes.notReady).toEqual(['vmo-worker-2']);
    } finally {
      await lab.close();
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
});
