/** The `report` step: writes the session report (Markdown, JSON and the self-contained HTML page) into the session folder. */
import { defineStepKind, succeeded } from '../engine/step-kind.js';
import { writeReport } from '../report/write.js';
import { reportCard } from './cards.js';

export interface ReportOutput {
  markdown: string;
  json: string;
  /** report.html: the same report as one page, the timeline drawn (absent in sessions written before it existed). */
  html?: string;
}

export const reportStep = defineStepKind({
  ...reportCard,
  async run(ctx) {
    const files = writeReport(ctx.state(), ctx.writeFile);
    ctx.progress({ headline: `Report written: ${files.markdown}`, lines: files.text.split('\n').slice(0, 40) });
    return succeeded<ReportOutput>({ markdown: files.markdown, json: files.json, html: files.html }, `written to ${files.markdown}`);
  },
});
