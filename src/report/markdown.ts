/**
 * Report data → Markdown for a change ticket: when, who, what per hop, the result and the way back
 * first, in a page or two; the evidence that makes it long (payload diffs, every customization,
 * every live migration) in the appendix after it.
 */
import { renderAppendix, MIGRATIONS_SHOWN } from './markdown-appendix.js';
import { cell, cut, dateTime, ruleResultWord, seconds, sourceText, spread, table, timeOf, vmDetail } from './markdown-parts.js';
import type { ReportData, ReportVm } from './model.js';
import { firstFew } from '../text/first-few.js';
import { timelineSection } from './markdown-timeline.js';
import { formatDuration, roughDuration, durationRange } from '../text/duration.js';

const statusWord: Record<string, string> = { pass: 'PASS', fail: 'FAIL', warn: 'WARN', unknown: 'UNKNOWN' };
const stopWord: Record<string, string> = { awaitingApproval: 'stopped at a gate', failed: 'failed', interrupted: 'interrupted', stopped: 'stopped by the operator', crashed: 'ended unexpectedly' };

function header(r: ReportData): string[] {
  const m = r.session;
  const out = [`# ${r.rehearsal ? 'Rehearsal report' : 'Upgrade report'}: ${m.runbook.title}`, ''];
  if (r.rehearsal) out.push('> **Rehearsal:** every read was real; every change below was recorded, **nothing was sent**.', '');
  const others = r.operators.filter((o) => o !== r.operator);
  const ended = r.endedAt ? `${dateTime(r.endedAt)} (${seconds(r.durationSeconds)}${r.stoppedSeconds > 0 ? `, of which ${seconds(r.stoppedSeconds)} stopped between runs` : ''})` : 'not ended (still running, or its process was killed)';
  out.push(
    ...table(
      ['', ''],
      [
        ['Session', `${m.id} (${r.rehearsal ? 'rehearsal' : 'live'}${m.lab || r.labTime ? ', lab' : ''})`],
        ['Cluster', `${m.cluster.name ?? ''} ${m.cluster.uid ? `(${m.cluster.uid})` : ''}${m.cluster.context ? `, context ${m.cluster.context}` : ''}`.trim()],
        ['Operator', `${r.operator}${others.length ? `; resumed by ${others.join(', ')}` : ''}`],
        ['Started', dateTime(r.startedAt)],
        ['Ended', ended],
        ['Outcome', `**${r.outcome.status}**${r.outcome.reason ? `: ${cut(r.outcome.reason, 300)}` : ''}`],
        ['Tool', `${m.tool}; runbook ${m.runbook.file} (${m.runbook.digest})`],
      ],
    ),
    '',
  );
  if (r.outcome.hint && r.outcome.status !== 'done') out.push(`**Next action:** ${r.outcome.hint}`, '');
  const lab = r.labTime ? ' Downtime and migration durations come from the cluster’s timestamps: in this lab they are its simulated **lab time**.' : '';
  out.push(`_Times are wall-clock UTC (report written ${dateTime(r.generatedAt)}).${lab}_`, '');
  return out;
}

function when(r: ReportData): string[] {
  const t = (iso: string) => timeOf(iso, r.startedAt);
  const out = ['## When', '', `- ${t(r.startedAt)} started by ${r.operator}`];
  for (const s of r.stops) {
    out.push(`- ${t(s.at)} ${stopWord[s.status] ?? s.status}${s.gate ? ` (${s.gate})` : ''}${s.step ? ` in ${s.step}` : ''}: ${cut(s.reason, 240)}`);
    if (s.resumedAt) out.push(`- ${t(s.resumedAt)} resumed${s.resumedBy ? ` by ${s.resumedBy}` : ''}${s.resumedWith ? ` with ${s.resumedWith}` : ''} (after ${formatDuration(Date.parse(s.resumedAt) - Date.parse(s.at))})`);
  }
  if (r.outcome.status === 'done' && r.endedAt) out.push(`- ${t(r.endedAt)} done`);
  return [...out, ''];
}

function decisions(r: ReportData): string[] {
  const out = [`## Decisions (${r.decisions.length})`, ''];
  if (r.decisions.length === 0) return [...out, '_No gate was answered._', ''];
  const rows = r.decisions.map((d) => [timeOf(d.at, r.startedAt), d.step, d.gate, cut(d.subject ?? d.title, 80), `${d.choice}${d.label ? `: ${cut(d.label, 60)}` : ''}`, sourceText(d, d.operator)]);
  // A decline that stopped the run says, under the table, what it declined and what was left as it was.
  const stops = r.decisions.filter((d) => d.stopped).map((d) => `- ${timeOf(d.at, r.startedAt)} ${d.choice} at the ${d.gate} gate (${cut(d.subject ?? d.title, 120)}) stopped the run: ${cut(d.stopped!, 300)}`);
  return [...out, ...table(['Time', 'Step', 'Gate', 'About', 'Choice', 'How'], rows), '', ...(stops.length ? [...stops, ''] : [])];
}

function profiles(r: ReportData): string[] {
  const out = ['## Profiles', ''];
  if (r.profiles.before.length === 0 && r.profiles.after.length === 0) return [...out, '_Not recorded in this session._', ''];
  const names = [...new Set([...r.profiles.before.map((p) => p.name), ...r.profiles.after.map((p) => p.name)])];
  const rows = names.map((n) => {
    const before = r.profiles.before.find((p) => p.name === n);
    const after = r.profiles.after.find((p) => p.name === n);
    return [n, before?.version ?? '', after?.version ?? (r.hops.length ? 'not read after the hops' : 'unchanged'), before ? before.packs.map((k) => `${k.name} ${k.tag}`).join(', ') : ''];
  });
  out.push(...table(['Profile', 'Before', 'After', 'Packs before'], rows), '');
  if (r.impact.length) {
    const n = (fate: string) => r.impact.filter((i) => i.fate === fate).length;
    out.push(`The plan predicted for the VMs: ${n('live-migrate')} live-migrate, ${n('evict')} evicted, ${n('restart')} need a restart, ${n('not-running')} not running.`, '');
  }
  return out;
}

function vmSummary(vms: ReportVm[], labTime: boolean): string {
  const by = (f: ReportVm['fate']) => vms.filter((v) => v.fate === f);
  const lab = labTime ? ' lab time' : '';
  const migrated = spread(by('live-migrated').flatMap((v) => (v.migration?.durationSeconds !== undefined ? [v.migration.durationSeconds] : [])));
  const down = spread(by('restarted').flatMap((v) => (v.downtimeSeconds !== undefined ? [v.downtimeSeconds] : [])));
  const parts = [
    `${by('live-migrated').length} live-migrated${migrated ? ` (median ${seconds(migrated.median)}, longest ${seconds(migrated.longest)}${lab})` : ''}`,
    `${by('evicted').length} evicted`,
    `${by('restarted').length} restarted${down ? ` (downtime median ${seconds(down.median)}, longest ${seconds(down.longest)}${lab})` : ''}`,
    `${by('outstanding').length} outstanding`,
  ];
  if (by('would-restart').length) parts.push(`${by('would-restart').length} would be restarted (rehearsal)`);
  return `VMs: ${parts.join(', ')}.`;
}

function hopSection(r: ReportData, hop: number | null): string[] {
  const h = r.hops.find((x) => x.index === hop);
  const title = h ? `## Hop ${h.index}: ${h.from} → ${h.to}` : r.hops.length ? '## Outside the hops' : '## Recovery (no hop: the pack was already at the target)';
  const out = [title, ''];
  if (h) out.push(...table(['Profile', 'Version', 'Pack changes'], h.profiles.map((p) => [p.name, `${p.fromVersion} → ${p.toVersion}`, p.packs.map((k) => `${k.name} ${k.from} → ${k.to}`).join('; ')])), '');
  if (h?.eta) out.push(`Planned: ${h.eta.summary}.`);
  const planned = (p50: number, p90: number, took: number) => `planned ${durationRange(p50, p90)}, took ${roughDuration(took)}${r.labTime ? ' (lab time)' : ''}`;
  if (h?.rollout) out.push(`Pack rollout: ${planned(h.rollout.plannedP50Seconds, h.rollout.plannedP90Seconds, h.rollout.measuredSeconds)}.`);
  if (h?.migrations) out.push(`Migrations: ${planned(h.migrations.plannedP50Seconds, h.migrations.plannedP90Seconds, h.migrations.measuredSeconds)} (${h.migrations.outcome}).`);
  if (h?.restarts) out.push(`Restarts at the gates: ${planned(h.restarts.plannedP50Seconds, h.restarts.plannedP90Seconds, h.restarts.measuredSeconds)} of downtime over ${h.restarts.restarted} VM(s) (the time taken to answer the gates not counted).`);
  if (h?.eta || h?.rollout || h?.migrations || h?.restarts) out.push('');
  const requests = r.requests.filter((q) => q.hop === hop);
  out.push(`${r.rehearsal ? 'Calls recorded (not sent)' : 'Requests sent'} (${requests.length}):`, '');
  if (requests.length === 0) out.push('- none');
  for (const q of requests) {
    const approval = q.approval ? ` · ${sourceText(q.approval)}` : '';
    out.push(`- ${timeOf(q.at, r.startedAt)} ${q.what}: \`${q.request}\`${q.body ? ` (${cut(q.body, 160)})` : ''}${approval} · ${q.outcome}`);
  }
  out.push('');
  const vms = r.vms.filter((v) => v.hop === hop);
  out.push(vms.length ? vmSummary(vms, r.labTime) : 'VMs: none was migrated, evicted or restarted here.', '');
  const migrated = vms.filter((v) => v.fate === 'live-migrated');
  const listed = [...vms.filter((v) => v.fate !== 'live-migrated'), ...migrated.slice(0, MIGRATIONS_SHOWN)];
  out.push(...table(['VM', 'Fate', 'Detail'], listed.map((v) => [v.name, v.fate, vmDetail(v, r.startedAt, r.labTime)])));
  if (migrated.length > MIGRATIONS_SHOWN) out.push('', `… and ${migrated.length - MIGRATIONS_SHOWN} more live-migrated VM(s): see the appendix.`);
  if (listed.length) out.push('');
  for (const d of r.diagnoses.filter((x) => x.hop === hop)) {
    out.push(`Diagnosis (${d.step}): ${d.summary}`, '');
    for (const f of d.findings) {
      out.push(`- **${f.title}**${f.confirmed === false ? ' (possible, not confirmed)' : ''}`);
      for (const e of f.evidence.slice(0, 3)) out.push(`  - ${cut(e.source, 80)}: \`${cell(cut(e.line, 200))}\``);
      if (f.evidence.length > 3) out.push(`  - … ${f.evidence.length - 3} more line(s) in report.json`);
    }
    for (const u of d.unexplained) out.push(`- Not explained by a known issue: ${cut(u.reason, 200)} (${u.count}×: ${firstFew(u.vms)})`);
    out.push('');
  }
  return out;
}

function verification(r: ReportData): string[] {
  const out = ['## Verification', ''];
  const v = r.verification;
  if (!v) return [...out, '_Not run in this session._', ''];
  if (v.rehearsal) out.push("_Rehearsal: today's health, not the target versions._", '');
  out.push(`Overall: **${(statusWord[v.overall] ?? v.overall).toUpperCase()}**`, '');
  for (const c of v.results) {
    out.push(`- **${statusWord[c.status]}** ${c.title}${c.spec ? ` (${c.spec})` : ''}: ${c.summary} _(${formatDuration(c.durationMs)})_`);
    if (c.status === 'pass') continue;
    for (const e of c.evidence) out.push(`  - ${e}`);
    if (c.remediation) out.push(`  - What to do: ${c.remediation}`);
  }
  return [...out, ''];
}

function wayBack(r: ReportData): string[] {
  const out = ['## Way back', ''];
  if (r.rollback.length === 0) return [...out, '_No profile version was recorded before the upgrade._', ''];
  for (const w of r.rollback) {
    out.push(`- **${w.profile}**${w.role ? ` (${w.role})` : ''}: version ${w.version}${w.uid ? `, uid ${w.uid}` : ''}${w.packs?.length ? `; packs ${w.packs.map((p) => `${p.name} ${p.tag}`).join(', ')}` : ''}.`, `  ${w.how}`);
  }
  return [...out, ''];
}

function carried(r: ReportData): string[] {
  if (r.customizations.length === 0 && r.rules.length === 0 && r.additions.length === 0 && r.variables.length === 0 && !r.variablesUnserved) return [];
  const labels = new Map<string, number>();
  for (const c of r.customizations) labels.set(c.label, (labels.get(c.label) ?? 0) + 1);
  // A rule whose pack kind the site does not run is neither a pass nor a failure (issue 16); one the
  // site did not have before the upgrade either is amber, never a failure (issue 25).
  const applicable = r.rules.filter((x) => x.status !== 'notApplicable');
  const failed = applicable.filter((x) => x.status === 'fail');
  const amber = applicable.filter((x) => x.status === 'notOnSite');
  const notApplicable = r.rules.length - applicable.length;
  const out = ['## Customizations carried forward', ''];
  out.push(
    `${r.customizations.length} value(s): ${[...labels].map(([l, n]) => `${n} ${l}`).join(', ') || 'none'} (every one in the appendix). Rules (spec 9.2): ${applicable.length - failed.length - amber.length} of ${applicable.length} pass${amber.length ? `, ${amber.length} not on this site before the upgrade (left as they were)` : ''}${failed.length ? `, ${failed.length} fail` : ''}${notApplicable ? `, ${notApplicable} not applicable to this site's packs` : ''}.`,
    '',
  );
  if (failed.length || amber.length) out.push(...table(['Where', 'Rule', 'Result', 'Detail'], [...failed, ...amber].map((x) => [x.stage, x.title, ruleResultWord[x.status] ?? x.status, x.message])), '');
  if (r.additions.length) {
    const inDraft = r.additions.filter((a) => a.included);
    out.push(`Additions - a rule's fix, a value typed at the review, or any value neither the site had nor the new defaults bring: ${inDraft.length} in the drafts (each chosen), ${r.additions.length - inDraft.length} left out.`, '');
    out.push(...table(['Hop', 'Profile', 'Pack', 'Path', 'Value', 'What it changes', 'In the draft', 'Chosen by'], r.additions.map((a) => [a.hop, a.profile, a.pack, `\`${a.path}\``, a.value, a.what, a.included ? 'yes' : 'no, left out', a.chosenBy ?? (a.rule ? `nobody (--accept-fix ${a.rule} adds it)` : 'nobody')])), '');
  }
  if (r.variablesUnserved) out.push(`Note: ${r.variablesUnserved}`, '');
  for (const v of r.variables) out.push(`- Hop ${v.hop} introduced the profile variable ${v.name} (${v.since}, ${v.profile} profile; ${v.source}): declared on the new version, its value set for the cluster with the apply and recorded nowhere.`);
  if (r.variables.length) out.push('');
  return out;
}

function preChecks(r: ReportData): string[] {
  if (r.preChecks.length === 0) return [];
  const notGreen = r.preChecks.filter((c) => c.status !== 'pass');
  const out = ['## Pre-checks', '', `${r.preChecks.length - notGreen.length} of ${r.preChecks.length} green.`, ''];
  if (notGreen.length) out.push(...table(['Check', 'Result', 'Detail'], notGreen.map((c) => [c.title, (statusWord[c.status] ?? c.status).toUpperCase(), c.summary])), '');
  return out;
}

function stepsTable(r: ReportData): string[] {
  const rows = r.steps.map((s) => [s.id, s.status, formatDuration(s.durationMs), s.attempts, cut(s.error ? s.error.message : (s.summary ?? ''), 200)]);
  const note = r.labTime ? ['_Durations are wall time; the waits the summaries quote (reconciliation, migrations) are the lab’s simulated time._', ''] : [];
  return ['## Steps', '', ...table(['Step', 'Status', 'Duration', 'Attempts', 'Summary'], rows), '', ...note];
}

/** The hops in order, then work outside any hop (recovery when no hop was needed). */
function hopKeys(r: ReportData): Array<number | null> {
  const keys: Array<number | null> = r.hops.map((h) => h.index);
  const outside = [...r.requests, ...r.vms, ...r.diagnoses].some((x) => x.hop === null) || r.steps.some((s) => s.kind === 'migrations' && !r.hops.length);
  return outside ? [...keys, null] : keys;
}

export function renderMarkdown(r: ReportData): string {
  const out = [
    ...header(r),
    ...timelineSection(r),
    ...when(r),
    ...decisions(r),
    ...profiles(r),
    ...(r.hops.length === 0 && !hopKeys(r).includes(null) ? ['## Plan', '', 'No hops: the pack was already at the target (or no plan was made).', ''] : []),
    ...hopKeys(r).flatMap((h) => hopSection(r, h)),
    ...verification(r),
    ...wayBack(r),
    ...carried(r),
    ...preChecks(r),
    ...stepsTable(r),
    ...renderAppendix(r),
  ];
  return `${out.join('\n').trimEnd()}\n`;
}
