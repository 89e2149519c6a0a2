/**
 * The fleet report's pictures: its timeline as a Mermaid gantt in report.md, and report.html (the
 * same report as one self-contained page, the timeline as an SVG). Pure.
 */
import { markdownHtml } from '../report/html/markdown-html.js';
import { htmlPage, timelineFigure } from '../report/html/page.js';
import { timelineMermaid } from '../report/timeline/mermaid.js';
import { timelineSvg } from '../report/timeline/svg.js';
import type { FleetReport } from './report-schema.js';

const title = (r: FleetReport) => `Fleet ${r.fleet} to ${r.target}`;

const legend =
  "Wall-clock UTC. Each cluster's run is a bar (a retry or a resume its own), a stage's soak is the bar after its clusters; grey bars are the operator's time (the wait at a stage's gate) and skips; red ones failed; a stage that halted is marked at its end.";

export function fleetTimelineSection(r: FleetReport): string[] {
  if (!r.timeline.sections.length) return [];
  return ['## Timeline', '', `_${legend} report.html draws the same in local time too._`, '', ...timelineMermaid(r.timeline, title(r)), ''];
}

export function fleetHtml(r: FleetReport, markdown: string): string {
  const caption =
    "Each cluster's run is a bar (hover it for its times and fate), a stage's soak the bar after its clusters. Amber: the operator's time (the wait at a stage's gate); grey: skipped; red: failed; a stage that halted is marked at its end; a stage window's openings are drawn behind.";
  const body = markdownHtml(markdown, {
    sections: { Timeline: () => ['<h2 id="timeline">Timeline</h2>', timelineFigure(timelineSvg(r.timeline, title(r)), caption)].join('\n') },
  });
  return htmlPage(`Fleet report: ${title(r)}`, body, `upgrade-pilot fleet report · written ${r.generatedAt.slice(0, 19).replace('T', ' ')} UTC · one self-contained file: no script, nothing fetched.`);
}
