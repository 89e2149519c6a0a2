import { afterEach, describe, expect, it } from 'vitest';
import { noApprovals } from '../../src/engine/approval-policy.js';
import { findStep } from '../../src/engine/state.js';
import type { DraftOutput } from '../../src/steps/hop/draft.js';
import { startLab, type Lab } from '../lab/palette/support.js';
import { fullHopSteps, onePackHop, paletteRun, runbookYaml } from '../support/palette-harness.js';

const approveAll = { ...noApprovals, gates: ['draft', 'publish'] };
let lab: Lab | undefined;
afterEach(async () => {
  await lab?.close();
  lab = undefined;
});

const mutations = (l: Lab) => l.audit.entries({ api: 'palette' }).filter((e) => e.method !== 'GET');

describe.each(['spec', 'palette'] as const)('draft → publish → reconcile (%s dialect)', (dialect) => {
  it('writes each draft once, reads it back, publishes each once, and waits for the cluster', async () => {
    lab = await startLab(dialect);
    const run = paletteRun(lab, dialect, runbookYaml(onePackHop(), fullHopSteps));
    const outcome = await run.run({ approvals: approveAll });
    expect(outcome.status).toBe('done');
    expect(mutations(lab).map((e) => `${e.method} ${e.path} ${e.effect}`)).toEqual([
      'PUT /v1/clusterprofiles/profile-infra-0001 applied',
      'PUT /v1/clusterprofiles/profile-addon-0001 applied',
      'PATCH /v1/clusterprofiles/profile-infra-0001/publish applied',
      'PATCH /v1/clusterprofiles/profile-addon-0001/publish applied',
    ]);
    const state = run.store.load(run.id);
    const draft = findStep(state, 'hop1.draft-addon')!.output as DraftOutput;
    expect(draft).toMatchObject({ name: 'vmo-core', fromVersion: '1.2.0', toVersion: '1.3.0', readBack: 'matched', packs: [{ name: 'virtual-machine-orchestrator', from: '4.6.3', to: '4.7.0' }] });
    expect(findStep(state, 'hop1.reconcile')?.summary).toMatch(/picked up after/);
    expect(lab.store.get('profile-addon-0001')?.published?.version).toBe('1.3.0');
    // The site's manifest and the other packs survived the round trip untouched.
    expect(lab.store.get('profile-addon-0001')?.published?.packs.map((p) => p.name)).toEqual(['lb-metallb-helm', 'virtual-machine-orchestrator', 'prometheus-operator']);
    expect(lab.store.get('profile-addon-0001')?.published?.packs[2]?.manifests[0]?.name).toBe('issuer-selfsigned');
  });

  it('stops red when the API accepts the draft but does not apply it (spec 7), and publishes nothing', async () => {
    lab = await startLab(dialect);
    lab.faults.set([{ route: 'PUT /v1/clusterprofiles/profile-infra-0001', faults: { ignorePut: true } }]);
    const run = paletteRun(lab, dialect, runbookYaml(onePackHop(), fullHopSteps));
    const outcome = await run.run({ approvals: approveAll });
    expect(outcome.status).toBe('failed');
    const step = findStep(run.store.load(run.id), 'hop1.draft-infra')!;
    expect(step.error?.message).toMatch(/The API accepted the draft of vmo-infra but did not apply it/);
    expect(step.error?.hint).toMatch(/silent no-op of spec 7/);
    expect(mutations(lab).filter((e) => e.method === 'PATCH')).toHaveLength(0);
  });
});

describe('pack versions on a real Palette (palette dialect)', () => {
  it("every changed pack carries the uid and registry of its exact version, read from the registry; the draft reads back although values come back normalized", async () => {
    lab = await startLab('palette');
    const run = paletteRun(lab, 'palette', runbookYaml(onePackHop(), fullHopSteps));
    expect((await run.run({ approvals: approveAll })).status).toBe('done');
    const puts = Object.values(run.store.load(run.id).mutations).filter((m) => m.request.target === 'palette' && m.request.method === 'PUT');
    const changed = puts.flatMap((m) => ((m.request as { body: { spec: { template: { packs: Array<{ name: string; tag: string; uid?: string; registryUid?: string }> } } } }).body.spec.template.packs).filter((p) => ['cni-cilium-oss', 'virtual-machine-orchestrator'].includes(p.name)));
    expect(changed.map((p) => `${p.name} ${p.tag} ${p.uid} ${p.registryUid}`)).toEqual(['cni-cilium-oss 1.17.1 pack-cilium-1171 registry-0001', 'virtual-machine-orchestrator 4.7.0 pack-vmo-470 registry-0001']);
  });

  it('a tag the registry does not hold is refused before anything of the hop is sent, naming pack, tag and registry', async () => {
    lab = await startLab('palette');
    const plan = onePackHop();
    plan.hops[0]!.profiles[1]!.packs[0]!.to = '4.7.9';
    const run = paletteRun(lab, 'palette', runbookYaml(plan, fullHopSteps));
    expect((await run.run({ approvals: approveAll })).status).toBe('failed');
    const step = findStep(run.store.load(run.id), 'hop1.draft-infra')!;
    expect(step.error).toMatchObject({ kind: 'input', code: 'palette.unsafe-hop' });
    expect(step.error?.message).toContain('The pack registry "Palette Registry" (registry-0001) has no virtual-machine-orchestrator 4.7.9.');
    // Not the infra profile either, although its own pack versions were fine.
    expect(mutations(lab)).toEqual([]);
  });
});

describe('draft → publish → reconcile under faults and crashes', () => {
  it('completes under 5xx, resets and 429 bursts with exactly one applied publish per profile', async () => {
    lab = await startLab('palette');
    lab.faults.set(
      [
        { route: '* /v1/clusterprofiles/**', faults: { errorRate: 0.2, dropRate: 0.1 } },
        { route: 'GET /v1/spectroclusters/**', faults: { rateLimit: { burst: 2, every: 4, retryAfterSeconds: 0 } } },
      ],
      11,
    );
    const run = paletteRun(lab, 'palette', runbookYaml(onePackHop(), fullHopSteps));
    // A failure the client could not retry (a publish is never resent blindly) stops the run; resuming settles it by reading.
    let outcome = await run.run({ approvals: approveAll });
    for (let i = 0; i < 10 && outcome.status !== 'done'; i++) outcome = await run.run({ approvals: approveAll });
    expect(outcome.status).toBe('done');
    const publishes = lab.audit.entries({ api: 'palette', method: 'PATCH', effect: 'applied' });
    expect(publishes.map((e) => e.path).sort()).toEqual(['/v1/clusterprofiles/profile-addon-0001/publish', '/v1/clusterprofiles/profile-infra-0001/publish']);
  });

  it('after a crash between the publish intent and its result, resume reads instead of publishing again', async () => {
    lab = await startLab('spec');
    const run = paletteRun(lab, 'spec', runbookYaml(onePackHop(), fullHopSteps));
    // Publish the infra profile, then simulate a crash before the result was journaled.
    const first = await run.run({ approvals: { ...noApprovals, gates: ['draft'] } });
    expect(first.status).toBe('awaitingApproval');
    const session = run.store.open(run.id);
    session.append({ type: 'session.resumed', at: new Date().toISOString() });
    session.append({ type: 'step.started', at: new Date().toISOString(), id: 'hop1.publish-infra' });
    session.append({ type: 'mutation.intent', at: new Date().toISOString(), key: 'hop1.publish-infra/publish', stepId: 'hop1.publish-infra', request: { target: 'palette', method: 'PATCH', path: '/v1/clusterprofiles/profile-infra-0001/publish', summary: 'publish' }, dryRun: false });
    session.close();
    await lab.call('PATCH', '/v1/clusterprofiles/profile-infra-0001/publish');
    const outcome = await run.run({ approvals: approveAll });
    expect(outcome.status).toBe('done');
    expect(lab.audit.entries({ method: 'PATCH', effect: 'applied' }).filter((e) => e.path.includes('infra'))).toHaveLength(1);
    expect(run.store.load(run.id).mutations['hop1.publish-infra/publish']?.outcome).toBe('settled');
  });

  it('reconcile says "draft not published" instead of waiting forever', async () => {
    lab = await startLab('spec');
    const steps = `      - { id: draft-addon, kind: draft, with: { profile: addon } }
      - { id: reconcile, kind: reconcile, with: { interval: 50ms, timeout: 5s } }`;
    const plan = onePackHop();
    plan.hops[0]!.profiles = plan.hops[0]!.profiles.filter((p) => p.role === 'addon');
    const run = paletteRun(lab, 'spec', runbookYaml(plan, steps));
    expect((await run.run({ approvals: approveAll })).status).toBe('failed');
    const step = findStep(run.store.load(run.id), 'hop1.reconcile')!;
    expect(step.error?.message).toBe('vmo-core: the draft is not published, so the cluster will never pick it up.');
  });

  it('a rehearsal records the PUT and PATCH bodies and sends nothing', async () => {
    lab = await startLab('spec');
    const run = paletteRun(lab, 'spec', runbookYaml(onePackHop(), fullHopSteps), { dryRun: true });
    expect((await run.run()).status).toBe('done');
    expect(mutations(lab)).toHaveLength(0);
    const state = run.store.load(run.id);
    const recorded = Object.values(state.mutations);
    expect(recorded.map((m) => `${m.outcome} ${m.request.target === 'palette' ? `${m.request.method} ${m.request.path}` : ''}`)).toEqual([
      'recorded PUT /v1/clusterprofiles/profile-infra-0001',
      'recorded PUT /v1/clusterprofiles/profile-addon-0001',
      'recorded PATCH /v1/clusterprofiles/profile-infra-0001/publish',
      'recorded PATCH /v1/clusterprofiles/profile-addon-0001/publish',
    ]);
    const put = recorded[1]!.request as { body: { spec: { version: string; template: { packs: Array<{ name: string; tag: string }> } } } };
    expect(put.body.spec.version).toBe('1.3.0');
    expect(put.body.spec.template.packs.find((p) => p.name === 'virtual-machine-orchestrator')?.tag).toBe('4.7.0');
    expect(findStep(state, 'hop1.reconcile')?.summary).toMatch(/would wait .* until lab-cluster reports vmo-infra at 2\.1\.0/);
  });
});
