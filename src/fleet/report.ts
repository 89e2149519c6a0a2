/**
 * The fleet report from the fleet journal: every cluster once (the left-out ones too) with its
 * stage, fate, attempts, session and what stopped it; per stage its outcome and who approved it.
 * Markdown for people, JSON for tools, JUnit with one test case per cluster for pipelines.
 */
import { xmlText } from '../report/junit.js';
import type { FleetState } from './types.js';

export interface FleetReportRow {
  cluster: string;
  uid: string;
  stage: string | null;
  fate: string;
  attempts: number;
  session: string | null;
  startedAt: string | null;
  endedAt: string | null;
  durationSeconds: number | null;
  why: string | null;
}

export interface FleetReport {
  fleet: string;
  target: string;
  file: string;
  plannedAt: string;
  plannedBy: string;
  stages: Array<{ name: string; status: string; approvedBy: string | null; clusters: string[]; message: string | null }>;
  clusters: FleetReportRow[];
}

const seconds = (a?: string, b?: string) => (a && b ? Math.max(0, Math.round((Date.parse(b) - Date.parse(a)) / 1000)) : null);

/** What happened to the cluster, in the words the table uses. */
const fateWords: Record<string, string> = {
  done: 'upgraded',
  failed: 'failed',
  gate: 'waiting at a gate',
  stopped: 'stopped safely (session saved)',
  running: 'in flight when the fleet stopped',
  pending: 'untouched',
  skipped: 'skipped',
};

export function fleetReport(s: FleetState): FleetReport {
  return {
    fleet: s.fleet,
    target: s.target,
    file: s.file,
    plannedAt: s.plannedAt,
    plannedBy: s.plannedBy,
    stages: s.stages.map((st) => ({ name: st.name, status: st.status, approvedBy: st.approvedBy ?? null, clusters: st.clusters, message: st.message ?? null })),
    clusters: [
      ...s.clusters.map((c) => ({
        cluster: c.name,
        uid: c.uid,
        stage: c.stage,
        fate: fateWords[c.status] ?? c.status,
        attempts: c.attempts,
        session: c.session ?? null,
        startedAt: c.startedAt ?? null,
        endedAt: c.endedAt ?? null,
        durationSeconds: seconds(c.startedAt, c.endedAt),
        why: c.skipReason ?? c.message ?? null,
      })),
      ...s.leftOut.map((l) => ({ cluster: l.name, uid: l.uid, stage: null, fate: 'left out', attempts: 0, session: null, startedAt: null, endedAt: null, durationSeconds: null, why: l.reason })),
    ],
  };
}

const cell = (v: unknown) => String(v ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function fleetMarkdown(r: FleetReport): string {
  const lines = [
    `# Fleet ${r.fleet}: upgrade to ${r.target}`,
    '',
    `Plan frozen ${r.plannedAt} by ${r.plannedBy} from ${r.file}.`,
    '',
    '## Stages',
    '',
    '| Stage | Status | Clusters | Approved by | Note |',
    '| --- | --- | --- | --- | --- |',
    ...r.stages.map((s) => `| ${cell(s.name)} | ${cell(s.status)} | ${s.clusters.length} | ${cell(s.approvedBy ?? '')} | ${cell(s.message ?? '')} |`),
    '',
    '## Clusters',
    '',
    '| Cluster | Stage | Fate | Attempts | Duration | Session | Why |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...r.clusters.map((c) => `| ${cell(c.cluster)} | ${cell(c.stage ?? '-')} | ${cell(c.fate)} | ${c.attempts} | ${c.durationSeconds === null ? '' : `${c.durationSeconds}s`} | ${cell(c.session ?? '')} | ${cell(c.why ?? '')} |`),
    '',
  ];
  return lines.join('\n');
}

export function fleetJunit(r: FleetReport, timestamp: string): string {
  const failed = r.clusters.filter((c) => c.fate === 'failed').length;
  const skipped = r.clusters.filter((c) => c.fate !== 'upgraded' && c.fate !== 'failed').length;
  const attrs = `name="${xmlText(`upgrade-pilot fleet ${r.fleet}`, 300)}" tests="${r.clusters.length}" failures="${failed}" errors="0" skipped="${skipped}"`;
  const cases = r.clusters.flatMap((c) => {
    const open = `    <testcase classname="${xmlText(`upgrade-pilot.fleet.${c.stage ?? 'left-out'}`, 200)}" name="${xmlText(c.cluster, 300)}" time="${c.durationSeconds ?? 0}"`;
    if (c.fate === 'upgraded') return [`${open} />`];
    if (c.fate === 'failed') return [`${open}>`, `      <failure message="${xmlText(c.why ?? 'failed', 1_000)}" type="cluster-failed" />`, '    </testcase>'];
    return [`${open}>`, `      <skipped message="${xmlText(`${c.fate}${c.why ? `: ${c.why}` : ''}`, 1_000)}" />`, '    </testcase>'];
  });
  return ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites ${attrs}>`, `  <testsuite ${attrs} timestamp="${xmlText(timestamp, 40)}">`, ...cases, '  </testsuite>', '</testsuites>', ''].join('\n');
}
