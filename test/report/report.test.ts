import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { noApprovals } from '../../src/engine/approval-policy.js';
import { buildReport } from '../../src/report/build.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { startLab, type Lab } from '../lab/palette/support.js';
import { runCli } from '../support/cli-harness.js';
import { fakeWorld } from '../support/fake-effects.js';
import { fullHopSteps, onePackHop, paletteRun, runbookYaml } from '../support/palette-harness.js';

let lab: Lab | undefined;
afterEach(async () => {
  await lab?.close();
  lab = undefined;
});

describe('report', () => {
  it('lists every change sent with its approval, the hops and the payload diffs', async () => {
    lab = await startLab('spec');
    const run = paletteRun(lab, 'spec', runbookYaml(onePackHop(), fullHopSteps));
    expect((await run.run({ approvals: { ...noApprovals, gates: ['draft', 'publish'] } })).status).toBe('done');
    const data = buildReport(run.store.load(run.id));
    expect(data.requests.map((m) => [m.request, m.outcome, m.hop, m.approval?.by, m.approval?.flag])).toEqual([
      ['PUT /v1/clusterprofiles/profile-infra-0001', 'sent', 1, 'flag', '--approve draft'],
      ['PUT /v1/clusterprofiles/profile-addon-0001', 'sent', 1, 'flag', '--approve draft'],
      ['PATCH /v1/clusterprofiles/profile-infra-0001/publish', 'sent', 1, 'flag', '--approve publish'],
      ['PATCH /v1/clusterprofiles/profile-addon-0001/publish', 'sent', 1, 'flag', '--approve publish'],
    ]);
    expect(data.requests[1]?.body).toMatch(/^version 1\.3\.0; packs .*virtual-machine-orchestrator@4\.7\.0/);
    expect(data.hops).toEqual([
      {
        index: 1,
        from: '4.5.4',
        to: '4.6.3',
        profiles: [
          { name: 'vmo-infra', role: 'infra', uid: 'profile-infra-0001', fromVersion: '2.0.0', toVersion: '2.1.0', packs: [{ name: 'cni-cilium-oss', from: '1.16.3', to: '1.17.1' }] },
          { name: 'vmo-core', role: 'addon', uid: 'profile-addon-0001', fromVersion: '1.2.0', toVersion: '1.3.0', packs: [{ name: 'virtual-machine-orchestrator', from: '4.6.3', to: '4.7.0' }] },
        ],
      },
    ]);
    expect(data.profiles.after.map((p) => `${p.name} ${p.version}`)).toEqual(['vmo-infra 2.1.0', 'vmo-core 1.3.0']);
    // The way back: the versions before the first hop, and how to return to them on this profile API.
    expect(data.rollback.map((w) => [w.profile, w.uid, w.version])).toEqual([
      ['vmo-infra', 'profile-infra-0001', '2.0.0'],
      ['vmo-core', 'profile-addon-0001', '1.2.0'],
    ]);
    expect(data.rollback[1]!.how).toMatch(/under a new version label, then publish it/);
    expect(data.decisions.map((d) => `${d.gate} ${d.choice} ${d.by} ${d.flag}`)).toEqual(['draft approve flag --approve draft', 'draft approve flag --approve draft', 'publish approve flag --approve publish', 'publish approve flag --approve publish']);
    const md = renderMarkdown(data);
    expect(md).toMatch(/^# Upgrade report: Test\n/);
    expect(md).toContain('## Hop 1: 4.5.4 → 4.6.3');
    expect(md).toMatch(/\n- (\S+ )?\d\d:\d\d:\d\d publish vmo-core 1\.3\.0: `PATCH \/v1\/clusterprofiles\/profile-addon-0001\/publish` · flag --approve publish · sent\n/);
    expect(md).toContain('- **vmo-core** (addon): version 1.2.0, uid profile-addon-0001');
    // An unchanged values payload is one line in the appendix.
    expect(md).toContain('- hop 1, vmo-core / virtual-machine-orchestrator 4.6.3 → 4.7.0: values unchanged (tag only)');
    expect(md).toMatch(/\| hop1\.reconcile \| succeeded \|/);
  });

  it('a rehearsal report lists the planned calls and says nothing was sent', async () => {
    lab = await startLab('spec');
    const run = paletteRun(lab, 'spec', runbookYaml(onePackHop(), fullHopSteps), { dryRun: true });
    expect((await run.run()).status).toBe('done');
    const md = renderMarkdown(buildReport(run.store.load(run.id)));
    expect(md).toMatch(/^# Rehearsal report/);
    expect(md).toContain('**nothing was sent**');
    expect(md).toContain('Calls recorded (not sent) (4):');
    expect(md).toMatch(/`PUT \/v1\/clusterprofiles\/profile-addon-0001` \(version 1\.3\.0; packs .*\) · policy: a rehearsal sends nothing · recorded/);
  });

  it('`report` writes report.md, report.json and report.html into the session folder and prints the Markdown; --timeline prints the timeline fitted to COLUMNS', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'up-report-'));
    const first = await runCli(['start', '--runbook', 'test/fixtures/runbooks/test.yaml', '--state-dir', stateDir, '--approve', 'draft'], { world: fakeWorld() });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/report: .*report\.md/);
    const id = /session (\S+) \(live\)/.exec(first.stdout)![1]!;
    const r = await runCli(['report', '--state-dir', stateDir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^# Upgrade report: Test runbook/);
    expect(r.stderr).toMatch(/report written: .*report\.md, .*report\.json and .*report\.html/);
    const dir = join(stateDir, 'sessions', id);
    expect(existsSync(join(dir, 'report.md'))).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'))).toMatchObject({ schema: 2, outcome: { status: 'done' } });
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toMatch(/^<!DOCTYPE html>[\s\S]*<svg [\s\S]*<\/svg>[\s\S]*<\/html>\n$/);
    for (const columns of [80, 120]) {
      const t = await runCli(['report', '--timeline', '--state-dir', stateDir], { env: { COLUMNS: String(columns) } });
      expect(t.code).toBe(0);
      const lines = t.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^Upgrade of /);
      expect(lines.filter((l) => /^ {2}Write draft +█+ +\S+$/.test(l))).toHaveLength(2);
      expect(Math.max(...lines.map((l) => [...l].length))).toBeLessThanOrEqual(columns);
    }
  });
});
