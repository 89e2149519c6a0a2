/**
 * The report sets each part of a hop's window beside its prediction (issue 27): the pack rollout
 * (from the hop's send to the workload updater's first migration) and the migration phase (that
 * first migration to the last one's end), not the watch's own span, which also holds the wait for
 * KubeVirt's rollout. Without a migration seen, the reconcile wait and the watch's span stand in.
 */
import { describe, expect, it } from 'vitest';
import { initialState } from '../../src/engine/reducer.js';
import { buildReport } from '../../src/report/build.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { created, step } from '../support/state-fixtures.js';
import { shippedReportSchema } from '../support/report-schema.js';

const hop = { index: 1, count: 1, from: '4.5.4', to: '4.6.3' };
const eta = {
  p50Seconds: 900,
  p90Seconds: 1500,
  parts: [
    { what: 'pack-rollout' as const, p50Seconds: 400, p90Seconds: 700, basis: 'learned' },
    { what: 'migrations' as const, p50Seconds: 500, p90Seconds: 800, basis: 'scheduled' },
  ],
  summary: 'about 15m-25m: 7 VM(s) migrate, 5 at a time',
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

  it('without a migration seen: the reconcile wait and the watch span stand in', () => {
    const report = buildReport(initialState(created([plan, reconcile, watch({})])));
    expect(report.hops[0]).toMatchObject({ rollout: { measuredSeconds: 300 }, migrations: { measuredSeconds: 700 } });
  });
});
