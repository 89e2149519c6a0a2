/** Small pieces the Markdown report is written with: tables, cells, times, durations. Pure. */
import { decisionSourceText } from '../engine/gate.js';
import type { ReportApproval, ReportVm } from './model.js';
import { formatDuration } from '../text/duration.js';

export const cell = (s: string | number | undefined) => String(s ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');

export const table = (head: string[], rows: Array<Array<string | number | undefined>>): string[] =>
  rows.length === 0 ? [] : [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)];

/** `2026-11-23 23:22:11 UTC` */
export const dateTime = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;

/** `23:22:11`, with the date when it is not the start's day. */
export const timeOf = (iso: string | undefined, startIso: string): string => (!iso ? '' : iso.slice(0, 10) === startIso.slice(0, 10) ? iso.slice(11, 19) : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`);

export const seconds = (s: number | undefined | null) => (s === undefined || s === null ? '' : formatDuration(s * 1000));

/** "key y", "flag --approve draft", "policy: ..." for a report approval or decision. */
export function sourceText(a: Pick<ReportApproval, 'by' | 'key' | 'flag' | 'policy'>, operator?: string): string {
  if (a.by === 'key') return `${decisionSourceText({ by: 'operator', ...(a.key ? { key: a.key } : {}) })}${operator ? ` (${operator})` : ''}`;
  return decisionSourceText({ by: a.by, ...(a.flag ? { flag: a.flag } : {}), ...(a.policy ? { policy: a.policy } : {}) });
}

export const cut = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** Median and longest of a list of durations in seconds. */
export function spread(values: number[]): { median: number; longest: number } | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor((sorted.length - 1) / 2)]!, longest: sorted.at(-1)! };
}

/** One line of detail for a VM's fate. */
export function vmDetail(v: ReportVm, start: string, labTime: boolean): string {
  const lab = labTime ? ' lab time' : '';
  if (v.fate === 'live-migrated') {
    const m = v.migration;
    const nodes = m?.source && m.target ? `, ${m.source} → ${m.target}` : '';
    return `migrated${m?.durationSeconds !== undefined ? ` in ${seconds(m.durationSeconds)}${lab}` : ''}${nodes}`;
  }
  if (v.fate === 'restarted') {
    const parts = [`sent ${timeOf(v.sentAt, start)}`];
    if (v.runningAt) parts.push(`running ${timeOf(v.runningAt, start)}`);
    if (v.downtimeSeconds !== undefined) parts.push(`down ${seconds(v.downtimeSeconds)}${lab} (from ${v.downtimeFrom === 'vmi-deletion' ? 'the VMI shutdown' : 'the request'})`);
    if (v.backRunning === false) parts.push(`not back: ${v.reason ?? 'did not run again within the wait'}`);
    return parts.join(', ');
  }
  return v.reason ?? '';
}

/** A rule's result as the report says it: amber is the site's own state, not a failure. */
export const ruleResultWord: Record<string, string> = { pass: 'PASS', fail: 'FAIL', notOnSite: 'WARN: not on this site before the upgrade', notApplicable: 'N/A' };
