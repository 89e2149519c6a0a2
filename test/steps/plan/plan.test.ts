import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { exitCodeOf } from '../../../src/errors.js';
import { packStack } from '../../../src/lab/data/pack-catalog.js';
import type { PlanOutput } from '../../../src/steps/plan/types.js';
import { KNOWN_VMS, seedHealthyCluster } from './support/cluster-seed.js';
import { startDoubles, type Doubles } from './support/doubles.js';
import { kubeFor, runSteps } from './support/run-steps.js';

const planOf = (run: { step(id: string): { output?: unknown } }) => run.step('plan').output as PlanOutput;
const ladderOf = (p: PlanOutput) => p.hops.map((h) => `${h.from}→${h.to}`);
const labelsOf = (p: PlanOutput) => p.hops.map((h) => h.profiles.map((x) => `${x.name} ${x.fromVersion}→${x.toVersion}`));

describe('plan against the Palette and Kubernetes doubles', () => {
  let d: Doubles;
  beforeAll(async () => {
    d = await startDoubles({ seed: seedHealthyCluster, dialect: 'palette' });
  });
  afterAll(() => d.close());
  const run = (site = d.site) => runSteps({ site, palette: d.palette, kube: kubeFor(d.kube.kubeconfig, 'lab'), kinds: ['plan'] });

  it('builds one hop per minor from the reference profiles, with new increasing labels and the versions each hop deploys', async () => {
    const r = await run();
    expect(r.outcome.status).toBe('done');
    const plan = planOf(r);
    expect(plan.status).toBe('planned');
    expect(ladderOf(plan)).toEqual(['4.4.10→4.5.4', '4.5.4→4.6.3']);
    expect(labelsOf(plan)).toEqual([
      ['vmo-infra 1.4.0→1.5.0', 'vmo-core-addon 1.4.0→1.5.0'],
      ['vmo-infra 1.5.0→1.6.0', 'vmo-core-addon 1.5.0→1.6.0'],
    ]);
    const [hop1, hop2] = plan.hops;
    const refs = d.profiles.references;
    expect(hop1!.profiles.map((p) => p.reference)).toEqual([
      { kind: 'profile', uid: refs.find((x) => x.version === '4.5.4')!.infra.uid },
      { kind: 'profile', uid: refs.find((x) => x.version === '4.5.4')!.addon.uid },
    ]);
    // Only packs whose tag changes; kubernetes and the OS stay.
    expect(hop1!.profiles[0]!.packs).toEqual([
      { name: 'cni-cilium-oss', from: '1.16.6', to: '1.16.9', source: 'reference profile' },
      { name: 'csi-portworx-generic', from: '3.1.4', to: '3.1.8', source: 'reference profile' },
    ]);
    expect(hop2!.profiles[1]!.packs).toContainEqual({ name: 'virtual-machine-orchestrator', from: '4.5.4', to: '4.6.3', source: "the hop's version" });
    expect([hop1!.source, hop2!.source]).toEqual(['the highest 4.5.x tag in the reference profiles in the params file', 'the target in the params file']);
    expect([hop1!.kubevirtVersion, hop1!.cdiVersion, hop2!.kubevirtVersion, hop2!.cdiVersion]).toEqual(['v1.3.1', 'v1.60.3', 'v1.4.0', 'v1.61.0']);
    expect(plan.expectations).toEqual({
      profiles: [
        {
          name: 'vmo-infra',
          version: '1.6.0',
          packs: [
            { name: 'ubuntu-maas', tag: '22.04' },
            { name: 'kubernetes', tag: '1.32.2' },
            { name: 'cni-cilium-oss', tag: '1.17.1' },
            { name: 'csi-portworx-generic', tag: '3.2.1' },
          ],
        },
        {
          name: 'vmo-core-addon',
          version: '1.6.0',
          packs: [
            { name: 'lb-metallb-helm', tag: '0.15.2' },
            { name: 'nginx', tag: '1.12.1' },
            { name: 'virtual-machine-orchestrator', tag: '4.6.3' },
            { name: 'prometheus-operator', tag: '66.2.2' },
          ],
        },
      ],
      kubevirtVersion: 'v1.4.0',
      cdiVersion: 'v1.61.0',
    });
    expect(r.step('plan').summary).toBe('2 hop(s): 4.4.10 → 4.5.4 → 4.6.3; VMs: 3 live-migrate, 0 evicted, 1 need a restart, 1 not running');
  });

  it('predicts the fate of the known VMs: the node-local disk needs a restart, the Halted VM is not running', async () => {
    const plan = planOf(await run());
    const fate = Object.fromEntries(plan.impact.map((i) => [i.vm, i.fate]));
    expect(fate).toEqual({
      [KNOWN_VMS.restart]: 'restart',
      [KNOWN_VMS.halted]: 'not-running',
      ...Object.fromEntries(KNOWN_VMS.liveMigrate.map((vm) => [vm, 'live-migrate'])),
    });
    expect(plan.impact.find((i) => i.vm === KNOWN_VMS.restart)).toMatchObject({
      vm: 'vms/build-cache-01',
      node: 'node-3',
      fate: 'restart',
      reason: 'cannot live-migrate (DisksNotLiveMigratable) and Evict is not a workload update method: stays on the old launcher',
      // KubeVirt's own code, what it means, and the strategies that decided
      reasonCode: 'DisksNotLiveMigratable',
      explanation: expect.stringMatching(/ReadWriteOnce/),
      evictionStrategy: 'None',
      runStrategy: 'Always',
      predicted: { downtimeSeconds: 60 },
    });
    expect(plan.notes).toContain('VMs that need a restart must be restarted after each hop, before the next: two minors behind, they could not live-migrate (spec 9.1.1).');
  });

  it('refuses a plan that would skip a minor, naming the missing minor and the reason of spec 9.1.1', async () => {
    const site = { ...d.site, references: d.site.references.filter((r) => r.version !== '4.5.4') };
    const r = await run(site);
    const plan = planOf(r);
    expect(plan.status).toBe('refused');
    expect(plan.hops).toEqual([]);
    expect(plan.refusal!.reason).toBe(
      'No 4.5.x version is available to step through from 4.4.10 to 4.6.3; skipping a minor version makes the automatic live migrations of running VMs fail: the old and new launchers are incompatible (spec 9.1.1).',
    );
    expect(plan.refusal!.hint).toMatch(/Add a reference profile \(or a values folder entry\) for a 4\.5\.x version/);
    const error = r.step('plan').error!;
    expect(error.code).toBe('plan.refused');
    expect(error.message).toMatch(/No 4\.5\.x version .*skipping a minor version makes the automatic live migrations of running VMs fail/);
    expect(exitCodeOf((r.outcome as { error: unknown }).error)).toBe(2);
  });

  it.each([
    ['explicit hops that skip a minor', { hops: ['4.6.0'] }, /^The hop 4\.4\.10 → 4\.6\.0 skips the minor version 4\.5; skipping a minor version makes/],
    ['explicit hops that repeat a version', { hops: ['4.5.4', '4.5.4'] }, /^The hop list repeats 4\.5\.4\./],
    ['a downgrade', { target: '4.4.2' }, /^The target 4\.4\.2 is older than the deployed 4\.4\.10: downgrades are not supported\.$/],
    ['a label the profile already used', { labels: { addon: '1.4.0' } }, /^The version label 1\.4\.0 is already used by the profile vmo-core-addon/],
    ['a label below the previous one', { labels: { infra: '1.3.0' } }, /^The version label 1\.3\.0 for vmo-infra is not above its previous label 1\.4\.0\.$/],
    ['a reference profile of the wrong version', { wrongReference: true }, /holds virtual-machine-orchestrator 4\.6\.3, not 4\.5\.4/],
  ])('refuses %s', async (_name, change, reason) => {
    const refs = d.site.references.map((r) => {
      if (r.version !== '4.5.4') return r;
      if ('labels' in change) return { ...r, labels: change.labels };
      if ('wrongReference' in change) return { ...r, addon: d.site.references.find((x) => x.version === '4.6.3')!.addon };
      return r;
    });
    const site = { ...d.site, references: refs, ...('hops' in change ? { hops: change.hops } : {}), ...('target' in change ? { target: change.target } : {}) };
    const plan = planOf(await run(site));
    expect(plan.status).toBe('refused');
    expect(plan.refusal!.reason).toMatch(reason);
  });

  it('follows explicit hops, whether or not they end with the target', async () => {
    for (const hops of [['4.5.4'], ['4.5.4', '4.6.3']]) {
      const plan = planOf(await run({ ...d.site, hops }));
      expect(ladderOf(plan)).toEqual(['4.4.10→4.5.4', '4.5.4→4.6.3']);
    }
  });

  it('uses the labels the params choose when they are new and higher', async () => {
    const site = { ...d.site, references: d.site.references.map((r) => (r.version === '4.6.3' ? { ...r, labels: { addon: '2.0.0', infra: '2.0.0' } } : r)) };
    expect(labelsOf(planOf(await run(site)))).toEqual([
      ['vmo-infra 1.4.0→1.5.0', 'vmo-core-addon 1.4.0→1.5.0'],
      ['vmo-infra 1.5.0→2.0.0', 'vmo-core-addon 1.5.0→2.0.0'],
    ]);
  });

  it('steps through a values folder when no reference profile covers a minor', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'up6-values-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    mkdirSync(join(dir, 'virtual-machine-orchestrator'));
    const values = packStack('4.5.4').addon.find((p) => p.name === 'virtual-machine-orchestrator')!.values;
    writeFileSync(join(dir, 'virtual-machine-orchestrator', '4.5.4.yaml'), values);
    const site = { ...d.site, valuesDir: dir, references: d.site.references.filter((r) => r.version !== '4.5.4') };
    const plan = planOf(await run(site));
    expect(ladderOf(plan)).toEqual(['4.4.10→4.5.4', '4.5.4→4.6.3']);
    // Hop 1 knows only the orchestration pack's new defaults: the infra profile does not change in it.
    expect(plan.hops[0]!.profiles).toEqual([
      {
        role: 'addon',
        uid: d.profiles.addon.uid,
        name: 'vmo-core-addon',
        fromVersion: '1.4.0',
        toVersion: '1.5.0',
        packs: [{ name: 'virtual-machine-orchestrator', from: '4.4.10', to: '4.5.4', source: "the hop's version" }],
        reference: { kind: 'folder', path: dir },
        // Without a reference profile the other packs keep their tags, and the plan says so.
        stays: ['lb-metallb-helm 0.14.8', 'nginx 1.10.1', 'prometheus-operator 58.7.2'],
      },
    ]);
    expect(plan.hops[0]!.kubevirtVersion).toBe('v1.3.1');
    expect(labelsOf(plan)[1]).toEqual(['vmo-infra 1.4.0→1.5.0', 'vmo-core-addon 1.5.0→1.6.0']);
  });
});

describe('plan when the pack is already at the target', () => {
  it('has no hops (not an error), expects what is deployed, and lists no VM impact (nothing is published, nothing moves)', async () => {
    const d = await startDoubles({ seed: seedHealthyCluster, deployed: '4.6.3', dialect: 'spec' });
    try {
      const r = await runSteps({ site: d.site, palette: d.palette, kube: kubeFor(d.kube.kubeconfig, 'lab'), kinds: ['plan'] });
      const plan = planOf(r);
      expect(r.outcome.status).toBe('done');
      expect(plan).toMatchObject({ status: 'planned', hops: [], deployed: '4.6.3', target: '4.6.3' });
      expect(plan.notes[0]).toBe('The pack is already at 4.6.3: nothing to publish.');
      expect(plan.expectations?.profiles?.map((p) => `${p.name} ${p.version}`)).toEqual(['vmo-infra 1.6.0', 'vmo-core-addon 1.6.0']);
      expect(plan.expectations).toMatchObject({ kubevirtVersion: 'v1.4.0', cdiVersion: 'v1.61.0' });
      expect(plan.impactCounts).toEqual({ 'live-migrate': 0, evict: 0, restart: 0, 'not-running': 0 });
      expect(plan.impact).toEqual([]);
      expect(r.step('plan').summary).toBe('no hops: virtual-machine-orchestrator is already at 4.6.3; nothing is published, so no VM moves');
    } finally {
      await d.close();
    }
  });
});
