import type { SessionState } from '../engine/state.js';
import { buildReport } from './build.js';
import { renderMarkdown } from './markdown.js';
import { jsonSafe, sanitizeLines } from '../text/sanitize.js';

export interface ReportFiles {
  markdown: string;
  json: string;
}

/** Writes report.md and report.json into the session folder (redacted, atomic, 0600). */
export function writeReport(state: SessionState, write: (name: string, text: string) => string): ReportFiles & { text: string; data: ReturnType<typeof buildReport> } {
  const data = buildReport(state);
  // The last line of defence: names and reasons in a report came from the network.
  const text = sanitizeLines(renderMarkdown(data));
  return { markdown: write('report.md', text), json: write('report.json', `${jsonSafe(JSON.stringify(data, null, 2))}\n`), text, data };
}
