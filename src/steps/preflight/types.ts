/** What preflight shows and records: one item per question, green/red/amber/grey with words. */
import type { FlavorChoice } from '../../palette/flavor.js';

export type ItemStatus = 'pass' | 'fail' | 'warn' | 'unknown';

export interface PreflightItem {
  id: string;
  title: string;
  status: ItemStatus;
  summary: string;
  /** Evidence: first offenders, versions, credentials (never their secrets). */
  lines: string[];
  hint?: string;
  /**
   * For a red item: `environment` when the API or the cluster is unreachable or refuses us (exit 4),
   * `failed` when something in the setup is wrong (exit 1).
   */
  /** Why it is red: the environment (exit 4), the params naming what does not exist (exit 2), or a check (exit 1). */
  failure?: 'environment' | 'input' | 'failed';
  ms?: number;
}

export interface PreflightOutput {
  items: PreflightItem[];
  /** Which profile API the session talks to, decided here once (journaled; a resume keeps it). */
  flavor?: FlavorChoice;
  overall: 'pass' | 'warn' | 'fail';
  kubectlVersion?: string;
  serverVersion?: string;
  /** When the cluster access file stops working (ISO), when known. */
  accessExpiresAt?: string;
}

export interface PreflightLive {
  headline: string;
  running: boolean;
  items: PreflightItem[];
}

export const countItems = (items: PreflightItem[]): string => {
  const n = (s: ItemStatus) => items.filter((i) => i.status === s).length;
  const grey = n('unknown');
  return `${n('pass')} green, ${n('fail')} red, ${n('warn')} amber${grey ? `, ${grey} not checked` : ''}`;
};

export const pass = (id: string, title: string, summary: string, lines: string[] = []): PreflightItem => ({ id, title, status: 'pass', summary, lines });
export const warn = (id: string, title: string, summary: string, lines: string[], hint?: string): PreflightItem => ({ id, title, status: 'warn', summary, lines, ...(hint ? { hint } : {}) });
export const red = (id: string, title: string, summary: string, failure: 'environment' | 'input' | 'failed', hint?: string, lines: string[] = []): PreflightItem => ({
  id,
  title,
  status: 'fail',
  summary,
  lines,
  failure,
  ...(hint ? { hint } : {}),
});
export const notChecked = (id: string, title: string, why: string): PreflightItem => ({ id, title, status: 'unknown', summary: `Not checked: ${why}.`, lines: [] });

/** The first `cap` lines and a count of the rest. */
export function firstOf(lines: string[], cap = 10): string[] {
  return lines.length <= cap ? lines : [...lines.slice(0, cap), `… and ${lines.length - cap} more`];
}
