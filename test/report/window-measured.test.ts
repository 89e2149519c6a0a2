/**
 * The report sets each part of a hop's window beside its prediction (issue 27): the pack rollout
 * (from the hop's send to the workload updater's first migration) and the migration phase (that
 * first migration to the last one's end), not the watch's own span, which also holds the wait for
 * KubeVirt's rollout. Without a migration seen, the reconcile wait and the watch's span stand in.
 */
import { describe, expect, it } from 'vitest';
import type { MutationRecord } from '../../src/engine/mutation.js';
import { initialState } from '../../src/engine/reducer.js';
import { buildReport } from '../../src/report/build.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { created, step } from '../support/state-fixtures.js';
import { shippedReportSchema } from '../support/report-schema.js';

const hop = { index: 1, count: 1, from: '4.5.4', to: '4.6.3' };
const eta = {
  p50Seconds: 1020,
  p90Seconds: 1740,
  parts: [
    { what: 'pack-rollout' as const, p50Seconds: 400, p90Seconds: 700, basis: 'learned' },
    { what: 'migrations' as const, p50Seconds: 500, p90Seconds: 800, basis: 'scheduled' },
    { what: 'restarts' as const, p50Seconds: 120, p90Seconds: 240, basis: '2 restart(s) at the gates' },
  ],
  summary: 'about 17m-29m: 7 VM(s) migrate, 5 at a time; 2 restart(s) at the gates',
};
const plan = step('plan', { kind: 'plan', status: 'succeeded', output: { status: 'planned', hops: [{ index: 1, from: '4.5.4', to: '4.6.3', profiles: [], eta }], impact: [] } });
const reconcile = step('hop1.reconcile', { kind: 'reconcile', status: 'succeeded', group: 'hop1', hop, output: { rows: [], elapsedMs: 300_000, polls: 20 } });
const watch = (output: Record<string, unknown>) =>
  step('hop1.migrations', { kind: 'migrations', status: 'succeeded', group: 'hop1', hop, output: { outcome: 'completed', elapsedMs: 700_000, planned: { p50Seconds: 500, p90Seconds: 800 }, ...output } });

describe('the report: each part of the window beside its prediction', () => {
  it('measured as the prediction defines them', () => {
    const state = initialState(created([plan, reconcile, watch({ rolloutSeconds: 430, moved: { since: '2026-11-22T04:00:00.000Z', migrated: [], evicted: [], totals: { migrated: 7, evicted: 0 }, phase: { firstCreated: '2026-11-22T04:07:10.000Z', seconds: 520 } } })]));
    const report = buildReport(state);
    expect(report.hops[0]).toMatchObject({
      rollout: { plannedP50Seconds: 400, plannedP90Seconds: 700, measuredSeconds: 430 },
      migrations: { plannedP50Seconds: 500, plannedP90Seconds: 800, measuredSeconds: 520, outcome: 'completed' },
    });
    expect(shippedReportSchema().safeParse(JSON.parse(JSON.stringify(report))).error).toBeUndefined();
    const md = renderMarkdown(report);
    expect(md).toContain('Pack rollout: planned 7m-12m, took 7m.');
    expect(md).toContain('Migrations: planned 8m-13m, took 9m (completed).');
  });

  it('the restarts at the gates: the downtime each restarted VM had, summed, beside the plan’s restart part', () => {
    const timing = (vm: string, down: number) => ({ vm, downAt: '2026-11-22T04:30:00.000Z', downFrom: 'vmi-deletion', runningAt: '2026-11-22T04:31:00.000Z', runningFrom: 'phase-transition', downtimeSeconds: down });
    const recover = step('hop1.recover', { kind: 'recover', status: 'succeeded', group: 'hop1', hop, notes: { 'timing/vms/a': timing('vms/a', 52.4), 'timing/vms/b': timing('vms/b', 80) }, output: { restarted: ['vms/a', 'vms/b'], outstanding: [], vms: [], notOffered: [] } });
    const sent = (vm: string): MutationRecord => ({ key: `hop1.recover/restart/${vm}/send`, stepId: 'hop1.recover', request: { target: 'kube', program: 'kubectl', argv: ['replace'], summary: `restart VM ${vm}` }, intentAt: '2026-11-22T04:30:00.000Z', resultAt: '2026-11-22T04:30:00.000Z', outcome: 'sent', dryRun: false });
    const state = { ...initialState(created([plan, reconcile, watch({}), recover])), mutations: { [sent('vms/a').key]: sent('vms/a'), [sent('vms/b').key]: sent('vms/b') } };
    const report = buildReport(state);
    expect(report.hops[0]!.restarts).toEqual({ plannedP50Seconds: 120, plannedP90Seconds: 240, measuredSeconds: 132, restarted: 2 });
    expect(shippedReportSchema().safeParse(JSON.parse(JSON.stringify(report))).error).toBeUndefined();
    expect(renderMarkdown(report)).toContain('Restarts at the gates: planned 2m-4m, took 2m of downtime over 2 VM(s) (the time taken to answer the gates not counted).');
  });

  it('without a migration seen: the reconcile wait and the watch span stand in', () => {
    const report = buildReport(initialState(created([plan, reconcile, watch({})])));
    expect(report.hops[0]).toMatchObject({ rollout: { measuredSeconds: 300 }, migrations: { measuredSeconds: 700 } });
  });
});
