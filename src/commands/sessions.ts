import type { CliOptions } from './options.js';
import { ExitCode } from '../errors.js';
import { resolveStateDir } from '../session/paths.js';
import { Redactor } from '../session/redact.js';
import { SessionStore } from '../session/store.js';
import { safeOut } from '../text/sanitize.js';

/** Why a session of the embedded lab cannot be resumed, said wherever it is listed or asked for. */
export const LAB_ENDED_NOTE = 'lab ended: the embedded lab (npm start, upgrade-pilot lab) runs inside its process and ends with it, so its sessions cannot go on; their reports stay readable (upgrade-pilot report ID). For a lab that stays up between runs: upgrade-pilot lab --serve.';

export function listSessions(options: CliOptions, env: NodeJS.ProcessEnv, print: (s: string) => void): ExitCode {
  const write = (s: string) => print(safeOut(s, options.json));
  const store = new SessionStore(resolveStateDir(options['state-dir'], env), new Redactor());
  const rows = store.list();
  if (options.json) {
    write(JSON.stringify(rows));
    return ExitCode.ok;
  }
  if (rows.length === 0) {
    write(`No saved sessions in ${store.stateDir}. Start one with: upgrade-pilot start (or npm start for the lab).`);
    return ExitCode.ok;
  }
  const table = [
    ['ID', 'RUNBOOK', 'CLUSTER', 'MODE', 'CURRENT STEP', 'STATUS', 'UPDATED'],
    ...rows.map((r) => [r.id, r.runbook, r.cluster, r.mode, r.currentTitle ?? r.currentStep, r.lab && r.status !== 'done' ? `${r.status}, lab ended` : r.status, r.updatedAt.replace('T', ' ').slice(0, 19)]),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  for (const row of table) write(row.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd());
  // Why a session could not be read, under the table: the others are listed whatever it holds.
  for (const r of rows.filter((x) => x.status === 'damaged')) write(`${r.id}: ${r.problem ?? 'cannot be read'}`);
  if (rows.some((r) => r.lab && r.status !== 'done')) write(LAB_ENDED_NOTE);
  return ExitCode.ok;
}
