import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../../src/errors.js';
import { FRESH_ACCESS_HINT } from '../../../src/kube/errors.js';
import type { PreflightItem, PreflightOutput } from '../../../src/steps/preflight/types.js';
import { API_KEY } from '../../lab/palette/support.js';
import { clientFor } from '../../palette/support.js';
import { degrade, seedHealthyCluster } from '../plan/support/cluster-seed.js';
import { node } from '../../lab/kube/seed.js';
import { findStep } from '../../../src/engine/state.js';
import { noApprovals } from '../../../src/engine/approval-policy.js';
import { policyConfirm } from '../../support/engine-harness.js';
import { startDoubles, type Doubles } from '../plan/support/doubles.js';
import { kubeFor, runSteps, type StepsRun } from '../plan/support/run-steps.js';
import { HOUR, kubeconfigWithCertificate } from './support.js';

const byId = (run: StepsRun) => {
  const out = (run.step('preflight').output ?? run.step('preflight').live) as PreflightOutput;
  return Object.fromEntries(out.items.map((i) => [i.id, i])) as Record<string, PreflightItem>;
};
const statuses = (run: StepsRun) => Object.fromEntries(Object.values(byId(run)).map((i) => [i.id, i.status]));
const allGreen = {
  'profile-api': 'pass',
  profiles: 'pass',
  flavor: 'pass',
  cluster: 'pass',
  kubectl: 'pass',
  'cluster-api': 'pass',
  'access-freshness': 'pass',
  'kubevirt-cdi': 'pass',
  migrations: 'pass',
  'outdated-vmis': 'pass',
  nodes: 'pass',
  storage: 'pass',
  pods: 'pass',
  addresses: 'pass',
};

describe('preflight against the doubles', () => {
  let d: Doubles;
  beforeAll(async () => {
    d = await startDoubles({ seed: seedHealthyCluster });
  });
  afterAll(() => d.close());

  it('is all green on a healthy setup whose access file says when it expires', async () => {
    const file = await kubeconfigWithCertificate(d.kube, 'fresh', 30 * 24 * HOUR);
    const run = await runSteps({ site: d.site, palette: d.palette, kube: kubeFor(file, 'lab'), kinds: ['preflight'] });
    expect(statuses(run)).toEqual(allGreen);
    expect(run.outcome.status).toBe('done');
    const out = run.step('preflight').output as PreflightOutput;
    expect(out.overall).toBe('pass');
    expect(out.kubectlVersion).toMatch(/^v1\.\d+/);
    expect(byId(run).kubectl!.summary).toBe(`kubectl ${out.kubectlVersion}.`);
    expect(byId(run)['access-freshness']!.summary).toMatch(/^Valid for (24h00m|23h\d\dm) \(until \S+Z\), longer than the planned window of 4h00m\.$/);
    expect(byId(run).cluster!.summary).toMatch(/vmo-test runs vmo-core-addon 1\.4\.0, vmo-infra 1\.4\.0; virtual-machine-orchestrator 4\.4\.10\./);
    expect(run.step('preflight').summary).toBe("14 green, 0 red, 0 amber; profile API: the spec's service");
  });

  it('records the flavor it decided on the first profile read; a resumed session keeps it', async () => {
    const file = await kubeconfigWithCertificate(d.kube, 'flavor', 30 * 24 * HOUR);
    const run = await runSteps({ site: d.site, palette: d.palette, kube: kubeFor(file, 'lab'), kinds: ['preflight'] });
    const out = run.step('preflight').output as PreflightOutput;
    expect(out.flavor).toEqual({ flavor: 'spec', source: 'detected', evidence: "the profile read shows spec.template (the spec's service)" });
    expect(byId(run).flavor).toMatchObject({ status: 'pass', summary: "the spec's profile service: a published profile reaches its clusters by itself" });
    // Resumed with a client that would answer otherwise (the params now say palette): the journal wins.
    const other = clientFor(d.paletteUrl, { flavor: 'palette', probeUid: d.site.profiles.addon.uid }).client;
    const resumed = await run.resume({ palette: other });
    expect(resumed.outcome.status).toBe('done');
    expect((await other.flavor()).flavor).toBe('spec');
  });

  it('is amber, saying why, when the access file holds only an opaque token', async () => {
    const opaque = await startDoubles({ seed: seedHealthyCluster, tokenStyle: 'opaque' });
    const run = await runSteps({ site: opaque.site, palette: opaque.palette, kube: kubeFor(opaque.kube.kubeconfig, 'lab'), kinds: ['preflight'] });
    await opaque.close();
    expect(statuses(run)).toEqual({ ...allGreen, 'access-freshness': 'warn' });
    expect(byId(run)['access-freshness']!.summary).toBe(
      'Cannot tell when the access file stops working: the bearer token: it is an opaque token: when it expires is known only to the server that issued it.',
    );
    expect(run.outcome.status).toBe('done'); // amber warns, it does not stop
  });

  it('is red with the fresh-file advice when the client certificate expires within the window', async () => {
    const file = await kubeconfigWithCertificate(d.kube, 'soon', HOUR);
    const run = await runSteps({ site: d.site, palette: d.palette, kube: kubeFor(file, 'lab'), kinds: ['preflight'] });
    expect(statuses(run)).toEqual({ ...allGreen, 'access-freshness': 'fail' });
    const item = byId(run)['access-freshness']!;
    expect(item.summary).toMatch(/^The client certificate \(CN=operator\) from client-certificate-data expires at \S+, in (59m\d\ds|1h00m): before the planned window of 4h00m ends\.$/);
    expect(item.hint).toBe(FRESH_ACCESS_HINT);
    expect(item.lines).toContain(`file ${file}, context lab, user operator`);
    expect(run.outcome.status).toBe('failed');
    expect(exitCodeOf((run.outcome as { error: unknown }).error)).toBe(4);
    expect(run.step('preflight').error?.hint).toBe(FRESH_ACCESS_HINT);
  });

  it('a longer window turns a certificate valid for a day red too', async () => {
    const file = await kubeconfigWithCertificate(d.kube, 'day', 24 * HOUR);
    const run = await runSteps({ site: { ...d.site, window: 36 * HOUR }, palette: d.palette, kube: kubeFor(file, 'lab'), kinds: ['preflight'] });
    expect(byId(run)['access-freshness']!.summary).toMatch(/before the planned window of 36h00m ends/);
  });

  it.each([
    ['unreachable', () => clientFor('http://127.0.0.1:9', {}).client, /Cannot reach the profile API at http:\/\/127\.0\.0\.1:9/],
    ['refusing the key', () => clientFor(d.paletteUrl, { apiKey: `${API_KEY}-revoked` }).client, /did not accept the API key \(401 Unauthorized\)/],
    ['refusing the project', () => clientFor(d.paletteUrl, { projectUid: 'project-other' }).client, /has no access to project project-other \(403 Forbidden\)/],
  ])('exits 4 when the profile API is %s, and still shows the cluster panels', async (_what, client, message) => {
    const file = await kubeconfigWithCertificate(d.kube, 'fresh-2', 30 * 24 * HOUR);
    const run = await runSteps({ site: d.site, palette: client(), kube: kubeFor(file, 'lab'), kinds: ['preflight'] });
    expect(statuses(run)).toEqual({ ...allGreen, 'profile-api': 'fail', profiles: 'unknown', flavor: 'unknown', cluster: 'unknown' });
    expect(byId(run)['profile-api']!.summary).toMatch(message);
    expect(byId(run)['profile-api']!.failure).toBe('environment');
    expect(exitCodeOf((run.outcome as { error: unknown }).error)).toBe(4);
    expect(JSON.stringify(run.state)).not.toContain(API_KEY);
  });

  it('is red (exit 2: bad input, not 4) when a profile uid in the params is wrong', async () => {
    const site = { ...d.site, profiles: { ...d.site.profiles, infra: { uid: 'no-such-profile' } } };
    const file = await kubeconfigWithCertificate(d.kube, 'fresh-3', 30 * 24 * HOUR);
    const run = await runSteps({ site, palette: d.palette, kube: kubeFor(file, 'lab'), kinds: ['preflight'] });
    expect(byId(run).profiles!.status).toBe('fail');
    expect(byId(run).profiles!.failure).toBe('input');
    expect(exitCodeOf((run.outcome as { error: unknown }).error)).toBe(2);
  });
});

describe('preflight against the doubles when things are wrong', () => {
  it('is red with the fresh-file advice when the cluster answers 401 (the token expired)', async () => {
    const d = await startDoubles({ seed: seedHealthyCluster });
    try {
      d.kube.server.expireToken();
      const run = await runSteps({ site: d.site, palette: d.palette, kube: kubeFor(d.kube.kubeconfig, 'lab'), kinds: ['preflight'] });
      const items = byId(run);
      expect(items['cluster-api']!.status).toBe('fail');
      expect(items['cluster-api']!.summary).toMatch(/refused the credentials/);
      expect(items['cluster-api']!.hint).toBe(FRESH_ACCESS_HINT);
      expect(items['access-freshness']).toMatchObject({ status: 'fail', hint: FRESH_ACCESS_HINT, failure: 'environment' });
      expect(items['access-freshness']!.summary).toMatch(/401 Unauthorized/);
      for (const id of ['kubevirt-cdi', 'migrations', 'outdated-vmis', 'nodes', 'storage']) expect(items[id]!.status).toBe('unknown');
      expect(items['profile-api']!.status).toBe('pass');
      expect(exitCodeOf((run.outcome as { error: unknown }).error)).toBe(4);
      expect(run.step('preflight').error?.hint).toMatch(/Obtain a fresh cluster access file/);
    } finally {
      await d.close();
    }
  });

  it('asks the health gate on a NotReady node (red, named), and shows a failed migration and an outdated VMI amber', async () => {
    const d = await startDoubles({
      seed: (s) => {
        seedHealthyCluster(s);
        degrade(s);
      },
    });
    try {
      const file = await kubeconfigWithCertificate(d.kube, 'fresh', 30 * 24 * HOUR);
      const stopped = await runSteps({ site: d.site, palette: d.palette, kube: kubeFor(file, 'lab'), kinds: ['preflight', 'snapshot'] });
      // Without `--approve health` the run stops at the gate (exit 3), before the snapshot or any write.
      expect(stopped.outcome.status).toBe('awaitingApproval');
      expect(exitCodeOf((stopped.outcome as { error: unknown }).error)).toBe(3);
      expect(stopped.step('snapshot').status).toBe('pending');
      expect(stopped.step('preflight').gate).toMatchObject({ gate: 'health', confirmText: 'vmo-test', items: ['Nodes: node node-3: NotReady (Ready False, KubeletReady)'] });

      const run = await runSteps({ site: d.site, palette: d.palette, kube: kubeFor(file, 'lab'), kinds: ['preflight', 'snapshot'], approve: ['health'] });
      expect(statuses(run)).toEqual({ ...allGreen, nodes: 'fail', migrations: 'warn', 'outdated-vmis': 'warn' });
      const items = byId(run);
      expect(items.nodes).toMatchObject({ failure: 'health', summary: 'node node-3: NotReady (Ready False, KubeletReady).' });
      expect(items.migrations!.lines).toEqual(['vms/kubevirt-workload-update-x1 of web-02: Failed: client socket is closed']);
      expect(items['outdated-vmis']!.lines).toEqual(['vms/db-01']);
      expect(items['outdated-vmis']!.hint).toMatch(/two versions behind/);
      expect(run.outcome.status).toBe('done');
      expect((run.step('preflight').output as PreflightOutput).health?.map((f) => f.key)).toEqual(['node:node-3:not-ready']);
      expect(run.step('preflight').summary).toBe("11 green, 1 red, 2 amber; profile API: the spec's service");

      // A resume reads the health again: a fact the operator did not go on with is drift, named.
      d.kube.store.upsert('nodes', node('node-2', { ready: false, ip: '10.10.0.2' }));
      const resumed = await run.resume({ confirm: policyConfirm(noApprovals) });
      expect(resumed.outcome.status).toBe('awaitingApproval');
      const drift = findStep(resumed.state, 'snapshot')?.drift;
      expect(drift?.findings).toEqual(['not healthy now: node node-2: NotReady (Ready False, KubeletReady)']);
    } finally {
      await d.close();
    }
  });
});
