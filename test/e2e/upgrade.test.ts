import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { ReportData } from '../../src/report/model.js';
import { approveAll, cli, serveLab, type ServedLab } from './support.js';

let lab: ServedLab | undefined;
afterEach(async () => {
  await lab?.stop();
  lab = undefined;
});

function report(stateDir: string): { md: string; data: ReportData } {
  const sessions = join(stateDir, 'sessions');
  const dir = join(sessions, readdirSync(sessions).sort().at(-1)!);
  return { md: readFileSync(join(dir, 'report.md'), 'utf8'), data: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as ReportData };
}

const applied = (audit: Awaited<ReturnType<ServedLab['audit']>>, method: string, api = 'palette') => audit.filter((e) => e.api === api && e.method === method && e.effect === 'applied');

describe('end to end against `lab --serve`', () => {
  it('healthy: two hops without a TTY, exit 0, all green, the report written, one draft and one publish per profile per hop', async () => {
    lab = await serveLab('healthy');
    const state = mkdtempSync(join(tmpdir(), 'up-e2e-state-'));
    const run = await cli(['start', '--params', lab.json.params, '--state-dir', state, ...approveAll], { UPGRADE_PILOT_API_KEY: lab.json.apiKey });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/✔ done/);
    const { data, md } = report(state);
    expect(data.outcome.status).toBe('done');
    expect(data.verification?.results.map((r) => r.status)).toEqual(['pass', 'pass', 'pass', 'pass', 'pass', 'pass']);
    expect(data.hops.map((h) => `${h.from}→${h.to}`)).toEqual(['4.4.10→4.5.4', '4.5.4→4.6.3']);
    const audit = await lab.audit();
    const { addon, infra } = lab.json.profileUids;
    // Per profile: one PUT and one publish in each of the two hops.
    for (const uid of [addon, infra]) {
      expect(applied(audit, 'PUT').filter((e) => e.path === `/v1/clusterprofiles/${uid}`)).toHaveLength(2);
      expect(applied(audit, 'PATCH').filter((e) => e.path === `/v1/clusterprofiles/${uid}/publish`)).toHaveLength(2);
    }
    expect(applied(audit, 'PUT')).toHaveLength(4);
    expect(applied(audit, 'PATCH')).toHaveLength(4);
    // Only the VM that cannot live-migrate was restarted, once per hop.
    expect(applied(audit, 'PUT', 'kube').map((e) => e.path)).toEqual([
      '/apis/subresources.kubevirt.io/v1/namespaces/ns-packs/virtualmachines/build-cache-01/restart',
      '/apis/subresources.kubevirt.io/v1/namespaces/ns-packs/virtualmachines/build-cache-01/restart',
    ]);
    expect(data.restarts).toEqual({ restarted: ['ns-packs/build-cache-01'], outstanding: [] });
    expect(md).toMatch(/## Changes sent/);
  }, 240_000);

  it('healthy on a real Palette: stops at the apply gate (exit 3) with the versions published and the cluster unchanged; resumed with --approve apply it ends green, one clone, PUT and publish per profile per hop, one apply per hop', async () => {
    const l = await serveLab('healthy', 300, 'palette');
    lab = l;
    const state = mkdtempSync(join(tmpdir(), 'up-e2e-state-'));
    const env = { UPGRADE_PILOT_API_KEY: l.json.apiKey };
    const first = await cli(['start', '--params', l.json.params, '--state-dir', state, '--approve', 'draft,publish,cancel-migrations', '--approve-all-restarts'], env);
    expect(first.code, first.stdout + first.stderr).toBe(3);
    expect(first.stdout).toMatch(/GATE apply: Apply vmo-infra 1\.5\.0 and vmo-core-addon 1\.5\.0 to vmo-prod-east/);
    expect(first.stderr).toMatch(/--approve apply/);
    const cluster = async () => (await (await l.api(`/v1/spectroclusters/${l.json.clusterUid}`)).json()) as { spec: { clusterProfileTemplates: Array<{ uid: string; name: string; profileVersion: string }> } };
    expect((await cluster()).spec.clusterProfileTemplates.map((t) => `${t.name} ${t.profileVersion} ${t.uid}`)).toEqual([`vmo-infra 1.4.0 ${l.json.profileUids.infra}`, `vmo-core-addon 1.4.0 ${l.json.profileUids.addon}`]);
    let audit = await l.audit();
    expect(applied(audit, 'PATCH').filter((e) => e.path.endsWith('/publish'))).toHaveLength(2);
    expect(applied(audit, 'PATCH').filter((e) => e.path.includes('/spectroclusters/'))).toEqual([]);

    const second = await cli(['resume', '--state-dir', state, ...approveAll], env);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    const { data } = report(state);
    expect(data.outcome.status).toBe('done');
    expect(data.verification?.results.map((r) => r.status)).toEqual(['pass', 'pass', 'pass', 'pass', 'pass', 'pass']);
    audit = await l.audit();
    const clones = applied(audit, 'POST');
    expect(clones).toHaveLength(4);
    for (const clone of clones) {
      const uid = /\(([0-9a-f]+)\)$/.exec(clone.note ?? '')![1]!;
      expect(applied(audit, 'PUT').filter((e) => e.path === `/v1/clusterprofiles/${uid}`)).toHaveLength(1);
      expect(applied(audit, 'PATCH').filter((e) => e.path === `/v1/clusterprofiles/${uid}/publish`)).toHaveLength(1);
    }
    expect(applied(audit, 'PUT')).toHaveLength(4);
    expect(applied(audit, 'PUT').filter((e) => /renames/.test(e.note ?? ''))).toEqual([]);
    const applies = applied(audit, 'PATCH').filter((e) => e.path === `/v1/spectroclusters/${l.json.clusterUid}/profiles`);
    expect(applies.map((e) => e.note)).toEqual([expect.stringMatching(/^apply: vmo-infra 1\.5\.0 replaces 1\.4\.0 .*vmo-core-addon 1\.5\.0 replaces 1\.4\.0/), expect.stringMatching(/^apply: vmo-infra 1\.6\.0 replaces 1\.5\.0/)]);
    // The versions the cluster ran are still there, untouched: the way back.
    for (const uid of [l.json.profileUids.addon, l.json.profileUids.infra]) {
      const doc = (await (await l.api(`/v1/clusterprofiles/${uid}`)).json()) as { spec: { published: { profileVersion: string } } };
      expect(doc.spec.published.profileVersion).toBe('1.4.0');
    }
    expect((await cluster()).spec.clusterProfileTemplates.map((t) => `${t.name} ${t.profileVersion}`)).toEqual(['vmo-infra 1.6.0', 'vmo-core-addon 1.6.0']);
  }, 360_000);

  it('skip-minor: diagnosis, approved restarts, exit 0 at the end; the report lists the restarts', async () => {
    lab = await serveLab('skip-minor');
    const state = mkdtempSync(join(tmpdir(), 'up-e2e-state-'));
    const run = await cli(['start', '--params', lab.json.params, '--state-dir', state, ...approveAll], { UPGRADE_PILOT_API_KEY: lab.json.apiKey });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Known issue: Launcher incompatible after a skipped minor \(3 of 3 symptom\(s\) found\)/);
    const { data, md } = report(state);
    expect(data.hops).toEqual([]);
    expect(data.restarts.restarted).toHaveLength(8);
    expect(data.restarts.outstanding).toEqual([]);
    expect(md).toMatch(/Restarted \(8\): /);
    expect(data.verification?.overall).toBe('pass');
    // Nothing was published: the pack was already at the target.
    expect((await lab.audit()).filter((e) => e.api === 'palette' && e.method !== 'GET')).toEqual([]);
  }, 240_000);

  it('lost-customizations: the published profiles hold the site values, and no service holds an address it should not', async () => {
    lab = await serveLab('lost-customizations');
    const state = mkdtempSync(join(tmpdir(), 'up-e2e-state-'));
    const run = await cli(['start', '--params', lab.json.params, '--state-dir', state, ...approveAll], { UPGRADE_PILOT_API_KEY: lab.json.apiKey });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const profile = async (uid: string) => (await (await lab!.api(`/v1/clusterprofiles/${uid}`)).json()) as { spec: { template: { packs: Array<{ name: string; values: string; manifests?: Array<{ name: string }> }> } } };
    const pack = async (uid: string, name: string) => (await profile(uid)).spec.template.packs.find((p) => p.name === name)!;
    const infra = parse((await pack(lab.json.profileUids.infra, 'csi-portworx-generic')).values) as { charts: { 'portworx-generic': Record<string, any> } };
    const px = infra.charts['portworx-generic'];
    expect(px.storageClass.name).toBe('px-vm-block');
    expect(px.activateLicense).toBe(false);
    expect(px.storageClass.annotations['storageclass.kubevirt.io/is-default-virt-class']).toBe('true');
    const addonValues = (name: string) => pack(lab!.json.profileUids.addon, name).then((p) => parse(p.values) as any);
    expect(Object.values((await addonValues('lb-metallb-helm')).charts['metallb-full'].configuration.ipaddresspools).every((p: any) => p.spec.autoAssign === false)).toBe(true);
    expect((await addonValues('virtual-machine-orchestrator')).charts['virtual-machine-orchestrator'].kubevirt.kubevirtResource.additionalFeatureGates).toContain('SMM');
    expect((await pack(lab.json.profileUids.addon, 'prometheus-operator')).manifests?.map((m) => m.name)).toContain('issuer-selfsigned');
    const { data } = report(state);
    expect(data.verification?.results.find((r) => r.id === 'network')).toMatchObject({ status: 'pass' });
    expect(data.rules.filter((r) => r.status !== 'pass')).toEqual([]);
    expect(data.customizations.some((c) => c.label === 'conflict' && c.path.endsWith('storageClass.name') && c.decision === 'keepSite')).toBe(true);
  }, 240_000);

  it('rehearsal of healthy: exit 0, no mutation reaches the lab, the report lists the planned calls', async () => {
    lab = await serveLab('healthy');
    const state = mkdtempSync(join(tmpdir(), 'up-e2e-state-'));
    const run = await cli(['rehearse', '--params', lab.json.params, '--state-dir', state], { UPGRADE_PILOT_API_KEY: lab.json.apiKey });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/rehearsal: nothing will be sent/);
    expect((await lab.audit()).filter((e) => e.method !== 'GET')).toEqual([]);
    const { md, data } = report(state);
    expect(md).toMatch(/^# Rehearsal report/);
    expect(md).toContain('## Planned calls (recorded, not sent)');
    // Per hop: two drafts, two publishes and the restart of the VM that cannot live-migrate.
    const calls = data.mutations.map((m) => `${m.outcome} ${m.request.replace(/\/v1\/clusterprofiles\/[^/\s]+/, '/v1/clusterprofiles/UID').split(' ').slice(0, 2).join(' ')}`);
    const hop = ['recorded PUT /v1/clusterprofiles/UID', 'recorded PUT /v1/clusterprofiles/UID', 'recorded PATCH /v1/clusterprofiles/UID/publish', 'recorded PATCH /v1/clusterprofiles/UID/publish', 'recorded kubectl replace'];
    expect(calls).toEqual([...hop, ...hop]);
    expect(data.verification?.rehearsal).toBe(true);
  }, 240_000);

  it('a plain rehearsal exits 1 when the pre-checks fail, and still sends nothing', async () => {
    lab = await serveLab('healthy');
    const state = mkdtempSync(join(tmpdir(), 'up-e2e-state-'));
    const params = join(state, 'params.yaml');
    writeFileSync(params, readFileSync(lab.json.params, 'utf8').replace(lab.json.profileUids.addon, 'no-such-profile'));
    const run = await cli(['rehearse', '--params', params, '--state-dir', state], { UPGRADE_PILOT_API_KEY: lab.json.apiKey });
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toMatch(/✖ preflight/);
    expect(run.stderr).toMatch(/no-such-profile/);
    expect((await lab.audit()).filter((e) => e.method !== 'GET')).toEqual([]);
  }, 120_000);
});
