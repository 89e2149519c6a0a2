/** What the diagnosis records: known issues with their evidence, and failures nothing explains. */
import type { z } from 'zod';
import type { SignatureSource } from '../known-issue-schema.js';

export type SourceKind = z.infer<typeof SignatureSource>;

/** Text one signature source offers: a failure reason, a pod's log tail. */
export interface SourceText {
  kind: SourceKind;
  /** Where it came from, as the operator reads it: `virt-handler kubevirt/virt-handler-abc on node-1`. */
  label: string;
  lines: string[];
}

export interface Evidence {
  signature: string;
  source: string;
  line: string;
  secondary: boolean;
}

export interface SignatureResult {
  id: string;
  description?: string;
  source: SourceKind;
  secondary: boolean;
  /** Lines that matched, over every source read (evidence keeps a few). */
  matches: number;
}

export interface Finding {
  issue: string;
  title: string;
  /** A primary signature matched (secondary ones alone only make it possible). */
  confirmed: boolean;
  recovery: string[];
  signatures: SignatureResult[];
  evidence: Evidence[];
}

export interface UnknownFailure {
  reason: string;
  count: number;
  vmis: string[];
}

export interface DiagnoseOutput {
  headline: string;
  findings: Finding[];
  unknown: UnknownFailure[];
  /** Migrations hanging in Running, as the monitor saw them (no failure reason to match). */
  stuck: Array<{ migration: string; vmi: string; ageMs: number }>;
  affectedVmis: string[];
  affectedNodes: string[];
  read: {
    failureReasons: number;
    handlerPods: string[];
    launcherPods: string[];
    handlerTail: number;
    launcherTail: number;
    /** Pods whose log could not be read (gone since the list), with why. */
    unreadable: string[];
  };
}

export interface DiagnoseLive {
  headline: string;
}
