/**
 * The fleet report from a fleet journal and the clusters' session reports (a fixture of each): every
 * cluster once with its versions, VM fates, downtime, decisions (the session's and the fleet's stage
 * approvals), skips, retries, failures with the command to go on; the JSON validates against the
 * shipped schema, which the code generates. After changing src/fleet/report-schema.ts, regenerate:
 *   UPDATE_REPORT_SCHEMA=1 npx vitest run test/fleet/report.test.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildFleetReport, vmSummary } from '../../src/fleet/report-build.js';
import { fleetJunit } from '../../src/fleet/report-junit.js';
import { fleetMarkdown } from '../../src/fleet/report-markdown.js';
import { fleetReportJsonSchema } from '../../src/fleet/report-schema.js';
import type { FleetEvent } from '../../src/fleet/types.js';
import { buildReport } from '../../src/report/build.js';
import type { ReportData, ReportVm } from '../../src/report/model.js';
import { storyState } from '../support/timeline-story.js';
import { planEvent } from './plan-fixture.js';

const schemaFile = new URL('../../schemas/fleet-report.schema.json', import.meta.url);
const t = (s: number) => new Date(Date.UTC(2026, 10, 27, 10, 0, s)).toISOString();

const planned = planEvent(
  t(0),
  [
    { name: 'canary', clusters: ['s1'], maxConcurrency: 1, failureThreshold: 1, approval: false },
    { name: 'wave-1', clusters: ['s2', 's3', 's4', 's5'], maxConcurrency: 2, failureThreshold: 1, approval: true, approve: ['draft', 'apply'], restarts: 'approve', at: { file: '/ops/edge.yaml', line: 12 } },
  ],
  [{ name: 's9', uid: 'uid-s9', reason: 'a cluster template manages it (template tpl-1)' }],
);

/** s1 upgraded; s2 failed, retried, upgraded; s3 failed (resume command); s4 skipped by the operator; s5 untouched. */
const startApprovals = { gates: ['draft', 'publish'], restarts: [], allRestarts: true, skipRestarts: [], acceptFixes: [], revoked: [] };
const events: FleetEvent[] = [
  planned,
  { type: 'fleet.run', at: t(1), by: 'ana@jump', command: 'start', approvals: startApprovals, added: [], revoked: [] },
  { type: 'stage.started', at: t(1), stage: 'canary' },
  { type: 'cluster.started', at: t(2), cluster: 's1', session: 'sess-1', attempt: 1, resumed: false },
  { type: 'cluster.ended', at: t(62), cluster: 's1', session: 'sess-1', outcome: 'done', exitCode: 0 },
  { type: 'stage.ended', at: t(63), stage: 'canary', outcome: 'done' },
  { type: 'stage.approved', at: t(70), stage: 'wave-1', by: 'ana@jump', how: 'key y' },
  { type: 'stage.started', at: t(71), stage: 'wave-1' },
  { type: 'cluster.started', at: t(72), cluster: 's2', session: 'sess-2', attempt: 1, resumed: false },
  { type: 'cluster.started', at: t(73), cluster: 's3', session: 'sess-3', attempt: 1, resumed: false },
  { type: 'cluster.ended', at: t(80), cluster: 's2', session: 'sess-2', outcome: 'failed', exitCode: 1, message: 'cni 1.17 failed on s2' },
  { type: 'stage.halting', at: t(80), stage: 'wave-1', why: '1 failure(s) reached the threshold 1 (last: s2)', carrying: ['s3'] },
  { type: 'cluster.ended', at: t(90), cluster: 's3', session: 'sess-3', outcome: 'failed', exitCode: 1, message: 'node n1 NotReady' },
  { type: 'stage.ended', at: t(91), stage: 'wave-1', outcome: 'failed', message: '1 failure(s) reached the threshold 1 (last: s2); not started: s4, s5' },
  { type: 'cluster.skipped', at: t(100), cluster: 's4', reason: 'store closed', by: 'bo@desk' },
  { type: 'fleet.run', at: t(109), by: 'bo@desk', command: 'retry', approvals: { ...startApprovals, gates: ['draft', 'publish', 'repave'], revoked: ['apply'] }, added: ['--approve repave'], revoked: ['apply'] },
  { type: 'cluster.started', at: t(110), cluster: 's2', session: 'sess-2', attempt: 2, resumed: true },
  { type: 'cluster.ended', at: t(170), cluster: 's2', session: 'sess-2', outcome: 'done', exitCode: 0 },
];

const vm = (name: string, hop: number, fate: ReportVm['fate'], extra: Partial<ReportVm> = {}): ReportVm => ({ name, hop, fate, ...extra });

/** A real session report (built from a journaled story), with the hops and VMs of each cluster on top. */
function sessionReport(vms: ReportVm[], hops: Array<[string, string]>, outcome: ReportData['outcome']['status']): ReportData {
  const base = buildReport(storyState(), new Date(t(200)));
  return { ...base, hops: hops.map(([from, to], i) => ({ index: i + 1, from, to, profiles: [] })), vms, outcome: { status: outcome }, labTime: true };
}

const reports: Record<string, ReportData> = {
  'sess-1': sessionReport([vm('vms/a', 1, 'live-migrated'), vm('vms/b', 1, 'live-migrated'), vm('vms/a', 2, 'restarted', { downtimeSeconds: 12 }), vm('vms/c', 2, 'outstanding', { reason: 'restart skipped' })], [['4.4.1', '4.5.0'], ['4.5.0', '4.6.3']], 'done'),
  'sess-2': {
    ...sessionReport([vm('vms/d', 1, 'restarted', { downtimeSeconds: 8 }), vm('vms/e', 1, 'restarted', { downtimeSeconds: 20 })], [['4.5.0', '4.6.3']], 'done'),
    decisions: [
      { at: t(75), step: 'hop1.apply', hop: 1, gate: 'apply', gateKey: 'hop1.apply/apply', title: 'Apply', choice: 'approve', by: 'policy', policy: 'fleet edge, stage wave-1 (edge.yaml:12): approve apply' },
      { at: t(165), step: 'verify', hop: null, gate: 'verify', gateKey: 'verify/review/1.1', title: 'Verification', choice: 'skip', by: 'policy', policy: 'unattended: an informational gate takes its safe choice' },
    ],
    verification: { overall: 'warn', rehearsal: false, results: ['pass', 'pass', 'pass', 'warn'].map((status, i) => ({ id: `c${i}`, kind: 'k', title: `check ${i}`, status: status as 'pass' | 'warn', summary: '', evidence: [], durationMs: 1 })) },
  },
  'sess-3': { ...sessionReport([], [['4.5.0', '4.6.3']], 'failed'), requests: [{ at: t(85), hop: 1, step: 'hop1.apply', what: 'apply', request: 'PATCH /v1/spectroclusters/uid-s3/profiles', outcome: 'sent' }] },
};

const build = () => buildFleetReport({ events, sessionReport: (id) => reports[id], fleetFlags: '--fleet /ops/edge.yaml', now: new Date(t(300)) });

describe('fleet report', () => {
  it('the shipped JSON Schema is the one the code generates, and the report validates against it', () => {
    const generated = `${JSON.stringify(fleetReportJsonSchema(), null, 2)}\n`;
    if (process.env.UPDATE_REPORT_SCHEMA) writeFileSync(schemaFile, generated);
    expect(readFileSync(schemaFile, 'utf8'), 'schemas/fleet-report.schema.json is stale: regenerate it (see the top of this test)').toBe(generated);
    const validate = z.fromJSONSchema(JSON.parse(generated) as Parameters<typeof z.fromJSONSchema>[0]);
    const data = JSON.parse(JSON.stringify(build()));
    expect(validate.safeParse(data).error).toBeUndefined();
    expect(validate.safeParse({ ...data, clusters: [{ ...data.clusters[0], status: 'fine' }] }).success).toBe(false);
  });

  it('lists every cluster once, the left-out ones last, each with its fate', () => {
    const r = build();
    expect(r.clusters.map((c) => [c.cluster, c.stage, c.fate])).toEqual([
      ['s1', 'canary', 'upgraded'],
      ['s2', 'wave-1', 'upgraded'],
      ['s3', 'wave-1', 'failed'],
      ['s4', 'wave-1', 'skipped'],
      ['s5', 'wave-1', 'untouched'],
      ['s9', null, 'left out'],
    ]);
    expect(r.counts).toEqual({ upgraded: 2, failed: 1, skipped: 1, untouched: 1, 'left out': 1 });
    expect(r).toMatchObject({ startedAt: t(1), endedAt: t(91), durationSeconds: 90 });
  });

  it('versions before and after, and each VM by its latest hop, from the session report', () => {
    const [s1, s2, s3, , s5] = build().clusters;
    expect(s1!.versions).toMatchObject({ from: '4.4.1', to: '4.6.3', hops: [{ from: '4.4.1', to: '4.5.0' }, { from: '4.5.0', to: '4.6.3' }] });
    // vms/a migrated in hop 1 and was restarted in hop 2: restarted, once.
    expect(s1!.vms).toEqual({ migrated: 1, restarted: 1, outstanding: 1, restartedVms: ['vms/a'], outstandingVms: [{ name: 'vms/c', reason: 'restart skipped' }], downtimeSeconds: 12, maxDowntimeSeconds: 12 });
    expect(s2!.vms).toMatchObject({ restarted: 2, downtimeSeconds: 28, maxDowntimeSeconds: 20 });
    // s3 failed after its apply was sent: its version after is not guessed (its profiles after say it).
    expect(s3!.versions).toMatchObject({ from: '4.5.0', to: null });
    expect(s5!.versions).toBeUndefined();
    expect(build().stages[1]!.vms).toEqual({ migrated: 0, restarted: 2, outstanding: 0, downtimeSeconds: 28 });
  });

  it('decisions with who made them: a key and a flag name user@host, a stage policy where it is written, the tool says so', () => {
    const r = build();
    expect(r.stages.map((s) => s.approval)).toEqual([null, { by: 'key', detail: 'y', operator: 'ana@jump', at: t(70) }]);
    const [s1, s2] = r.clusters;
    expect(s1!.decisions).toContainEqual(expect.objectContaining({ gate: 'draft', choice: 'approve', by: 'flag', detail: '--approve draft', operator: 'tester@localhost' }));
    // A flag given to a resume by someone else: that run's operator.
    expect(s1!.decisions).toContainEqual(expect.objectContaining({ gate: 'restart', subject: 'vms/web-1', by: 'flag', detail: '--approve-restart vms/web-1', operator: 'bob@jump' }));
    expect(s1!.decisions).toContainEqual(expect.objectContaining({ gate: 'restart', subject: 'vms/db-1', choice: 'skip', by: 'key', detail: 's', operator: 'tester@localhost' }));
    expect(s2!.decisions).toContainEqual(expect.objectContaining({ gate: 'apply', by: 'policy', where: 'edge.yaml:12' }));
    expect(s2!.decisions).toContainEqual(expect.objectContaining({ gate: 'verify', by: 'policy', where: 'upgrade-pilot' }));
  });

  it('verification: what ran and who accepted it, or that it did not run', () => {
    const [s1, s2, , s4] = build().clusters;
    expect(s2!.verification).toEqual({
      ran: true,
      counts: { green: 3, amber: 1, red: 0, unknown: 0 },
      overall: 'warn',
      decided: { by: 'policy', detail: 'unattended: an informational gate takes its safe choice', where: 'upgrade-pilot' },
      text: 'ran: 3 green, 1 amber; accepted by policy of stage wave-1: unattended, an informational gate takes its safe choice',
    });
    expect(s1!.verification).toEqual({ ran: false, text: 'not reached' });
    expect(s4!.verification).toEqual({ ran: false, text: 'not reached' });
  });

  it("the run's approvals, each stage's policy and its halts, the runs' operators", () => {
    const r = build();
    expect(r.approvals).toEqual({ flags: '--approve draft,publish,repave --approve-all-restarts', revoked: ['apply'], runs: [{ at: t(1), by: 'ana@jump', command: 'start', added: [], revoked: [] }, { at: t(109), by: 'bo@desk', command: 'retry', added: ['--approve repave'], revoked: ['apply'] }] });
    expect(r.stages[1]).toMatchObject({ policy: 'approves draft; restarts approved (revoked: apply) [edge.yaml:12]', where: 'edge.yaml:12', halts: [{ at: t(80), why: '1 failure(s) reached the threshold 1 (last: s2)', carried: ['s3'] }] });
    expect(r.clusters[1]!.runs.map((x) => x.by)).toEqual(['ana@jump', 'bo@desk']);
  });

  it('an applied cluster left unwatched: said so, with the command that watches it again', () => {
    const unwatched: FleetEvent[] = [
      planned,
      { type: 'stage.started', at: t(1), stage: 'canary' },
      { type: 'cluster.started', at: t(2), cluster: 's1', session: 'sess-1', attempt: 1, resumed: false },
      { type: 'cluster.ended', at: t(40), cluster: 's1', session: 'sess-1', outcome: 'unwatched', exitCode: 130, message: 'applied', motion: { hop: 1, of: 2, versions: '4.4.1 → 4.5.0', appliedAt: t(30) } },
      { type: 'stage.ended', at: t(41), stage: 'canary', outcome: 'stopped', message: 'stopped by SIGTERM; applied and unwatched: s1' },
      { type: 'fleet.stopped', at: t(41), reason: 'SIGTERM', mode: 'now', how: 'signal', by: 'ana@jump' },
    ];
    const r = buildFleetReport({ events: unwatched, sessionReport: (id) => reports[id], fleetFlags: '--fleet /ops/edge.yaml', now: new Date(t(300)) });
    const s1 = r.clusters[0]!;
    expect(s1).toMatchObject({ status: 'unwatched', fate: 'applied, rollout continues unwatched', unwatched: { hop: 1, of: 2, since: t(40), watchAgain: 'upgrade-pilot fleet resume --fleet /ops/edge.yaml' }, resume: 'upgrade-pilot fleet resume --fleet /ops/edge.yaml' });
    expect(r.stopped).toEqual({ at: t(40 + 1), reason: 'SIGTERM', by: 'ana@jump', mode: 'now' });
    expect(r.approvals).toBeNull();
    const md = fleetMarkdown(r);
    expect(md).toContain('- **s1** (canary): applied (hop 1 of 2, 4.4.1 → 4.5.0, at 10:00:30); rollout continues unwatched since 2026-11-27 10:00:40 UTC');
    expect(md).toContain('  - to watch it again: `upgrade-pilot fleet resume --fleet /ops/edge.yaml`');
    expect(md).toContain('| Stopped | 2026-11-27 10:00:41 UTC: SIGTERM (ana@jump), at once |');
  });

  it('retries, skips and failures: the runs, the reason, the error and the command to go on', () => {
    const [, s2, s3, s4, s5, s9] = build().clusters;
    expect(s2).toMatchObject({ attempts: 2, retries: 1, durationSeconds: 98 });
    expect(s2!.runs).toEqual([
      { attempt: 1, resumed: false, at: t(72), endedAt: t(80), outcome: 'failed', message: 'cni 1.17 failed on s2', by: 'ana@jump' },
      { attempt: 2, resumed: true, at: t(110), endedAt: t(170), outcome: 'done', by: 'bo@desk' },
    ]);
    expect(s2!.resume).toBeUndefined();
    expect(s3).toMatchObject({ why: 'node n1 NotReady', session: 'sess-3', resume: 'upgrade-pilot fleet retry s3 --fleet /ops/edge.yaml' });
    expect(s4).toMatchObject({ skip: { reason: 'store closed', by: 'bo@desk', at: t(100) }, why: 'store closed (bo@desk)' });
    expect(s5).toMatchObject({ attempts: 0, session: null, runs: [] });
    expect(s9!.why).toBe('a cluster template manages it (template tpl-1)');
  });

  it('Markdown: stages with approvals, clusters with versions and VMs, failures with the command, skips, decisions', () => {
    const md = fleetMarkdown(build());
    expect(md).toContain('# Fleet report: edge to 4.6.3');
    expect(md).toMatch(/\| wave-1 \| \*\*failed\*\* \| 1 upgraded, 1 failed, 1 skipped, 1 untouched \| 2 at a time, stops at 1; approves draft; restarts approved \(revoked: apply\) \[edge\.yaml:12\] \| key y \(ana@jump, 10:01:10\) \|/);
    expect(md).toContain('halted 10:01:20 (1 failure(s) reached the threshold 1 (last: s2)): s3 watched to a safe point');
    expect(md).toContain('| s1 | canary | upgraded | 4.4.1 → 4.6.3 | 1 / 1 / 1 | 12s lab time (longest 12s) | not reached | 1 | 1m00s | sess-1 |');
    expect(md).toContain('| s2 | wave-1 | upgraded | 4.5.0 → 4.6.3 | 0 / 2 / 0 | 28s lab time (longest 20s) | ran: 3 green, 1 amber; accepted by policy of stage wave-1: unattended, an informational gate takes its safe choice | 2 |');
    expect(md).toContain('| Approvals | --approve draft,publish,repave --approve-all-restarts (given to `fleet start` by ana@jump); revoked from the stage policies: apply |');
    expect(md).toMatch(/\| retry 2026-11-27 10:01:49 UTC \| bo@desk added --approve repave revoked apply \|/);
    expect(md).toMatch(/\| 2026-11-22 04:00:03 \| s1 \| draft \|  \| approve \| flag --approve draft on the command line \(tester@localhost\) \| tester@localhost \|/);
    expect(md).toMatch(/\| 10:01:15 \| s2 \| apply \|  \| approve \| policy of stage wave-1 \(edge\.yaml:12\) \| edge\.yaml:12 \|/);
    expect(md).toMatch(/\| 10:02:45 \| s2 \| verify \| ran: 3 green, 1 amber \| accept the results \| policy of stage wave-1: unattended, an informational gate takes its safe choice \| upgrade-pilot \|/);
    expect(md).toMatch(/\| 10:01:40 \| s4 \| skip \|  \| skip \| fleet skip --reason "store closed" \| bo@desk \|/);
    expect(md).toContain('- **s3** (wave-1): failed: node n1 NotReady');
    expect(md).toContain('  - to go on: `upgrade-pilot fleet retry s3 --fleet /ops/edge.yaml`');
    expect(md).toContain('| s4 | skipped | store closed (bo@desk) |');
    expect(md).toContain('| s9 | left out | a cluster template manages it (template tpl-1) |');
    expect(md).toContain('| s1 | vms/c | restart skipped |');
    expect(md).toMatch(/\| 10:01:50 \| s2 \| retry \|  \| run 2 \| fleet retry \| bo@desk \|/);
    expect(md).toMatch(/\| 10:01:10 \| fleet \| stage wave-1 \|  \| approve \| key y \(ana@jump\) \| ana@jump \|/);
  });

  it('JUnit: one test case per cluster; a failure for the failed one, skipped with the reason for the rest', () => {
    const xml = fleetJunit(build());
    expect(xml).toMatch(/<testsuites name="upgrade-pilot fleet edge" tests="6" failures="1" errors="0" skipped="3"/);
    expect(xml.match(/<testcase /g)).toHaveLength(6);
    expect(xml).toContain('<failure message="node n1 NotReady" type="cluster-failed">');
    expect(xml).toContain('<skipped message="skipped: store closed (bo@desk)" />');
    expect(xml).toContain('<skipped message="untouched" />');
    expect(xml).toContain('<testcase classname="upgrade-pilot.fleet.left-out" name="s9" time="0">');
    expect(xml).toContain('<skipped message="left out: a cluster template manages it (template tpl-1)" />');
    expect(xml).toMatch(/<testcase classname="upgrade-pilot.fleet.canary" name="s1" time="60">\n {6}<system-out>fate: upgraded\nversion: 4.4.1 -&gt; 4.6.3/);
  });

  it.each([
    [[], { migrated: 0, restarted: 0, outstanding: 0, downtimeSeconds: 0 }],
    [[vm('v', 1, 'evicted')], { migrated: 1, restarted: 0, outstanding: 0 }],
    [[vm('v', 1, 'restarted', { downtimeSeconds: 3 }), vm('v', 2, 'live-migrated')], { migrated: 1, restarted: 0, downtimeSeconds: 3 }],
    [[vm('v', 1, 'would-restart')], { outstanding: 1 }],
  ])('VM summary of %j', (vms, expected) => {
    expect(vmSummary(vms)).toMatchObject(expected);
  });
});
