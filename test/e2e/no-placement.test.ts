/**
 * Issue 25's acceptance, through the real CLI (a child process, plain mode) against the lab's
 * `rook-ceph-no-placement` site on a real Palette's flavor, with the real kubectl: a Rook-Ceph site
 * that never set storage placement, a control-plane toleration or the VM class annotation, going
 * from VMO 4.9.3 to 4.10.0.
 *
 * - the ladder stops at the stepping stone 4.9.9 and says why; 4.10.0's profile variable is named;
 * - `diff`: the placement rules are WARN (not on this site before the upgrade), never FAIL; the
 *   console address is carried to VMO Manager's key and said "moved"; the class annotation's fix is
 *   offered and left out;
 * - plain mode without a source for LOCAL_ADMIN_PASSWORD stops before any write (exit 2);
 * - a rehearsal adds the annotation only with --accept-fix, and the report says who chose it;
 * - `start` with the usual approvals runs to the end: the drafts' PUT bodies (the journal's, whose
 *   digests the lab's audit confirms) hold no value outside the site's, the new defaults' and what
 *   was chosen; the variable is declared before the draft that uses it and its value reaches the
 *   cluster with the apply, while no file of the session holds it; the report lists the rules.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type LabHandle } from '../../src/lab/index.js';
import { labClusterVariables } from '../../src/lab/palette/variable-routes.js';
import { Redactor } from '../../src/session/redact.js';
import { SessionStore } from '../../src/session/store.js';
import { findAdditions } from '../../src/values/provenance.js';
import { relocate } from '../../src/values/relocate.js';
import { parseValues } from '../../src/values/values-document.js';
import { cli } from './support.js';
import type { Timeline } from '../../src/report/timeline/schema.js';
import { readCheckedReport } from '../support/report-pictures.js';

const PASSWORD = 'Lab-only s3cret, not a real one';
const dir = mkdtempSync(join(tmpdir(), 'up-i25-e2e-'));
let lab: LabHandle;
/** The site's values of each pack as deployed before anything ran. */
let deployed: Map<string, string>;
let deployedTags: Map<string, string>;

beforeAll(async () => {
  lab = await startLab({ scenario: 'rook-ceph-no-placement', stateDir: join(dir, 'lab'), flavor: 'palette', speed: 300, seed: 25 });
  const packs = [lab.profileUids.addon, lab.profileUids.infra].flatMap((uid) => lab.profiles.get(uid)!.published!.packs);
  deployed = new Map(packs.map((p) => [p.name, p.values]));
  deployedTags = new Map(packs.map((p) => [p.name, p.tag]));
}, 60_000);
afterAll(async () => {
  await lab?.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = (extra: NodeJS.ProcessEnv = {}) => ({ UPGRADE_PILOT_API_KEY: lab.apiKey, ...extra });
const approvals = ['--approve', 'draft,publish,apply,repave', '--approve-all-restarts'];
const mutations = () => lab.audit.entries({ api: 'palette' }).filter((e) => e.method !== 'GET');

/** Every file under a folder (the session folder), as text. */
function filesUnder(root: string): Array<{ path: string; text: string }> {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .map((name) => join(root, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => ({ path, text: readFileSync(path, 'utf8') }));
}

/** The one session in a state folder. */
function onlySession(stateDir: string) {
  const store = new SessionStore(stateDir, new Redactor());
  const [id] = store.ids();
  return { state: store.load(id!), dir: join(stateDir, 'sessions', id!) };
}

async function registryDefaults(name: string, tag: string): Promise<string> {
  const filters = encodeURIComponent(`spec.name=${name}ANDspec.version=${tag}`);
  const res = await fetch(`${lab.paletteUrl}/v1/packs?filters=${filters}`, { headers: { ApiKey: lab.apiKey, ProjectUid: lab.projectUid } });
  const body = (await res.json()) as { items: Array<{ spec: { values: string } }> };
  return body.items[0]!.spec.values;
}

describe('a Rook-Ceph site without placement settings, VMO 4.9.3 → 4.10.0, in plain mode', () => {
  it('plan: the ladder stops at 4.9.9, says why, and names LOCAL_ADMIN_PASSWORD', async () => {
    const r = await cli(['plan', '--params', lab.params], env());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('4.9.3 ─▶ 4.9.9 ─▶ 4.10.0');
    expect(r.stdout).toMatch(/Hop 1: 4\.9\.3 → 4\.9\.9 .*4\.9\.9 is a stepping stone: 4\.10\.0 and later need 4\.9\.9 or later first/);
    expect(r.stdout).toMatch(/Hop 2: 4\.9\.9 → 4\.10\.0[\s\S]*new profile variable LOCAL_ADMIN_PASSWORD \(add-on profile, 4\.10\.0\)/);
  }, 120_000);

  it('diff: the placement rules are WARN, never FAIL; the console address is moved; the annotation fix is offered, left out', async () => {
    const r = await cli(['diff', '--params', lab.params], env());
    expect(r.code, r.stderr).toBe(0);
    const rules = r.stdout.split('\n').filter((l) => /^ {2}(PASS|FAIL|WARN|N\/A) rule /.test(l));
    expect(rules.filter((l) => l.startsWith('  FAIL'))).toEqual([]);
    for (const title of ['Storage runs on the chosen nodes', 'Storage may run on control-plane nodes']) {
      const mine = rules.filter((l) => l.includes(`rule ${title}:`));
      expect(mine).toHaveLength(2); // both hops: hop 1 leaves the infrastructure profile alone, and its rules are still judged
      for (const l of mine) expect(l).toMatch(/^ {2}WARN rule .*: not on this site before the upgrade \(left as it is\): `charts\.rook-ceph-cluster\.cephClusterSpec\.placement\.all\.(nodeAffinity|tolerations)` is not set/);
    }
    expect(r.stdout).toMatch(/carried +charts\.virtual-machine-orchestrator\.vmo-manager\.platform\.baseUrl: https:\/\/vmo\.dc1\.example\.internal → https:\/\/vmo\.dc1\.example\.internal {2}\(moved from charts\.virtual-machine-orchestrator\.appConfig\.clusterInfo\.consoleBaseAddress\)/);
    expect(r.stdout).toMatch(/CONFLICT +charts\.virtual-machine-orchestrator\.snapshotController: \{"installCRDs":false\} → \(absent\) \[dropped\] {2}\(removed in the new version: dropped unless kept/);
    expect(r.stdout).toMatch(/FIX OFFERED storage-class-virt-annotation on csi-rook-ceph-helm: .*is-default-virt-class"\]` = true; This StorageClass becomes the default class for VM disks.*\(left out; --accept-fix storage-class-virt-annotation adds it\)/);
    expect(mutations()).toEqual([]);
  }, 120_000);

  it('plain start with no source for LOCAL_ADMIN_PASSWORD stops before any write, saying how to give one', async () => {
    const state = join(dir, 'no-source');
    const r = await cli(['start', '--params', lab.params, '--state-dir', state, ...approvals], env());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('The plan introduces the profile variable(s) LOCAL_ADMIN_PASSWORD (hop 2), and nothing says where their values come from.');
    expect(r.stderr).toContain('--variable LOCAL_ADMIN_PASSWORD=env:VAR');
    expect(mutations()).toEqual([]);
    // A value on the command line is refused as such.
    const bad = await cli(['start', '--params', lab.params, '--state-dir', state, '--variable', 'LOCAL_ADMIN_PASSWORD=hunter22'], env());
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('never the value');
  }, 120_000);

  it('a rehearsal adds the class annotation only with --accept-fix, and its report says who chose it', async () => {
    const annotation = 'storageclass.kubevirt.io/is-default-virt-class';
    const infraPut = (stateDir: string) => {
      const { state } = onlySession(stateDir);
      const put = Object.values(state.mutations).find((m) => m.request.target === 'palette' && m.request.method === 'PUT' && m.request.summary.includes('vmo-infra'));
      const body = (put!.request as { body: { spec: { template: { packs: Array<{ name: string; values: string }> } } } }).body;
      return body.spec.template.packs.find((p) => p.name === 'csi-rook-ceph-helm')!.values;
    };
    const without = join(dir, 'rehearse-without');
    const r1 = await cli(['rehearse', '--params', lab.params, '--state-dir', without], env({ VMO_PW: PASSWORD }));
    expect(r1.code, r1.stderr).toBe(0);
    expect(infraPut(without)).not.toContain(annotation);

    const withFix = join(dir, 'rehearse-with');
    const r2 = await cli(['rehearse', '--params', lab.params, '--state-dir', withFix, '--accept-fix', 'storage-class-virt-annotation'], env());
    expect(r2.code, r2.stderr).toBe(0);
    expect(r2.stdout).toMatch(/hop 2 fix storage-class-virt-annotation \(csi-rook-ceph-helm\): .* is in the draft, chosen by flag --accept-fix storage-class-virt-annotation/);
    expect(infraPut(withFix)).toContain(`${annotation}: "true"`);
    const report = JSON.parse(readFileSync(join(onlySession(withFix).dir, 'report.json'), 'utf8')) as { additions: Array<{ rule?: string; included: boolean; chosenBy?: string }> };
    expect(report.additions).toEqual([expect.objectContaining({ rule: 'storage-class-virt-annotation', included: true, chosenBy: 'flag --accept-fix storage-class-virt-annotation' })]);
    expect(mutations()).toEqual([]);
  }, 180_000);

  it('start with the usual approvals runs to the end; the drafts hold nothing nobody chose; the variable is set and written nowhere', async () => {
    const state = join(dir, 'live');
    const r = await cli(['start', '--params', lab.params, '--state-dir', state, ...approvals, '--variable', 'LOCAL_ADMIN_PASSWORD=env:VMO_PW'], env({ VMO_PW: PASSWORD }), 300_000);
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(`${r.stdout}${r.stderr}`).not.toContain(PASSWORD);
    const { state: session, dir: sessionDir } = onlySession(state);

    // Every draft PUT as sent (its digest is the one the lab recorded), against what the site had,
    // the new versions' defaults (the move applied) and nothing else: no value nobody chose.
    const puts = Object.values(session.mutations).filter((m) => m.request.target === 'palette' && m.request.method === 'PUT' && /^\/v1\/clusterprofiles\/[^/]+$/.test(m.request.path));
    expect(puts).toHaveLength(3);
    const audited = lab.audit.entries({ api: 'palette', method: 'PUT' }).filter((e) => /^\/v1\/clusterprofiles\/[^/]+$/.test(e.path)).map((e) => e.bodyDigest);
    const notes = [{ from: 'charts.virtual-machine-orchestrator.appConfig.clusterInfo.consoleBaseAddress', to: 'charts.virtual-machine-orchestrator.vmo-manager.platform.baseUrl' }];
    for (const put of puts) {
      const body = (put.request as { body: unknown }).body as { spec: { template: { packs: Array<{ name: string; tag: string; values: string }> } } };
      expect(audited).toContain(createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 16));
      for (const pack of body.spec.template.packs) {
        const site = deployed.get(pack.name)!;
        // A pack that keeps its tag keeps its values byte for byte (no fix was chosen in this run).
        if (pack.tag === deployedTags.get(pack.name)) expect(pack.values, `${pack.name} keeps its tag`).toBe(site);
        const fresh = parseValues(await registryDefaults(pack.name, pack.tag));
        const moved = relocate(parseValues(site), notes, fresh).values;
        expect(findAdditions(pack.values, [site, moved, fresh]), `${pack.name} ${pack.tag}`).toEqual([]);
      }
    }

    // Declared on the new version before the draft that uses it; the value reached the cluster with the apply.
    const calls = lab.audit.entries({ api: 'palette' }).filter((e) => e.method !== 'GET').map((e) => `${e.method} ${e.path}`);
    const declare = calls.findIndex((c) => /^PUT \/v1\/clusterprofiles\/[^/]+\/variables$/.test(c));
    const addonUid = declare >= 0 ? calls[declare]!.split('/')[3]! : '';
    expect(declare).toBeGreaterThan(-1);
    expect(calls.indexOf(`PUT /v1/clusterprofiles/${addonUid}`)).toBeGreaterThan(declare);
    expect(labClusterVariables(lab.profiles, lab.clusterUid)[addonUid]).toEqual({ LOCAL_ADMIN_PASSWORD: PASSWORD });
    for (const f of filesUnder(sessionDir)) expect(f.text.includes(PASSWORD), f.path).toBe(false);
    const apply = Object.values(session.mutations).find((m) => m.request.target === 'palette' && m.request.method === 'PATCH' && m.request.path.includes('/profiles') && JSON.stringify((m.request as { body?: unknown }).body).includes('LOCAL_ADMIN_PASSWORD'));
    expect(JSON.stringify((apply!.request as { body?: unknown }).body)).toContain('<value of LOCAL_ADMIN_PASSWORD, not recorded>');

    // The report lists the rules the site did not have, as such.
    const report = readCheckedReport<{ rules: Array<{ id: string; status: string }>; additions: unknown[]; variables: Array<{ name: string }>; timeline: Timeline }>(sessionDir).data;
    for (const id of ['storage-node-affinity', 'storage-run-on-control-plane']) expect(report.rules.filter((x) => x.id === id).map((x) => x.status)).toEqual(['notOnSite', 'notOnSite']);
    expect(report.rules.filter((x) => x.status === 'fail')).toEqual([]);
    expect(report.variables.map((v) => v.name)).toEqual(['LOCAL_ADMIN_PASSWORD']);
    expect(readFileSync(join(sessionDir, 'report.md'), 'utf8')).toContain('| Storage runs on the chosen nodes | WARN: not on this site before the upgrade |');
  }, 360_000);
});
