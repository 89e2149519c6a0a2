import type { SessionState } from '../engine/state.js';
import { buildReport } from './build.js';
import { renderMarkdown } from './markdown.js';

export interface ReportFiles {
  markdown: string;
  json: string;
}

/** Writes report.md and report.json into the session folder (redacted, atomic, 0600). */
export function writeReport(state: SessionState, write: (name: string, text: string) => string): ReportFiles & { text: string; data: ReturnType<typeof buildReport> } {
  const data = buildReport(state);
  const text = renderMarkdown(data);
  return { markdown: write('report.md', text), json: write('report.json', `${JSON.stringify(data, null, 2)}\n`), text, data };
}
