/**
 * The fleet report, read and written: the fleet journal beside each cluster's session report (built
 * from its session as `upgrade-pilot report ID` builds it), written into the fleet folder as
 * report.md, report.json, report.junit.xml and report.html (atomic, 0600). The pure parts are report-*.ts.
 */
import { join } from 'node:path';
import { buildReport } from '../report/build.js';
import type { ReportData } from '../report/model.js';
import { shellWord, stateDirFlag } from '../run/resume-command.js';
import { writeFileAtomic } from '../session/durable-fs.js';
import { Redactor } from '../session/redact.js';
import { SessionStore } from '../session/store.js';
import { jsonSafe, sanitizeLines } from '../text/sanitize.js';
import { readFleetEvents, type FleetPaths } from './journal.js';
import { buildFleetReport } from './report-build.js';
import { fleetJunit } from './report-junit.js';
import { fleetMarkdown } from './report-markdown.js';
import { fleetHtml } from './report-pictures.js';
import type { FleetReport } from './report-schema.js';

export type FleetReportFormat = 'md' | 'json' | 'junit' | 'html';

export interface FleetReportFiles {
  markdown: string;
  json: string;
  junit: string;
  html: string;
  data: FleetReport;
  /** Each format's text, as written. */
  text: Record<FleetReportFormat, string>;
}

/** A session's report, or undefined when its folder is gone or unreadable (the fleet report still lists the cluster). */
function sessionReports(stateDir: string): (id: string) => ReportData | undefined {
  const store = new SessionStore(stateDir, new Redactor());
  return (id) => {
    try {
      return buildReport(store.load(id));
    } catch {
      return undefined;
    }
  };
}

export function fleetReportData(paths: FleetPaths, stateDir: string, fleetFile: string, env: NodeJS.ProcessEnv, stateDirOption?: string): FleetReport {
  return buildFleetReport({
    events: readFleetEvents(paths),
    sessionReport: sessionReports(stateDir),
    fleetFlags: `--fleet ${shellWord(fleetFile)}${stateDirFlag(stateDirOption, env)}`,
  });
}

export function renderFleetReport(data: FleetReport): Record<FleetReportFormat, string> {
  const md = sanitizeLines(fleetMarkdown(data));
  return { md, json: `${jsonSafe(JSON.stringify(data, null, 2))}\n`, junit: fleetJunit(data), html: fleetHtml(data, md) };
}

export function writeFleetReport(paths: FleetPaths, data: FleetReport): FleetReportFiles {
  const text = renderFleetReport(data);
  const files = { markdown: join(paths.dir, 'report.md'), json: join(paths.dir, 'report.json'), junit: join(paths.dir, 'report.junit.xml'), html: join(paths.dir, 'report.html') };
  writeFileAtomic(files.markdown, text.md);
  writeFileAtomic(files.json, text.json);
  writeFileAtomic(files.junit, text.junit);
  writeFileAtomic(files.html, text.html);
  return { ...files, data, text };
}
