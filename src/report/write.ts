import type { SessionState } from '../engine/state.js';
import { buildReport } from './build.js';
import { renderMarkdown } from './markdown.js';
import { sessionHtml } from './html/session.js';
import { jsonSafe, sanitizeLines } from '../text/sanitize.js';

export interface ReportFiles {
  markdown: string;
  json: string;
  html: string;
}

/** Writes report.md, report.json and report.html into the session folder (redacted, atomic, 0600). */
export function writeReport(state: SessionState, write: (name: string, text: string) => string): ReportFiles & { text: string; data: ReturnType<typeof buildReport> } {
  const data = buildReport(state);
  // The last line of defence: names and reasons in a report came from the network.
  const text = sanitizeLines(renderMarkdown(data));
  return { markdown: write('report.md', text), json: write('report.json', `${jsonSafe(JSON.stringify(data, null, 2))}\n`), html: write('report.html', sessionHtml(data, text)), text, data };
}
