/**
 * The report as data: what an operator attaches to a change ticket. Built from the session state
 * alone (pure), so `report` on any saved session gives the same answer as the end of the run.
 */
import type { CheckResult } from '../kube/checks/types.js';
import type { RunStatus, SessionMeta } from '../engine/state.js';

export interface ReportStep {
  id: string;
  title: string;
  kind: string;
  status: string;
  durationMs: number;
  attempts: number;
  summary?: string;
  error?: { message: string; hint?: string };
}

export interface ReportMutation {
  at: string;
  step: string;
  what: string;
  /** `PUT /v1/clusterprofiles/x` or `kubectl replace --raw ...`. */
  request: string;
  bodySummary?: string;
  approval?: string;
  outcome: string;
}

export interface ReportPackDiff {
  profile: string;
  hop?: number;
  pack: string;
  from: string;
  to: string;
  added: number;
  removed: number;
  patch: string[];
  truncated: boolean;
}

export interface ReportData {
  schema: 1;
  generatedAt: string;
  session: SessionMeta;
  outcome: { status: RunStatus; reason?: string; hint?: string };
  rehearsal: boolean;
  profilesBefore: Array<{ name: string; version: string; packs: Array<{ name: string; tag: string }> }>;
  profilesAfter: Array<{ name: string; version: string; source: string }>;
  hops: Array<{ index: number; from: string; to: string; profiles: Array<{ name: string; fromVersion: string; toVersion: string; packs: string[] }> }>;
  impact: Array<{ vm: string; fate: string; reason: string }>;
  customizations: Array<{ hop?: number; profile: string; pack: string; path: string; label: string; deployed?: string; newDefault?: string; decision?: string }>;
  rules: Array<{ stage: string; id: string; title: string; status: string; message: string }>;
  mutations: ReportMutation[];
  diffs: ReportPackDiff[];
  migrations: Array<{ step: string; summary: string }>;
  diagnoses: Array<{ step: string; summary: string; findings: string[] }>;
  restarts: { restarted: string[]; outstanding: string[] };
  verification?: { overall: string; rehearsal: boolean; results: CheckResult[] };
  preChecks: Array<{ title: string; status: string; summary: string }>;
  steps: ReportStep[];
}
