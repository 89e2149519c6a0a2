/**
 * The report's JSON Schema, shipped in schemas/report.schema.json: generated from the schema the
 * builder's types come from (so the file cannot drift from the code), and real reports validate
 * against the file itself. After changing src/report/schema.ts, regenerate the file with:
 *   UPDATE_REPORT_SCHEMA=1 npx vitest run test/report/schema.test.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildReport } from '../../src/report/build.js';
import { reportJsonSchema } from '../../src/report/schema.js';
import { reportSchemaFile, shippedReportSchema } from '../support/report-schema.js';
import { storyState } from '../support/timeline-story.js';

const file = reportSchemaFile;

describe('the report JSON Schema', () => {
  it('the shipped file is the one the code generates', () => {
    const generated = `${JSON.stringify(reportJsonSchema(), null, 2)}\n`;
    if (process.env.UPDATE_REPORT_SCHEMA) writeFileSync(file, generated);
    expect(readFileSync(file, 'utf8'), 'schemas/report.schema.json is stale: regenerate it (see the top of this test)').toBe(generated);
  });

  it('a report with stops, a crash, declines and skips validates against the shipped file; a broken one does not', () => {
    const validate = shippedReportSchema();
    const report = buildReport(storyState());
    expect(validate.safeParse(JSON.parse(JSON.stringify(report))).error).toBeUndefined();
    expect(validate.safeParse({ ...report, decisions: [{ ...report.decisions[0], by: 'operator' }] }).success).toBe(false);
    expect(validate.safeParse({ ...report, startedAt: 'yesterday' }).success).toBe(false);
    const { stops: _s, ...withoutStops } = report;
    expect(validate.safeParse(withoutStops).success).toBe(false);
  });
});
