import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { ReportData } from '../../src/report/model.js';
import { listen } from '../notify/support.js';
import { shippedReportSchema } from '../support/report-schema.js';
import { readCheckedReport } from '../support/report-pictures.js';
import { approveAll, cli, serveLab, type ServedLab } from './support.js';

let lab: ServedLab | undefined;
afterEach(async () => {
  await lab?.stop();
  lab = undefined;
});

/** The latest session's report; its gantt and its HTML timeline are checked against the JSON on every read. */
function report(stateDir: string): { md: string; data: ReportData } {
  const sessions = join(stateDir, 'sessions');
  return readCheckedReport<ReportData>(join(sessions, readdirSync(sessions).sort().at(-1)!));
}

const applied = (audit: Awaited<ReturnType<ServedLab['audit']>>, method: string, api = 'palette') => audit.filter((e) => e.api === api && e.method === method && e.effect === 'applied');

describe('end to end against `lab --serve`', () => {
  it('healthy behind a gateway path (lab --server-path): two hops without a TTY, exit 0, all green, the report written, one draft and one publish per profile per hop, nothing sent to the gateway’s root', async () => {
    // The bundled `lab --serve` in a process of its own (the other cases serve the lab from the test's process).
    lab = await serveLab('healthy', 300, 'spec', '/k8s/clusters/c-lab', true);
    const state = mkdtempSync(join(tmpdir(), 'up-e2e-state-'));
    const run = await cli(['start', '--params', lab.json.params, '--state-dir', state, ...approveAll], { UPGRADE_PILOT_API_KEY: lab.json.apiKey });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/✔ done/);
    const { data, md } = report(state);
    expect(data.outcome.status).toBe('done');
    // Green but for the cluster's past: the nodes panel lists a pod evicted a week ago and a failed Job's pod as pre-existing (amber).
    expect(data.verification?.results.map((r) => r.status)).toEqual(['pass', 'pass', 'pass', 'pass', 'pass', 'warn']);
    // (ages in lab time, which the upgrade moved on by some hours)
    expect(data.verification?.results.find((r) => r.id === 'nodes')?.evidence).toEqual([
      expect.stringMatching(/^pod kube-system\/coredns-7c65d6cfc9-x2q7r: Failed \(Evicted\) 7d\d*h? ago, before this session \(pre-existing\)$/),
      expect.stringMatching(/^pod kube-system\/etcd-defrag-29012960-8kq4z: Failed 3d\d*h? ago, before this session \(pre-existing\)$/),
    ]);
    // db-01's failed migrations a later success superseded a week ago count for nothing.
    expect(data.verification?.results.find((r) => r.id === 'workloads')?.summary).toMatch(/2 failed earlier and superseded by a later success/);
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
    // Once per hop: the VM that cannot live-migrate is restarted in each; every other one live-migrated.
    const restarted = data.vms.filter((v) => v.fate === 'restarted');
    expect(restarted.map((v) => `${v.hop} ${v.name}`)).toEqual(['1 ns-packs/build-cache-01', '2 ns-packs/build-cache-01']);
    expect(restarted.every((v) => v.downtimeSeconds !== undefined && v.downtimeSeconds > 0 && v.backRunning)).toBe(true);
    expect(data.vms.filter((v) => v.fate === 'live-migrated' && v.hop === 1).length).toBeGreaterThan(0);
    expect(data.vms.filter((v) => v.fate === 'outstanding')).toEqual([]);
    expect(data.rollback.map((w) => w.version)).toEqual(['1.4.0', '1.4.0']);
    expect(md).toMatch(/## Hop 2: 4\.5\.4 → 4\.6\.3/);
    // Every read and change reached the cluster under the server path: the lab records any request outside it.
    expect(audit.filter((e) => e.api === 'kube' && e.note?.startsWith('outside the server path'))).toEqual([]);
    expect(readFileSync(lab.json.kubeconfig, 'utf8')).toMatch(/server: https:\/\/127\.0\.0\.1:\d+\/k8s\/clusters\/c-lab\n/);

    // Standalone verify afterwards judges from the start of that session, found in the state dir:
    // green (exit 0) while the history holds the superseded failures and the week-old eviction, both shown as pre-existing.
    const verify = await cli(['verify', '--params', lab.json.params, '--state-dir', state], { UPGRADE_PILOT_API_KEY: lab.json.apiKey });
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
    expect(verify.stdout).toMatch(/^upgrade-pilot verify: vmo-prod-east: 5 green, 0 red, 1 amber, 0 unknown/);
    expect(verify.stdout).toMatch(/Since: the start of session \S+, the latest on this cluster \(/);
    expect(verify.stdout).toMatch(/pod kube-system\/coredns-7c65d6cfc9-x2q7r: Failed \(Evicted\) 7d\S* ago, before this session \(pre-existing\)/);
    expect(verify.stdout).toMatch(/2 failed earlier and superseded by a later success/);
  }, 300_000);

  it('healthy on a real Palette: stops at the apply gate (exit 3) with the versions published and the cluster unchanged; resumed with --approve apply it ends green, one clone, PUT and publish per profile per hop, one apply per hop', async () => {
    const l = await serveLab('healthy', 300, 'palette');
    lab = l;
    const state = mkdtempSync(join(tmpdir(), 'up-e2e-state-'));
    const env = { UPGRADE_PILOT_API_KEY: l.json.apiKey };
    const first = await cli(['start', '--params', l.json.params, '--state-dir', state, '--approve', 'draft,publish,cancel-migrations', '--approve-all-restarts'], env);
    expect(first.code, first.stdout + first.stderr).toBe(3);
    expect(first.stdout).toMatch(/GATE: Apply vmo-infra 1\.5\.0 and vmo-core-addon 1\.5\.0 to vmo-prod-east/);
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
    // Amber only for the cluster's past (pre-existing failed pods).
    expect(data.verification?.results.map((r) => r.status)).toEqual(['pass', 'pass', 'pass', 'pass', 'pass', 'warn']);
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

  it('skip-minor, stopped twice with one restart skipped: the report says every decision, both stops, each VM once, the downtime and the way back; the listener hears each stop and the end', async () => {
    lab = await serveLab('skip-minor');
    const listener = await listen('ok');
    try {
      const state = mkdtempSync(join(tmpdir(), 'up-e2e-state-'));
      const env = { UPGRADE_PILOT_API_KEY: lab.json.apiKey };
      const notify = ['--notify', listener.url];
      const first = await cli(['start', '--params', lab.json.params, '--state-dir', state, ...notify], env);
      expect(first.code, first.stdout + first.stderr).toBe(3);
      expect(first.stdout).toMatch(/Known issue: Launcher incompatible after a skipped minor \(3 of 3 symptom\(s\) found\)/);
      const second = await cli(['resume', '--state-dir', state, '--approve', 'cancel-migrations', '--approve-restart', 'ns-adv/win-sb-01', '--skip-restart', 'ns-packs/build-cache-01', ...notify], env);
      expect(second.code, second.stdout + second.stderr).toBe(3);
      // The cancel of web-02's hanging migration did not take: KubeVirt's abort failed. Said so, never counted as cancelled.
      expect(second.stdout).toMatch(/The cancel of 1 migration\(s\) failed: KubeVirt could not abort virtual-machines\/kubevirt-workload-update-\S+ \(abortStatus Failed\); they go on until their VM is restarted\./);
      // A resume asks a skipped VM again (the operator may have changed their mind): the skip is said again.
      const third = await cli(['resume', '--state-dir', state, '--approve', 'cancel-migrations', '--approve-all-restarts', '--skip-restart', 'ns-packs/build-cache-01', ...notify], env);
      // The skipped VM stays on the old launcher: verification is red about it, and says so.
      expect(third.code, third.stdout + third.stderr).toBe(1);
      // The resumed recovery reads the failed cancel again and says, at web-02's gate, that its restart is what stops that migration.
      expect(third.stdout).toMatch(/The cancel of 1 migration\(s\) failed: KubeVirt could not abort virtual-machines\/kubevirt-workload-update-/);
      expect(third.stdout).toMatch(/Why: .* Its migration virtual-machines\/kubevirt-workload-update-\S+ could not be aborted \(its cancel failed\): the restart stops it\./);

      const { data, md } = report(state);
      expect(shippedReportSchema().safeParse(data).error).toBeUndefined();
      expect(data.hops).toEqual([]);
      expect(data.stops.map((s) => [s.status, s.step, s.gate, s.resumedWith])).toEqual([
        ['awaitingApproval', 'hop.recover', 'cancel-migrations', '--approve cancel-migrations --approve-restart ns-adv/win-sb-01 --skip-restart ns-packs/build-cache-01'],
        ['awaitingApproval', 'hop.recover', 'restart', '--approve cancel-migrations --approve-all-restarts --skip-restart ns-packs/build-cache-01'],
        // The end: red verification (resumable, so a stop too).
        ['failed', 'verify', undefined, undefined],
      ]);
      expect(data.endedAt).not.toBeNull();
      expect(data.durationSeconds).toBeGreaterThan(0);
      // Every decision with its real source: the exact flag, or the policy.
      const restarts = data.decisions.filter((d) => d.gate === 'restart');
      expect(restarts.find((d) => d.subject === 'ns-adv/win-sb-01')).toMatchObject({ choice: 'approve', by: 'flag', flag: '--approve-restart ns-adv/win-sb-01' });
      expect(restarts.find((d) => d.subject === 'ns-packs/build-cache-01')).toMatchObject({ choice: 'skip', by: 'flag', flag: '--skip-restart ns-packs/build-cache-01' });
      expect(restarts.filter((d) => d.flag === '--approve-all-restarts')).toHaveLength(6);
      expect(data.decisions.filter((d) => d.gate === 'cancel-migrations').every((d) => d.by === 'flag' && d.flag === '--approve cancel-migrations')).toBe(true);
      expect(data.decisions.find((d) => d.gate === 'verify')).toMatchObject({ by: 'policy', policy: 'unattended: an informational gate takes its safe choice' });
      // Each VM once (no hop here: the pack was already at the target), restarted or outstanding, never both.
      const vms = data.vms.map((v) => `${v.name} ${v.fate}`);
      expect(vms).toHaveLength(new Set(data.vms.map((v) => v.name)).size);
      expect(vms).toContain('ns-packs/build-cache-01 outstanding');
      expect(data.vms.find((v) => v.name === 'ns-packs/build-cache-01')?.reason).toBe('restart skipped (flag --skip-restart ns-packs/build-cache-01)');
      const restarted = data.vms.filter((v) => v.fate === 'restarted');
      expect(restarted).toHaveLength(7);
      for (const v of restarted) {
        expect(v.hop).toBeNull();
        expect(v.downtimeSeconds, v.name).toBeGreaterThan(0);
        expect(Date.parse(v.runningAt!)).toBeGreaterThanOrEqual(Date.parse(v.sentAt!) - 1_000);
      }
      expect(data.labTime).toBe(true);
      // The previous versions: nothing was published, so the way back is the versions still running.
      expect(data.rollback.map((w) => `${w.profile} ${w.version}`)).toEqual(['vmo-infra 1.6.0', 'vmo-core-addon 1.6.0']);
      // The Markdown says the same, in under 200 lines before its appendix.
      const body = md.split('\n## Appendix\n')[0]!;
      expect(body.split('\n').length).toBeLessThan(200);
      expect(body).toMatch(/stopped at a gate \(cancel-migrations\) in hop\.recover/);
      expect(body).toMatch(/resumed by \S+ with --approve cancel-migrations --approve-all-restarts --skip-restart ns-packs\/build-cache-01/);
      expect(body).toMatch(/\| ns-packs\/build-cache-01 \| outstanding \| restart skipped \(flag --skip-restart ns-packs\/build-cache-01\) \|/);
      expect(body).toMatch(/\| ns-adv\/win-sb-01 \| restarted \| sent \S+, running \S+, down \S+ lab time/);
      expect(body).toMatch(/## Way back/);
      // Nothing was published: the pack was already at the target.
      expect((await lab.audit()).filter((e) => e.api === 'palette' && e.method !== 'GET')).toEqual([]);
      // One message per stop and one at the end; never the key.
      expect(listener.received.map((r) => (JSON.parse(r.body) as { event: string }).event)).toEqual(['stopped', 'stopped', 'failed']);
      expect(JSON.stringify(listener.received)).not.toContain(lab.json.apiKey);
    } finally {
      await listener.close();
    }
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

  it('rehearsal of healthy: exit 0, no mutation reaches the lab, the report lists the planned calls; reference profiles give the same hops and customizations as the registry', async () => {
    lab = await serveLab('healthy');
    const state = mkdtempSync(join(tmpdir(), 'up-e2e-state-'));
    // The lab's params.yaml is the small file (no references, no valuesDir): the pack registry gives everything.
    expect(parse(readFileSync(lab.json.params, 'utf8'))).not.toHaveProperty('references');
    const run = await cli(['rehearse', '--params', lab.json.params, '--state-dir', state], { UPGRADE_PILOT_API_KEY: lab.json.apiKey });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/rehearsal: nothing will be sent/);
    expect((await lab.audit()).filter((e) => e.method !== 'GET')).toEqual([]);
    const { md, data } = report(state);
    expect(md).toMatch(/^# Rehearsal report/);
    expect(md).toMatch(/Calls recorded \(not sent\) \(5\):/);
    // Per hop: two drafts, two publishes and the restart of the VM that cannot live-migrate.
    const calls = data.requests.map((m) => `${m.outcome} ${m.request.replace(/\/v1\/clusterprofiles\/[^/\s]+/, '/v1/clusterprofiles/UID').split(' ').slice(0, 2).join(' ')}`);
    const hop = ['recorded PUT /v1/clusterprofiles/UID', 'recorded PUT /v1/clusterprofiles/UID', 'recorded PATCH /v1/clusterprofiles/UID/publish', 'recorded PATCH /v1/clusterprofiles/UID/publish', 'recorded kubectl replace'];
    expect(calls).toEqual([...hop, ...hop]);
    expect(data.verification?.rehearsal).toBe(true);

    const refState = mkdtempSync(join(tmpdir(), 'up-e2e-state-'));
    const withRefs = await cli(['rehearse', '--params', lab.json.paramsWithReferences, '--state-dir', refState], { UPGRADE_PILOT_API_KEY: lab.json.apiKey });
    expect(withRefs.code, withRefs.stdout + withRefs.stderr).toBe(0);
    const refs = report(refState).data;
    expect(refs.hops).toEqual(data.hops);
    expect(refs.customizations).toEqual(data.customizations);
    expect(refs.rules).toEqual(data.rules);
    expect(refs.requests.map((m) => m.request)).toEqual(data.requests.map((m) => m.request));
    expect((await lab.audit()).filter((e) => e.method !== 'GET')).toEqual([]);
  }, 300_000);

  it('a plain rehearsal exits 1 when the pre-checks fail, and still sends nothing', async () => {
    lab = await serveLab('healthy');
    const state = mkdtempSync(join(tmpdir(), 'up-e2e-state-'));
    const params = join(state, 'params.yaml');
    writeFileSync(params, readFileSync(lab.json.params, 'utf8').replace(lab.json.profileUids.addon, 'no-such-profile'));
    const run = await cli(['rehearse', '--params', params, '--state-dir', state], { UPGRADE_PILOT_API_KEY: lab.json.apiKey });
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toMatch(/✖ Preflight checks/);
    expect(run.stderr).toMatch(/no-such-profile/);
    expect((await lab.audit()).filter((e) => e.method !== 'GET')).toEqual([]);
  }, 120_000);
});
