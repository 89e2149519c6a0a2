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
    expect(data.mutations.map((m) => [m.request, m.outcome, m.approval?.startsWith('approved (flag --approve')])).toEqual([
      ['PUT /v1/clusterprofiles/profile-infra-0001', 'sent', true],
      ['PUT /v1/clusterprofiles/profile-addon-0001', 'sent', true],
      ['PATCH /v1/clusterprofiles/profile-infra-0001/publish', 'sent', true],
      ['PATCH /v1/clusterprofiles/profile-addon-0001/publish', 'sent', true],
    ]);
    expect(data.mutations[1]?.bodySummary).toMatch(/^version 1\.3\.0; packs .*virtual-machine-orchestrator@4\.7\.0/);
    expect(data.hops).toEqual([
      {
        index: 1,
        from: '4.5.4',
        to: '4.6.3',
        profiles: [
          { name: 'vmo-infra', fromVersion: '2.0.0', toVersion: '2.1.0', packs: ['cni-cilium-oss 1.16.3 → 1.17.1'] },
          { name: 'vmo-core', fromVersion: '1.2.0', toVersion: '1.3.0', packs: ['virtual-machine-orchestrator 4.6.3 → 4.7.0'] },
        ],
      },
    ]);
    expect(data.profilesAfter.map((p) => `${p.name} ${p.version}`)).toEqual(['vmo-infra 2.1.0', 'vmo-core 1.3.0']);
    const md = renderMarkdown(data);
    expect(md).toMatch(/^# Upgrade report: Test\n/);
    expect(md).toContain('## Changes sent');
    expect(md).toMatch(/\| .* \| hop1\.publish-addon \| publish vmo-core 1\.3\.0 \| `PATCH \/v1\/clusterprofiles\/profile-addon-0001\/publish` \|/);
    expect(md).toContain('### Hop 1, vmo-core / virtual-machine-orchestrator: 4.6.3 → 4.7.0 (+0 −0)');
    expect(md).toMatch(/\| hop1\.reconcile \| Wait for the cluster to pick up the profiles \| succeeded \|/);
  });

  it('a rehearsal report lists the planned calls and says nothing was sent', async () => {
    lab = await startLab('spec');
    const run = paletteRun(lab, 'spec', runbookYaml(onePackHop(), fullHopSteps), { dryRun: true });
    expect((await run.run()).status).toBe('done');
    const md = renderMarkdown(buildReport(run.store.load(run.id)));
    expect(md).toMatch(/^# Rehearsal report/);
    expect(md).toContain('**nothing was sent**');
    expect(md).toContain('## Planned calls (recorded, not sent)');
    expect(md).toMatch(/`PUT \/v1\/clusterprofiles\/profile-addon-0001` \| version 1\.3\.0; packs .* \| rehearsal at .* \| recorded \|/);
  });

  it('`report` writes report.md and report.json into the session folder and prints the Markdown', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'up-report-'));
    const first = await runCli(['start', '--runbook', 'test/fixtures/runbooks/test.yaml', '--state-dir', stateDir, '--approve', 'draft'], { world: fakeWorld() });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/report: .*report\.md/);
    const id = /session (\S+) \(live\)/.exec(first.stdout)![1]!;
    const r = await runCli(['report', '--state-dir', stateDir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^# Upgrade report: Test runbook/);
    expect(r.stderr).toMatch(/report written: .*report\.md and .*report\.json/);
    const dir = join(stateDir, 'sessions', id);
    expect(existsSync(join(dir, 'report.md'))).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'))).toMatchObject({ schema: 1, outcome: { status: 'done' } });
  });
});
