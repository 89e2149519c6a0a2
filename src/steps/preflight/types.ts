/** What preflight shows and records: one item per question, green/red/amber/grey with words. */
import type { HealthFact } from '../../domain/checks/upgrade-health.js';
import type { FlavorChoice } from '../../palette/flavor.js';

export type ItemStatus = 'pass' | 'fail' | 'warn' | 'unknown';
export type RedFailure = 'environment' | 'input' | 'failed' | 'health';

export interface PreflightItem {
  id: string;
  title: string;
  status: ItemStatus;
  summary: string;
  /** Evidence: first offenders, versions, credentials (never their secrets). */
  lines: string[];
  hint?: string;
  /**
   * Why it is red: the environment (exit 4), the params naming what does not exist (exit 2), a
   * check (exit 1), or the cluster's health: the `health` gate lists it and the operator decides.
   */
  failure?: RedFailure;
  /** A health panel's facts (their keys tell a resume what is new). */
  health?: HealthFact[];
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
  /** The unhealthy facts the operator went on with at the `health` gate (a resume tells new ones by their keys). */
  health?: HealthFact[];
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
export const red = (id: string, title: string, summary: string, failure: RedFailure, hint?: string, lines: string[] = []): PreflightItem => ({
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
