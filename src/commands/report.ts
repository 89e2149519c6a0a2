/** `upgrade-pilot report [id]`: writes report.md, report.json and report.html for a session and prints one of them (or its timeline). */
import type { CliOptions } from './options.js';
import { ExitCode } from '../errors.js';
import { timelineTitle } from '../report/markdown-timeline.js';
import { plainText, textColumns, timelineText } from '../report/timeline/text.js';
import { writeReport } from '../report/write.js';
import type { RunIO } from '../run/session-run.js';
import { resolveStateDir } from '../session/paths.js';
import { Redactor } from '../session/redact.js';
import { SessionStore } from '../session/store.js';
import { jsonSafe, sanitizeLines } from '../text/sanitize.js';

export function runReportCommand(options: CliOptions, id: string | undefined, io: RunIO): ExitCode {
  const store = new SessionStore(resolveStateDir(options['state-dir'], io.env), new Redactor());
  const resolved = id ?? store.latestId();
  const state = store.load(resolved);
  const files = writeReport(state, (name, text) => store.writeFile(resolved, name, text));
  if (options.timeline) io.stdout.write(`${sanitizeLines(plainText(timelineText(files.data.timeline, textColumns(io.stdout, io.env), timelineTitle(files.data))).join('\n'))}\n`);
  else io.stdout.write(options.json ? `${jsonSafe(JSON.stringify(files.data, null, 2))}\n` : files.text);
  io.stderr.write(`report written: ${files.markdown}, ${files.json} and ${files.html}\n`);
  return ExitCode.ok;
}
