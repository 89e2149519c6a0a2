/**
 * The hops' profile steps in the palette flavor, against the whole lab playing a real Palette (its
 * world behind the API): plan, customize, then per hop clone → draft → publish → apply → repave →
 * watch, through the real runner, session store and PaletteClient over HTTP.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { noApprovals, type Approvals } from '../../src/engine/approval-policy.js';
import type { ConfirmFn, GateRequest } from '../../src/engine/gate.js';
import { findStep, type SessionState } from '../../src/engine/state.js';
import type { PaletteMutation } from '../../src/engine/mutation.js';
import { startLab, type LabHandle, type ScenarioName } from '../../src/lab/index.js';
import type { AuditEntry } from '../../src/lab/audit.js';
import { plainConfirm } from '../../src/run/confirm.js';
import type { PlanContract } from '../../src/steps/contracts.js';
import type { ApplyOutput } from '../../src/steps/hop/apply.js';
import { labRun } from '../support/lab-harness.js';

const RUNBOOK = 'test/fixtures/runbooks/palette-hop.yaml';
const approve = (...gates: string[]): Approvals => ({ ...noApprovals, gates });
const ALL = approve('draft', 'publish', 'apply', 'repave');

let lab: LabHandle | undefined;
afterEach(async () => {
  await lab?.close();
  lab = undefined;
});

async function paletteLab(scenario: ScenarioName = 'healthy'): Promise<LabHandle> {
  lab = await startLab({ scenario, stateDir: mkdtempSync(join(tmpdir(), 'up15-lab-')), speed: 600, seed: 15, flavor: 'palette' });
  return lab;
}

const mutations = (l: LabHandle): AuditEntry[] => l.audit.entries({ api: 'palette' }).filter((e) => e.method !== 'GET');
const applied = (l: LabHandle) => mutations(l).filter((e) => e.effect === 'applied');
/** The uid a clone made, from the lab's audit note (`clone A 1.4.0 to A 1.5.0 (uid)`). */
const cloneOf = (l: LabHandle, name: string, version: string) => applied(l).filter((e) => e.method === 'POST' && e.note?.includes(`to ${name} ${version} (`));
const uidIn = (e: AuditEntry) => /\(([0-9a-f]+)\)$/.exec(e.note ?? '')?.[1] ?? '';
const paletteRequests = (state: SessionState) => Object.values(state.mutations).map((m) => m.request as PaletteMutation);

describe('palette flavor: a new version per hop by clone', () => {
  it('a lost clone answer is settled, the run stops at the apply gate without --approve apply, then ends with one clone, PUT and publish per profile per hop and one apply per hop', async () => {
    const l = await paletteLab();
    // A short client timeout: the clone below is made, but its answer comes after the client gave up.
    const run = labRun(l, RUNBOOK, { params: (p) => ({ ...p, palette: { ...p.palette, timeout: 400 } }) });
    l.paletteFaults.set([{ route: 'POST /v1/clusterprofiles/*/clone', faults: { latencyMs: 1500 } }]);
    expect((await run.runner({ approvals: ALL }).run()).status).toBe('failed');
    expect(run.store.load(run.id).mutations['hop1.draft-infra/clone']?.outcome).toBe('failed');
    l.paletteFaults.clear();

    // Resumed without --approve apply: the lost clone is found (not made again), drafts and publishes go on, the apply waits.
    expect((await run.runner({ approvals: approve('draft', 'publish') }).run()).status).toBe('awaitingApproval');
    let state = run.store.load(run.id);
    expect(state.mutations['hop1.draft-infra/clone']?.outcome).toBe('settled');
    expect(findStep(state, 'hop1.apply')!.status).toBe('awaitingApproval');
    expect(l.profiles.findVersion('vmo-infra', '1.5.0')?.published?.version).toBe('1.5.0');
    expect(l.profiles.findVersion('vmo-core-addon', '1.5.0')?.draft).toBeUndefined();
    expect(l.world.palette?.attachedProfiles().map((p) => `${p.name} ${p.version}`)).toEqual(['vmo-infra 1.4.0', 'vmo-core-addon 1.4.0']);
    expect(l.world.reconciler.busy()).toBe(false);
    expect(applied(l).some((e) => e.path.includes('/spectroclusters/'))).toBe(false);

    expect((await run.runner({ approvals: ALL }).run()).status).toBe('done');
    state = run.store.load(run.id);
    const plan = findStep(state, 'plan')!.output as PlanContract;
    expect(plan.flavor).toBe('palette');
    expect(plan.wayBack?.map((w) => `${w.role} ${w.name} ${w.version} ${w.uid}`)).toEqual([`infra vmo-infra 1.4.0 ${l.profileUids.infra}`, `addon vmo-core-addon 1.4.0 ${l.profileUids.addon}`]);
    expect(plan.wayBack?.[0]?.how).toMatch(/replaceWithProfile/);

    const all = applied(l);
    expect(mutations(l).filter((e) => e.effect !== 'applied')).toEqual([]);
    expect(all.filter((e) => e.method === 'PUT' && /renames/.test(e.note ?? ''))).toEqual([]);
    for (const [name, version] of [['vmo-infra', '1.5.0'], ['vmo-core-addon', '1.5.0'], ['vmo-infra', '1.6.0'], ['vmo-core-addon', '1.6.0']] as const) {
      const clones = cloneOf(l, name, version);
      expect(clones, `${name} ${version}`).toHaveLength(1);
      const uid = uidIn(clones[0]!);
      expect(all.filter((e) => e.method === 'PUT' && e.path === `/v1/clusterprofiles/${uid}`)).toHaveLength(1);
      expect(all.filter((e) => e.method === 'PATCH' && e.path === `/v1/clusterprofiles/${uid}/publish`)).toHaveLength(1);
      expect(l.profiles.get(uid)?.published?.version).toBe(version);
    }
    expect(all.filter((e) => e.method === 'POST')).toHaveLength(4);
    // No PUT ever went to a version that existed before this upgrade.
    expect(all.filter((e) => e.method === 'PUT' && (e.path.endsWith(l.profileUids.addon) || e.path.endsWith(l.profileUids.infra)))).toEqual([]);
    expect(all.filter((e) => e.path === `/v1/spectroclusters/${l.clusterUid}/profiles`)).toHaveLength(2);
    const bodies = paletteRequests(state)
      .filter((r) => r.path.includes('/profiles?resolveNotification=true'))
      .map((r) => r.body as { profiles: Array<{ uid: string; replaceWithProfile?: string }> });
    expect(bodies[0]?.profiles.map((p) => p.replaceWithProfile)).toEqual([l.profileUids.infra, l.profileUids.addon]);
    expect(bodies[1]?.profiles.map((p) => p.replaceWithProfile)).toEqual(bodies[0]?.profiles.map((p) => p.uid));
    // The old versions are still there, as they were: the way back.
    expect(l.profiles.get(l.profileUids.addon)?.published?.version).toBe('1.4.0');
    expect(l.profiles.get(l.profileUids.infra)?.published?.version).toBe('1.4.0');
    expect(l.world.reconciler.appliedProfile('addon').version).toBe('1.6.0');
    expect(findStep(state, 'hop2.reconcile')?.summary).toMatch(/every pack of vmo-infra 1\.6\.0 and vmo-core-addon 1\.6\.0 Ready/);
    expect(findStep(state, 'hop1.repave')?.skipReason).toBe('Palette rolls the change out without rebuilding nodes');
    expect(findStep(state, 'hop1.apply')!.output as ApplyOutput).toMatchObject({ how: 'replace', confirmed: 'attached' });
  }, 240_000);

  it('a rehearsal records the clone, PUT, publish and apply with their exact requests and sends none', async () => {
    const l = await paletteLab();
    const run = labRun(l, RUNBOOK, { dryRun: true });
    expect((await run.runner().run()).status).toBe('done');
    expect(mutations(l)).toEqual([]);
    const state = run.store.load(run.id);
    const recorded = Object.values(state.mutations);
    expect(recorded.every((m) => m.outcome === 'recorded')).toBe(true);
    const hop1 = recorded.filter((m) => m.stepId.startsWith('hop1.')).map((m) => `${(m.request as PaletteMutation).method} ${(m.request as PaletteMutation).path}`);
    expect(hop1).toEqual([
      `POST /v1/clusterprofiles/${l.profileUids.infra}/clone`,
      'PUT /v1/clusterprofiles/<uid of vmo-infra 1.5.0>',
      `POST /v1/clusterprofiles/${l.profileUids.addon}/clone`,
      'PUT /v1/clusterprofiles/<uid of vmo-core-addon 1.5.0>',
      'PATCH /v1/clusterprofiles/<uid of vmo-infra 1.5.0>/publish',
      'PATCH /v1/clusterprofiles/<uid of vmo-core-addon 1.5.0>/publish',
      `PATCH /v1/spectroclusters/${l.clusterUid}/profiles?resolveNotification=true`,
    ]);
    const requests = paletteRequests(state);
    expect(requests[0]?.body).toEqual({ metadata: { name: 'vmo-infra', version: '1.5.0', target: { scope: 'project', projectUid: l.projectUid } } });
    const put = requests[1]?.body as { metadata: { uid: string }; spec: { version: string; template: { packs: Array<{ name: string; tag: string }> } } };
    expect(put.metadata.uid).toBe('<uid of vmo-infra 1.5.0>');
    expect(put.spec.version).toBe('1.5.0');
    expect(put.spec.template.packs.find((p) => p.name === 'cni-cilium-oss')?.tag).toBe('1.16.9');
    expect(requests[6]?.body).toEqual({
      profiles: [
        { uid: '<uid of vmo-infra 1.5.0>', replaceWithProfile: l.profileUids.infra },
        { uid: '<uid of vmo-core-addon 1.5.0>', replaceWithProfile: l.profileUids.addon },
      ],
    });
    // Hop 2 starts from hop 1's (not yet made) version.
    expect(requests.find((r) => r.method === 'POST' && r.body && (r.body as { metadata: { version: string } }).metadata.version === '1.6.0')?.path).toBe('/v1/clusterprofiles/<uid of vmo-infra 1.5.0>/clone');
    // ...and its apply replaces hop 1's version, not the one the cluster ran before the rehearsal.
    const hop2Apply = recorded.find((m) => m.stepId === 'hop2.apply')!.request as PaletteMutation;
    expect(hop2Apply.summary).toBe('attach vmo-infra 1.6.0 (in place of 1.5.0) and vmo-core-addon 1.6.0 (in place of 1.5.0) to vmo-prod-east');
    expect(hop2Apply.body).toEqual({
      profiles: [
        { uid: '<uid of vmo-infra 1.6.0>', replaceWithProfile: '<uid of vmo-infra 1.5.0>' },
        { uid: '<uid of vmo-core-addon 1.6.0>', replaceWithProfile: '<uid of vmo-core-addon 1.5.0>' },
      ],
    });
    expect(findStep(state, 'hop1.repave')?.summary).toMatch(/^rehearsal: no OS or Kubernetes pack changes/);
  }, 120_000);


  it('a profile read with the same pack twice stops the hop before any write (bad input, nothing sent)', async () => {
    const l = await paletteLab();
    // The add-on profile (drafted second) lists a pack twice: the infra profile must not be cloned or written either.
    const addon = l.profiles.get(l.profileUids.addon)!;
    addon.published!.packs.push(structuredClone(addon.published!.packs[0]!));
    const run = labRun(l, RUNBOOK);
    const outcome = await run.runner({ approvals: ALL }).run();
    expect(outcome.status).toBe('failed');
    const step = findStep(run.store.load(run.id), 'hop1.draft-infra')!;
    expect(step.error).toMatchObject({ kind: 'input', code: 'palette.unsafe-hop' });
    expect(step.error?.message).toBe(`Refusing to write hop 1: profile vmo-core-addon 1.4.0 (uid ${l.profileUids.addon}): it lists pack lb-metallb-helm more than once.`);
    expect(mutations(l)).toEqual([]);
  }, 120_000);
});

/** Every gate approved but the repave, which is declined; the repave gates asked are kept. */
function declineRepave(): { seen: GateRequest[]; confirm: ConfirmFn } {
  const seen: GateRequest[] = [];
  const plain = plainConfirm(ALL, false);
  const confirm: ConfirmFn = async (request, signal) => {
    if (request.gate !== 'repave') return plain(request, signal);
    seen.push(request);
    return { choice: 'abort', by: 'operator', key: 'n', at: new Date().toISOString() };
  };
  return { seen, confirm };
}

describe('palette flavor: node rebuilds and failing packs', () => {
  it('repave: the gate names the nodes and what each VM goes through; declining sends nothing; approved on resume it is sent once and every node is rebuilt', async () => {
    const l = await paletteLab('repave');
    const run = labRun(l, RUNBOOK);
    const { seen, confirm } = declineRepave();
    expect((await run.runner({ confirm }).run()).status).toBe('stopped');
    expect(seen).toHaveLength(1);
    const gate = seen[0]!;
    expect(gate.title).toBe('Approve the node rebuild (repave) of vmo-prod-east');
    expect(gate.lines[0]).toBe('Palette waits for approval to rebuild the nodes of vmo-prod-east: kubernetes 1.32.2 → 1.32.3.');
    expect(gate.lines[1]).toBe('7 node(s) (3 control plane, 4 worker) are drained and rebuilt one at a time, control plane first; each running VM leaves its node as it drains: 7 live-migrate, 1 restart (downtime).');
    expect(gate.items?.[0]).toBe('vmo-cp-1, vmo-cp-2, vmo-cp-3: no running VMs');
    expect(gate.items?.find((i) => i.startsWith('vmo-worker-3'))).toMatch(/^vmo-worker-3: ns-packs\/build-cache-01 restarts \(downtime\); .* live-migrate/);
    expect(gate.warnings?.[0]).toMatch(/1 VM\(s\) cannot live-migrate/);
    expect(mutations(l).filter((e) => e.path.endsWith('/repave/approve'))).toEqual([]);
    expect(l.world.palette?.view(l.clusterUid)?.repave).toBe('Pending');
    const error = run.store.load(run.id).run.error;
    expect(error?.message).toBe('Declined: the nodes of vmo-prod-east were not rebuilt; nothing was sent.');
    expect(error?.hint).toMatch(/The way back, one hop at a time: vmo-infra: attach vmo-infra 1\.5\.0 \(uid \w+\) in place of 1\.6\.0 \(uid \w+\) by PATCH \/v1\/spectroclusters\/\w+\/profiles\?resolveNotification=true/);

    const resumed = await run.runner({ approvals: ALL }).run();
    expect(resumed.status, resumed.status === 'done' ? '' : JSON.stringify(run.store.load(run.id).run.error)).toBe('done');
    expect(applied(l).filter((e) => e.path.endsWith('/repave/approve'))).toHaveLength(1);
    expect(l.world.roller.rebuilt()).toEqual(['vmo-cp-1', 'vmo-cp-2', 'vmo-cp-3', 'vmo-worker-1', 'vmo-worker-2', 'vmo-worker-3', 'vmo-worker-4']);
    const kubelets = l.store.list('nodes').map((n) => (n.status as { nodeInfo: { kubeletVersion: string } }).nodeInfo.kubeletVersion);
    expect(new Set(kubelets)).toEqual(new Set(['v1.32.3']));
    expect(l.store.list('virtualmachineinstancemigrations').some((m) => m.metadata.name.startsWith('kubevirt-evacuation-'))).toBe(true);
    expect(findStep(run.store.load(run.id), 'hop1.repave')?.summary).toMatch(/^node rebuild approved: 7 node\(s\) rebuilt one at a time; 7 VM\(s\) live-migrate, 1 restart/);
  }, 240_000);

  it('repave on the tight lab: the gate warns first that a node\'s VMs fit nowhere else while it drains (read at the gate)', async () => {
    const l = await paletteLab('tight');
    const run = labRun(l, RUNBOOK);
    const { seen, confirm } = declineRepave();
    expect((await run.runner({ confirm }).run()).status).toBe('stopped');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.warnings?.[0]).toMatch(
      /^Not enough room: while vmo-worker-1 drains, 1 of its 2 VM\(s\) fit on no other node \(ns-product\/analytics-01, 48\.\d GiB, 800m CPU\): no node it may use has the memory left\. They wait for vmo-worker-1 to come back, and the drain may time out\.$/,
    );
    expect(seen[0]!.warnings?.filter((w) => w.startsWith('Not enough room'))).toHaveLength(1);
  }, 120_000);

  it('a pack in Error stops the watch with the pack and Palette’s message', async () => {
    const l = await paletteLab('pack-error');
    const run = labRun(l, RUNBOOK);
    const outcome = await run.runner({ approvals: ALL }).run();
    expect(outcome.status).toBe('failed');
    const step = findStep(run.store.load(run.id), 'hop1.reconcile')!;
    expect(step.error?.code).toBe('reconcile.pack-error');
    expect(step.error?.message).toMatch(/^cni-cilium-oss 1\.17\.1 of vmo-infra 1\.6\.0 failed on vmo-prod-east: HelmUpgradeFailed: Error: UPGRADE FAILED: cannot patch "cilium-operator"/);
    expect(step.error?.hint).toMatch(/The way back, one hop at a time: vmo-infra: attach vmo-infra 1\.5\.0 \(uid \w+\) in place of 1\.6\.0/);
  }, 120_000);
});

describe('palette flavor: the wait says what blocks', () => {
  it('a rollout held back by a condition (WorkerNodesReady False on the degraded lab) names it from the first poll, in the headline and the log', async () => {
    const l = await paletteLab('degraded');
    const run = labRun(l, RUNBOOK);
    const stop = new AbortController();
    const runner = run.runner({ approvals: approve('health', 'draft', 'publish', 'apply', 'repave'), signal: stop.signal });
    let firstPoll: { headline: string; polls: number } | undefined;
    const logs: string[] = [];
    runner.subscribe((_state, event) => {
      if (event.type === 'log' && event.line.stepId === 'hop1.reconcile') logs.push(event.line.message);
      if (event.type !== 'step.progress' || event.id !== 'hop1.reconcile') return;
      const live = event.live as { headline: string; polls?: number };
      if (live.polls === undefined || firstPoll) return;
      firstPoll = { headline: live.headline, polls: live.polls };
      stop.abort();
    });
    const outcome = await runner.run();
    expect(firstPoll, JSON.stringify(outcome)).toBeDefined();
    expect(firstPoll?.polls).toBe(1);
    expect(firstPoll?.headline).toMatch(/held back by WorkerNodesReady False \(NodesNotReady: Not Ready: vmo-worker-2\)/);
    expect(logs).toContain("Held back: the cluster's condition WorkerNodesReady False (NodesNotReady: Not Ready: vmo-worker-2)");
  }, 120_000);
});

describe('palette flavor, versions edited in place', () => {
  it('writes the deployed version under its own label, then applies the pending update', async () => {
    const l = await paletteLab();
    const run = labRun(l, RUNBOOK, { params: (p) => ({ ...p, palette: { ...p.palette, versioning: 'in-place' } }) });
    expect((await run.runner({ approvals: ALL }).run()).status).toBe('done');
    const all = mutations(l);
    expect(all.filter((e) => e.method === 'POST')).toEqual([]);
    expect(all.filter((e) => e.method === 'PUT').map((e) => `${e.path} ${e.note}`)).toEqual([
      `/v1/clusterprofiles/${l.profileUids.infra} draft vmo-infra 1.4.0`,
      `/v1/clusterprofiles/${l.profileUids.addon} draft vmo-core-addon 1.4.0`,
      `/v1/clusterprofiles/${l.profileUids.infra} draft vmo-infra 1.4.0`,
      `/v1/clusterprofiles/${l.profileUids.addon} draft vmo-core-addon 1.4.0`,
    ]);
    const state = run.store.load(run.id);
    const bodies = paletteRequests(state).filter((r) => r.path.includes('/profiles?')).map((r) => r.body);
    expect(bodies[0]).toEqual({ profiles: [{ uid: l.profileUids.infra }, { uid: l.profileUids.addon }] });
    expect(l.world.palette?.notifications(l.clusterUid)?.every((n) => n.isDone)).toBe(true);
    expect(l.world.reconciler.appliedProfile('addon').packs.find((p) => p.name === 'virtual-machine-orchestrator')?.tag).toBe('4.6.3');
    expect((findStep(state, 'plan')!.output as PlanContract).wayBack?.[0]?.how).toMatch(/overwritten/);
  }, 180_000);
});
