/** The part of a check result an evaluator decides; the runner adds identity and timing. */
import type { CheckStatus } from './types.js';
import type { Fetched } from '../../kube/checks/verify-data.js';
import { capped } from './types.js';

export interface Verdict {
  status: CheckStatus;
  summary: string;
  evidence: string[];
  remediation?: string;
}

export const verdict = (status: CheckStatus, summary: string, evidence: string[] = [], remediation?: string): Verdict => ({
  status,
  summary,
  evidence: capped(evidence),
  ...(remediation ? { remediation } : {}),
});

/** A check that could not read what it needs is unknown, with the reason: never a pass. */
export function unreadable(...fetched: Array<Fetched<unknown> | undefined>): Verdict | undefined {
  for (const f of fetched) {
    if (!f) return verdict('unknown', 'Not checked: its data was not fetched.');
    if (!f.ok) return verdict('unknown', `Could not check: ${f.reason}`, [], 'Fix the access problem above and run the checks again (r).');
  }
  return undefined;
}

export const value = <T>(f: Fetched<T> | undefined): T => (f as { value: T }).value;

export const nsName = (m: { namespace?: string | undefined; name: string }) => (m.namespace ? `${m.namespace}/${m.name}` : m.name);
