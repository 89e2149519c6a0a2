/**
 * Stages by tag and a cluster that vanishes, end to end on a served fleet lab of 3 clusters (Palette
 * tags region=east on store-001 and store-003, region=west on store-002). First a fleet that takes its
 * clusters from Palette (the add-on profile's clusters tagged region=east) plans and freezes them,
 * waiting at its stage's approval with nothing sent. Then a stage `selector: { tags:
 * [region=east] }` takes the east clusters when the plan is frozen and waits at its approval; store-003
 * is then deleted from Palette and store-002 tagged east; `fleet resume --approve stage` upgrades
 * store-001 and reports store-003 vanished (not failed: the stage is done, exit 0). store-002, tagged
 * after the plan was frozen, is not pulled in: it is in no stage and never touched. Then, on the same
 * lab, `fleet plan` of an ingress address per cluster: a cluster-specific profile, then the profile
 * variable once the shared add-on profile declares one where the rule writes the address.
 */
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../e2e/support.js';
import { serveFleetLab, type ServedFleetLab } from './support.js';

const approve = ['--approve', 'draft,publish,apply,repave,cancel-migrations', '--approve-all-restarts'];

describe('fleet: a stage by tag, and a cluster gone from Palette after the plan', () => {
  let lab: ServedFleetLab;
  let stateDir: string;
  let env: NodeJS.ProcessEnv;
  let file: string;

  beforeAll(async () => {
    lab = await serveFleetLab(3, []);
    stateDir = mkdtempSync(join(tmpdir(), 'up-fleet-selector-'));
    env = { UPGRADE_PILOT_API_KEY: lab.json.apiKey };
    const doc = parse(readFileSync(lab.json.fleet, 'utf8')) as Record<string, unknown>;
    file = join(lab.dir, 'east.yaml');
    // The stage's own written policy approves its clusters' gates and restarts: the command line gives only --approve stage.
    writeFileSync(file, stringify({ ...doc, fleet: 'east', stages: [{ name: 'east', selector: { tags: ['region=east'] }, approval: true, maxConcurrency: 2, approve: ['draft', 'publish', 'apply', 'repave', 'cancel-migrations'], restarts: 'approve' }] }));
  }, 180_000);
  afterAll(async () => {
    await lab?.stop();
  });

  // First, before the run below changes anything: the clusters that run the add-on profile, tagged region=east.
  it('takes its clusters from Palette (the profile\'s clusters in use, by tag) and freezes them with the plan', async () => {
    const doc = parse(readFileSync(lab.json.fleet, 'utf8')) as { defaults: { profiles: { addon: { uid: string } } } } & Record<string, unknown>;
    const fromPalette = join(lab.dir, 'from-palette.yaml');
    const profile = doc.defaults.profiles.addon.uid;
    writeFileSync(fromPalette, stringify({ ...doc, fleet: 'from-palette', clusters: { fromPalette: { profile, tags: ['region=east'], kubeconfigDir: 'kubeconfigs', context: 'upgrade-pilot-lab' } }, stages: [{ name: 'east', clusters: ['store-001', 'store-003'], approval: true }] }));

    const keyless = await cli(['fleet', 'plan', '--fleet', fromPalette, '--state-dir', stateDir], {});
    expect(keyless.stdout).toMatch(new RegExp(`the clusters that run profile ${profile} tagged region=east \\(read from Palette when the plan is frozen; give the API key`));
    const plan = JSON.parse((await cli(['fleet', 'plan', '--json', '--fleet', fromPalette, '--state-dir', stateDir], env)).stdout) as { clusters: Array<{ name: string }> };
    expect(plan.clusters.map((c) => c.name)).toEqual(['store-001', 'store-003']);
    // With the key the plan reads where each starts, and the profile versions they share (made once, by the first).
    const text = (await cli(['fleet', 'plan', '--fleet', fromPalette, '--state-dir', stateDir], env)).stdout;
    expect(text).toContain('    4.5.4 → 4.6.3 (1 hop): store-001, store-003');
    expect(text).toMatch(/    vmo-infra 1\.5\.0 \(\w+\), run by 2 clusters: 1 new version, made by store-001 \(stage east\)/);
    expect(text).toMatch(/    vmo-core-addon 1\.5\.0 \(\w+\), run by 2 clusters: 1 new version, made by store-001 \(stage east\)/);

    const started = await cli(['fleet', 'start', '--fleet', fromPalette, '--state-dir', stateDir, ...approve], env);
    expect(started.stdout).toContain(`the clusters that run profile ${profile} tagged region=east: store-001, store-003`);
    expect(started.code).toBe(3);
    const status = JSON.parse((await cli(['fleet', 'status', '--json', '--fleet', fromPalette, '--state-dir', stateDir], env)).stdout) as { clusters: Array<{ name: string; paramsFile: string }> };
    expect(status.clusters.map((c) => c.name)).toEqual(['store-001', 'store-003']);
    // Each frozen params file holds DIR/<name> as the cluster's kubeconfig.
    expect(readFileSync(status.clusters[0]!.paramsFile, 'utf8')).toContain(join(lab.dir, 'kubeconfigs', 'store-001'));
    const changes = (await lab.audit()).filter((e) => e.api === 'palette' && e.method !== 'GET');
    expect(changes).toEqual([]);
  });

  it('selects by Palette tag at the plan, and reports the vanished cluster without failing the stage', async () => {
    const plan = await cli(['fleet', 'plan', '--fleet', file, '--state-dir', stateDir], env);
    expect(plan.stdout).toMatch(/stage east: the clusters tagged region=east \(read from Palette when the plan is frozen\)/);
    expect(plan.stdout).toContain('  stage east (tagged region=east) today: store-001, store-003');

    expect(plan.stdout).toContain("its clusters pass draft, publish, apply, repave, cancel-migrations without asking (this file approves them), VM restarts approved by this file (not one outside its owner's restart window)");

    const started = await cli(['fleet', 'start', '--fleet', file, '--state-dir', stateDir], env);
    expect(started.stdout).toMatch(/stage east: tagged region=east: store-001, store-003/);
    expect(started.stdout).toMatch(/stage east waits for approval/);
    expect(started.code).toBe(3);

    expect((await lab.control('/_lab/fleet-remove', { cluster: 'store-003' })).status).toBe(200);
    // store-002 is tagged east after the plan: the target set is frozen, it is not pulled in.
    expect((await lab.control('/_lab/fleet-tags', { cluster: 'store-002', labels: { region: 'east', vmo: 'spectro__tag' } })).status).toBe(200);
    const resumed = await cli(['fleet', 'resume', '--fleet', file, '--state-dir', stateDir, '--approve', 'stage'], env, 600_000);
    expect(resumed.stdout).toMatch(/store-003: vanished: Palette no longer has it \(deleted after the plan\); not failed, not upgraded/);
    expect(resumed.stdout).toContain('store-001: done');
    expect(resumed.stdout).toContain('stage east: done');
    expect(resumed.code).toBe(0);

    const status = JSON.parse((await cli(['fleet', 'status', '--json', '--fleet', file, '--state-dir', stateDir], env)).stdout) as { clusters: Array<{ name: string; status: string }> };
    expect(status.clusters.map((c) => `${c.name}:${c.status}`)).toEqual(['store-001:done', 'store-003:vanished']);
    // Every gate of store-001's session was answered by the stage's written policy, and the record says so.
    const report = JSON.parse((await cli(['fleet', 'report', '--format', 'json', '--fleet', file, '--state-dir', stateDir], env)).stdout) as { clusters: Array<{ cluster: string; decisions: Array<{ gate: string; choice: string; by: string; detail?: string }> }> };
    const decisions = report.clusters.find((c) => c.cluster === 'store-001')!.decisions;
    // The stage policy's record names where it is written in the fleet file.
    expect(decisions.filter((d) => d.gate === 'apply')).toEqual([expect.objectContaining({ choice: 'approve', by: 'policy', detail: expect.stringMatching(/^fleet east, stage east \(\S+\.yaml:\d+\): approve apply$/), where: expect.stringMatching(/^\S+\.yaml:\d+$/) })]);
    expect(decisions.filter((d) => d.gate === 'restart').length).toBeGreaterThan(0);
    for (const d of decisions.filter((x) => x.gate === 'restart')) expect(d).toMatchObject({ choice: 'approve', by: 'policy', detail: expect.stringMatching(/^fleet east, stage east \(\S+\.yaml:\d+\): restarts: approve$/) });
    // store-002 (west) was never in the plan: Palette saw no change for it.
    const west = lab.json.clusters.find((c) => c.name === 'store-002')!.uid;
    expect((await lab.audit()).filter((e) => e.api === 'palette' && e.method !== 'GET' && e.path.includes(west))).toEqual([]);
  });

  // After the run above (the plan reads the profile, it changes nothing): an ingress address per cluster on the shared add-on profile.
  it('plans a value that differs per cluster as a cluster-specific profile, or as the profile variable the shared profile declares for it', async () => {
    const doc = parse(readFileSync(lab.json.fleet, 'utf8')) as { clusters: Array<{ site?: Record<string, unknown> }> } & Record<string, unknown>;
    const ips = join(lab.dir, 'ips.yaml');
    writeFileSync(ips, stringify({ ...doc, fleet: 'ips', clusters: doc.clusters.map((c, i) => ({ ...c, site: { ...c.site, ingressIP: `10.1.0.${50 + i}` } })) }));
    const plan = async (e: NodeJS.ProcessEnv) => cli(['fleet', 'plan', '--json', '--fleet', ips, '--state-dir', stateDir], e);
    type Reach = { how: string; variable?: string; clusters?: string[] };
    const reachOf = (stdout: string) => (JSON.parse(stdout) as { perCluster: { values: Array<{ key: string; reach: Reach[] }>; unread: unknown[] } }).perCluster;

    const keyless = await cli(['fleet', 'plan', '--fleet', ips, '--state-dir', stateDir], {});
    expect(keyless.code).toBe(0);
    expect(keyless.stdout).toContain('give the API key (UPGRADE_PILOT_API_KEY or --api-key-file) and plan again: the plan then reads where each cluster starts');

    // After the run: store-001 upgraded, store-002 not, store-003 gone from Palette. Each its own ladder; the gone one named and left out.
    const text = (await cli(['fleet', 'plan', '--fleet', ips, '--state-dir', stateDir], env)).stdout;
    expect(text).toContain('  left out: store-003: Palette has no such cluster (gone before the plan was made)');
    expect(text).toContain('    4.6.3: already at 4.6.3 (nothing to publish): store-001');
    expect(text).toContain('    4.5.4 → 4.6.3 (1 hop): store-002');
    expect(text).toContain('clusters that start at different versions climb their own ladders');
    expect(text).not.toContain('shared profile versions');
    expect(keyless.stdout).toMatch(/site\.ingressIP: store-001 10\.1\.0\.50, store-002 10\.1\.0\.51, store-003 10\.1\.0\.52\n\s+a Palette profile variable if the shared addon profile vmo-core-addon \(\w+\) declares one for that setting \(rule ingress-fixed-address\), else a cluster-specific addon profile for store-001, store-002, store-003: not read from Palette \(no API key\)/);
    expect(keyless.stdout).toMatch(/customization rules are checked per cluster/);

    const before = reachOf((await plan(env)).stdout);
    expect(before.unread).toEqual([]);
    expect(before.values.find((v) => v.key === 'site.ingressIP')!.reach).toMatchObject([{ how: 'cluster-profile', role: 'addon', clusters: ['store-001', 'store-002', 'store-003'], rule: 'ingress-fixed-address' }]);

    // The operator declares INGRESS_IP on the shared version and references it where the rule writes the address (declare first: Palette refuses the other order).
    const addon = (parse(readFileSync(lab.json.fleet, 'utf8')) as { defaults: { profiles: { addon: { uid: string } } } }).defaults.profiles.addon.uid;
    const headers = { ApiKey: lab.json.apiKey, ProjectUid: lab.json.projectUid, 'Content-Type': 'application/json' };
    const put = (path: string, body: unknown) => fetch(`${lab.json.paletteUrl}${path}`, { method: 'PUT', headers, body: JSON.stringify(body) });
    expect((await put(`/v1/clusterprofiles/${addon}/variables`, { variables: [{ name: 'INGRESS_IP', displayName: 'Ingress address', format: 'ipv4' }] })).status).toBe(204);
    const profile = await lab.get<{ metadata: { name: string }; spec: { published: { profileVersion: string; type: string; packs: Array<{ name: string; values: string }> } } }>(`/v1/clusterprofiles/${addon}`);
    const packs = profile.spec.published.packs.map((p) => (p.name === 'nginx' ? { ...p, values: p.values.replace(/loadBalancerIP: .*/, "loadBalancerIP: '{{.spectro.var.INGRESS_IP}}'") } : p));
    expect(packs.find((p) => p.name === 'nginx')!.values).toContain('{{.spectro.var.INGRESS_IP}}');
    expect((await put(`/v1/clusterprofiles/${addon}`, { metadata: { name: profile.metadata.name }, spec: { version: profile.spec.published.profileVersion, template: { type: profile.spec.published.type, packs } } })).status).toBe(204);

    const after = reachOf((await plan(env)).stdout);
    expect(after.values.find((v) => v.key === 'site.ingressIP')!.reach).toMatchObject([{ how: 'variable', role: 'addon', variable: 'INGRESS_IP', clusters: ['store-001', 'store-002', 'store-003'] }]);
  });
});
