/** What a verification check produces, and what it is given besides the cluster's data (kube/checks/verify-data.ts). */

export type CheckStatus = 'pass' | 'fail' | 'warn' | 'unknown';

export interface CheckResult {
  id: string;
  kind: string;
  title: string;
  /** Spec 9.3 item, e.g. "9.3.4". */
  spec?: string;
  status: CheckStatus;
  summary: string;
  /** First offenders (capped) and a count line; readable in a panel. */
  evidence: string[];
  remediation?: string;
  durationMs: number;
}

/** What the session knows that the cluster cannot say: expectations and the baseline. */
export interface VerifyExpectations {
  /** Profiles that must be deployed, with versions and pack tags once an upgrade ran. */
  profiles?: Array<{ name: string; version?: string; packs?: Array<{ name: string; tag: string }> }>;
  /** KubeVirt version the upgrade targets (`v1.4.0`); absent = only consistency is checked. */
  kubevirtVersion?: string;
  /** CDI version the upgrade targets. */
  cdiVersion?: string;
  /** VMIs running at the baseline (`ns/name`), NADs that existed then, and the StorageClasses' annotations then. */
  baseline?: { runningVmis: string[]; nads: string[]; storageClassAnnotations?: Record<string, Record<string, string>> };
  /** VMs the operator chose not to restart: listed as outstanding, not hidden. */
  outstandingVms?: string[];
  /**
   * When this upgrade began, on the cluster's clock (ms): pods and migrations that failed before it
   * are the cluster's past, listed as pre-existing with their age (amber), not red. Absent: nothing
   * says when, so every recorded failure is listed that way.
   */
  since?: number;
  /** The cluster clock's now, for those ages (default: this machine's clock). */
  now?: number;
}

export const EVIDENCE_CAP = 20;

/** The first `cap` items and a count of the rest, so a panel stays readable at any size. */
export function capped(lines: string[], cap = EVIDENCE_CAP): string[] {
  return lines.length <= cap ? lines : [...lines.slice(0, cap), `… and ${lines.length - cap} more`];
}
