/**
 * Fleet report data → Markdown for a change ticket: the fleet's outcome first, then each stage with
 * who approved it, then one row per cluster (versions, VMs, downtime, time), then what stopped the
 * failed ones with the command to go on, skips with their reasons, and every decision. Pure.
 */
import { cut, dateTime, seconds, table, timeOf } from '../report/markdown-parts.js';
import type { FleetClusterRow, FleetReport } from './report-schema.js';
import { fleetTimelineSection } from './report-pictures.js';
import { whoText } from './report-who.js';

const versions = (c: FleetClusterRow) => (c.versions ? `${c.versions.from ?? '?'} → ${c.versions.to ?? '? (see its session)'}` : '');
const vms = (c: FleetClusterRow) => (c.vms ? `${c.vms.migrated} / ${c.vms.restarted} / ${c.vms.outstanding}` : '');
const downtime = (c: FleetClusterRow) => (c.vms && c.vms.restarted > 0 ? `${seconds(c.vms.downtimeSeconds)}${c.labTime ? ' lab time' : ''} (longest ${seconds(c.vms.maxDowntimeSeconds)})` : '');
const countsText = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([fate, n]) => `${n} ${fate}`)
    .join(', ');

function header(r: FleetReport): string[] {
  return [
    `# Fleet report: ${r.fleet} to ${r.target}`,
    '',
    ...table(
      ['', ''],
      [
        ['Fleet file', r.file],
        ['Plan frozen', `${dateTime(r.plannedAt)} by ${r.plannedBy}`],
        ['Started', r.startedAt ? dateTime(r.startedAt) : 'not started'],
        ['Ended', r.endedAt ? `${dateTime(r.endedAt)} (${seconds(r.durationSeconds)})` : 'not ended'],
        ['Clusters', countsText(r.counts)],
        ['Approvals', r.approvals ? `${r.approvals.flags}${r.approvals.runs[0] ? ` (given to \`fleet start\` by ${r.approvals.runs[0].by})` : ''}${r.approvals.revoked.length ? `; revoked from the stage policies: ${r.approvals.revoked.join(', ')}` : ''}` : 'not recorded (a journal from before they were kept)'],
        ...(r.approvals?.runs.slice(1).filter((x) => x.added.length || x.revoked.length).map((x) => [`${x.command} ${dateTime(x.at)}`, `${x.by}${x.added.length ? ` added ${x.added.join(' ')}` : ''}${x.revoked.length ? ` revoked ${x.revoked.join(', ')}` : ''}`]) ?? []),
        ...(r.stopped ? [['Stopped', `${dateTime(r.stopped.at)}: ${r.stopped.reason}${r.stopped.by ? ` (${r.stopped.by})` : ''}${r.stopped.mode === 'now' ? ', at once' : ''}`]] : []),
      ],
    ),
    '',
    `_Times are wall-clock UTC (report written ${dateTime(r.generatedAt)}). VMs: migrated / restarted / outstanding, from each cluster's own session report._`,
    '',
  ];
}

function stages(r: FleetReport): string[] {
  const rows = r.stages.map((s) => [
    s.name,
    `**${s.status}**`,
    countsText(s.counts),
    `${s.maxConcurrency} at a time, stops at ${s.failureThreshold}; ${s.policy}`,
    s.approval ? `${s.approval.by} ${s.approval.detail} (${s.approval.operator ?? ''}, ${timeOf(s.approval.at, r.startedAt ?? s.approval.at)})` : s.needsApproval ? 'not yet approved' : 'not needed',
    `${s.vms.migrated} / ${s.vms.restarted} / ${s.vms.outstanding}`,
    seconds(s.durationSeconds),
    cut([s.message ?? '', ...s.halts.map((h) => `halted ${timeOf(h.at, r.startedAt ?? h.at)} (${h.why})${h.carried.length ? `: ${h.carried.join(', ')} watched to a safe point` : ''}`)].filter(Boolean).join('; '), 400),
  ]);
  return ['## Stages', '', ...table(['Stage', 'Status', 'Clusters', 'Policy', 'Approval', 'VMs', 'Took', 'Note'], rows), ''];
}

function clusters(r: FleetReport): string[] {
  const rows = r.clusters.map((c) => [c.cluster, c.stage ?? '-', c.fate, versions(c), vms(c), downtime(c), cut(c.verification.text, 160), c.attempts, seconds(c.durationSeconds), c.session ?? '']);
  return ['## Clusters', '', ...table(['Cluster', 'Stage', 'Fate', 'Version', 'VMs', 'Downtime', 'Verification', 'Runs', 'Took', 'Session'], rows), ''];
}

function failures(r: FleetReport): string[] {
  const stopped = r.clusters.filter((c) => c.resume);
  if (stopped.length === 0) return [];
  const out = ['## Failures and stops', ''];
  for (const c of stopped) {
    if (c.unwatched) {
      const u = c.unwatched;
      out.push(`- **${c.cluster}** (${c.stage}): applied (hop ${u.hop} of ${u.of}, ${u.versions}, at ${timeOf(u.appliedAt, r.startedAt ?? u.appliedAt)}); rollout continues unwatched since ${dateTime(u.since)}`);
      if (c.session) out.push(`  - session ${c.session}`);
      out.push(`  - to watch it again: \`${u.watchAgain}\``);
      continue;
    }
    out.push(`- **${c.cluster}** (${c.stage}): ${c.fate}${c.why ? `: ${cut(c.why, 400)}` : ''}`);
    if (c.session) out.push(`  - session ${c.session}`);
    out.push(`  - to go on: \`${c.resume}\``);
  }
  return [...out, ''];
}

function leftAside(r: FleetReport): string[] {
  const rows = r.clusters.filter((c) => c.status === 'skipped' || c.status === 'left-out').map((c) => [c.cluster, c.fate, c.skip ? `${c.skip.reason} (${c.skip.by})` : (c.why ?? '')]);
  return rows.length ? ['## Skipped and left out', '', ...table(['Cluster', 'How', 'Why'], rows), ''] : [];
}

function outstandingVms(r: FleetReport): string[] {
  const rows = r.clusters.flatMap((c) => (c.vms?.outstandingVms ?? []).map((v) => [c.cluster, v.name, v.reason ?? '']));
  return rows.length ? [`## Outstanding VMs (${rows.length})`, '', ...table(['Cluster', 'VM', 'Why'], rows), ''] : [];
}

function decisions(r: FleetReport): string[] {
  const start = r.startedAt ?? r.plannedAt;
  const rows = [
    ...r.stages.flatMap((s) => (s.approval ? [[s.approval.at, 'fleet', `stage ${s.name}`, '', 'approve', whoText(s.approval), s.approval.operator ?? '']] : [])),
    ...r.clusters.flatMap((c) => c.decisions.map((d) => [d.at, c.cluster, d.gate, d.subject ?? (d.gate === 'verify' ? c.verification.text.replace(/;.*$/, '') : ''), d.gate === 'verify' && d.choice === 'skip' ? 'accept the results' : d.choice, whoText(d, c.stage), d.operator ?? d.where ?? ''])),
    ...r.clusters.flatMap((c) => (c.skip ? [[c.skip.at, c.cluster, 'skip', '', 'skip', `fleet skip --reason ${JSON.stringify(c.skip.reason)}`, c.skip.by]] : [])),
    // A retry is the first run of a new attempt (`fleet retry`); a resume of the same attempt is not a decision.
    ...r.clusters.flatMap((c) => c.runs.filter((run, i) => run.attempt > 1 && (c.runs[i - 1]?.attempt ?? 0) < run.attempt).map((run) => [run.at, c.cluster, 'retry', '', `run ${run.attempt}`, 'fleet retry', run.by ?? ''])),
  ].sort((a, b) => String(a[0]).localeCompare(String(b[0])));
  if (rows.length === 0) return ['## Decisions', '', '_No gate was answered._', ''];
  return [`## Decisions (${rows.length})`, '', ...table(['Time', 'Where', 'Gate', 'About', 'Choice', 'How', 'Who'], rows.map((row) => [timeOf(String(row[0]), start), ...row.slice(1)])), ''];
}

export function fleetMarkdown(r: FleetReport): string {
  return [...header(r), ...fleetTimelineSection(r), ...stages(r), ...clusters(r), ...failures(r), ...leftAside(r), ...outstandingVms(r), ...decisions(r)].join('\n');
}
