/**
 * report.html for a session: the same report as report.md, as one self-contained page, with the
 * timeline drawn as an SVG (the cluster's local time and UTC) where report.md has its Mermaid block,
 * and the verification as the TUI's panels. Pure.
 */
import { timelineTitle } from '../markdown-timeline.js';
import type { ReportData } from '../model.js';
import { timelineSvg } from '../timeline/svg.js';
import { markdownHtml } from './markdown-html.js';
import { htmlPage, timelineFigure } from './page.js';
import { verificationPanels } from './panels.js';

function timelineCaption(t: ReportData['timeline']): string {
  const lab = t.labSpeed ? ` In this lab the cluster's time ran ${t.labSpeed}x faster than the wall clock: predictions, the window and lab-time figures are drawn at that speed.` : '';
  return `Each bar is one step or one piece of the cluster's work, on the wall clock; hover a bar for its times. Amber: the operator's time (a gate waiting for an answer, a stop until the resume); red: failed; the blue band: the plan's predicted end (p50..p90) of each hop's cluster work.${lab}`;
}

export function sessionHtml(r: ReportData, markdown: string): string {
  const title = timelineTitle(r);
  const body = markdownHtml(markdown, {
    sections: {
      Timeline: () => ['<h2 id="timeline">Timeline</h2>', timelineFigure(timelineSvg(r.timeline, title), timelineCaption(r.timeline))].join('\n'),
      Verification: () => verificationPanels(r),
    },
  });
  return htmlPage(`${r.rehearsal ? 'Rehearsal report' : 'Upgrade report'}: ${title}`, body, `${r.session.tool} · session ${r.session.id} · written ${r.generatedAt.slice(0, 19).replace('T', ' ')} UTC · one self-contained file: no script, nothing fetched.`);
}
