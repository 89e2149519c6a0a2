/**
 * End to end on a served fleet lab whose shared add-on profile holds the ingress address as the
 * profile variable INGRESS_IP (`lab --serve --fleet 2 --fleet-variables`, each cluster its own
 * value): store-002's own session (plain `plan` and `diff`, then `start` with every gate approved, the real CLI
 * and the real kubectl) judges the ingress rule on the cluster's value of the variable, publishes a
 * new version that still holds the reference (never store-002's address, which store-001 would then
 * get), and the apply carries store-002's value to the new version uid, where its world renders it:
 * the verification's network panel finds the ingress at store-002's own address.
 */
import { readdirSync, readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveAll, cli } from '../e2e/support.js';
import { serveFleetLab, type ServedFleetLab } from './support.js';

interface FleetDoc {
  target: string;
  defaults: Record<string, unknown> & { site: Record<string, unknown>; profiles: { addon: { uid: string } } };
  clusters: Array<{ name: string; uid: string; kubeconfig: string; context: string; site: Record<string, unknown> }>;
}

describe('a cluster whose shared add-on profile holds its ingress address as a profile variable upgrades', () => {
  let lab: ServedFleetLab;
  let params: string;
  let env: NodeJS.ProcessEnv;
  let doc: FleetDoc;
  const store002 = () => doc.clusters.find((c) => c.name === 'store-002')!;

  beforeAll(async () => {
    lab = await serveFleetLab(2, [], 300, ['--fleet-variables']);
    env = { UPGRADE_PILOT_API_KEY: lab.json.apiKey };
    doc = parse(readFileSync(lab.json.fleet, 'utf8')) as FleetDoc;
    // store-002's params as the fleet makes them: the defaults with its own values on top.
    const { references: _r, ...defaults } = doc.defaults;
    const c = store002();
    params = join(lab.dir, 'store-002.yaml');
    writeFileSync(params, stringify({ ...defaults, cluster: { uid: c.uid, name: c.name, kubeconfig: c.kubeconfig, context: c.context }, target: doc.target, site: { ...doc.defaults.site, ...c.site } }));
  }, 180_000);
  afterAll(async () => {
    await lab?.stop();
  });

  it('plan and diff judge the ingress rule on the cluster\'s value of the variable and carry the reference', async () => {
    expect(store002().site.ingressIP).toBe('10.10.100.71');
    const plan = await cli(['plan', '--params', params], env);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('vmo-core-addon: via profile variable INGRESS_IP (this cluster: 10.10.100.71), at nginx `charts.ingress-nginx.controller.service.loadBalancerIP`');
    const diff = await cli(['diff', '--params', params], env);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toContain('PASS rule Ingress controller keeps its fixed address: nginx (draft): via profile variable INGRESS_IP (this cluster: 10.10.100.71)');
    expect(diff.stdout).toMatch(/carried +charts\.ingress-nginx\.controller\.service\.loadBalancerIP: \{\{\.spectro\.var\.INGRESS_IP\}\} → \{\{\.spectro\.var\.INGRESS_IP\}\}/);
    expect(diff.stdout).not.toContain('FIX OFFERED ingress-fixed-address');
  });

  it('start: the new version keeps the reference, the apply carries the cluster\'s value, and the cluster verifies at its own address', async () => {
    const state = mkdtempSync(join(tmpdir(), 'up-fleet-vars-state-'));
    const run = await cli(['start', '--params', params, '--state-dir', state, ...approveAll], env, 600_000);
    expect(run.stdout).toContain("The apply carries this cluster's values of vmo-core-addon's profile variables to the new version (Palette keeps a cluster's values per version): INGRESS_IP = 10.10.100.71.");
    expect(run.code).toBe(0);

    // What store-002 runs now: a new add-on version, whose nginx values still hold the reference.
    const uid = store002().uid;
    const cluster = await lab.get<{ spec: { clusterProfileTemplates: Array<{ uid: string; name: string }> } }>(`/v1/spectroclusters/${uid}`);
    const now = cluster.spec.clusterProfileTemplates.find((t) => t.name === 'vmo-core-addon')!.uid;
    expect(now).not.toBe(doc.defaults.profiles.addon.uid);
    const version = await lab.get<{ spec: { published: { packs: Array<{ name: string; values: string }> } } }>(`/v1/clusterprofiles/${now}`);
    const nginx = version.spec.published.packs.find((p) => p.name === 'nginx')!.values;
    expect(nginx).toMatch(/loadBalancerIP: '?\{\{\.spectro\.var\.INGRESS_IP\}\}'?/);
    expect(nginx).not.toContain('10.10.100.71');
    // The value the apply sent, kept under the new version's uid.
    const variables = await lab.get<Array<{ profileUid: string; variables: Array<{ name: string; value?: string }> }>>(`/v1/spectroclusters/${uid}/variables`);
    expect(variables.find((v) => v.profileUid === now)?.variables).toMatchObject([{ name: 'INGRESS_IP', value: '10.10.100.71' }]);
    // One apply to store-002, none to store-001.
    const changes = (await lab.audit()).filter((e) => e.api === 'palette' && e.method === 'PATCH' && e.path.endsWith('/profiles'));
    expect(changes.map((e) => e.path)).toEqual([`/v1/spectroclusters/${uid}/profiles`]);

    // The session's report: the rule judged through the variable, and the network panel green at the cluster's own address.
    const sessions = join(state, 'sessions');
    const report = readFileSync(join(sessions, readdirSync(sessions)[0]!, 'report.md'), 'utf8');
    expect(report).toContain('Ingress controller keeps its fixed address | PASS | nginx (draft): via profile variable INGRESS_IP (this cluster: 10.10.100.71)');
    expect(report).toMatch(/ingress at 10\.10\.100\.71/);
  }, 600_000);
});
