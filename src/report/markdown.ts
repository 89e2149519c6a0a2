/** Report data → Markdown for a change ticket: facts first, evidence after, nothing hidden. */
import { formatDuration } from '../engine/duration.js';
import type { ReportData } from './model.js';

const cell = (s: string | number | undefined) => String(s ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');
const table = (head: string[], rows: Array<Array<string | number | undefined>>): string[] =>
  rows.length === 0 ? [] : [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)];

const statusWord: Record<string, string> = { pass: 'PASS', fail: 'FAIL', warn: 'WARN', unknown: 'UNKNOWN' };

export function renderMarkdown(r: ReportData): string {
  const m = r.session;
  const out: string[] = [];
  const push = (...lines: string[]) => out.push(...lines);
  push(`# ${r.rehearsal ? 'Rehearsal report' : 'Upgrade report'}: ${m.runbook.title}`, '');
  if (r.rehearsal) push('> **Rehearsal:** every read was real; every change below was recorded, **nothing was sent**.', '');
  push(
    ...table(
      ['', ''],
      [
        ['Session', m.id],
        ['Mode', `${r.rehearsal ? 'rehearsal' : 'live'}${m.lab ? ' (embedded lab)' : ''}`],
        ['Operator', `${m.user}@${m.host}`],
        ['Tool', m.tool],
        ['Cluster', `${m.cluster.name ?? ''} ${m.cluster.uid ? `(${m.cluster.uid})` : ''}${m.cluster.context ? `, context ${m.cluster.context}` : ''}`.trim()],
        ['Runbook', `${m.runbook.file} (${m.runbook.digest})`],
        ['Started', m.createdAt],
        ['Report written', r.generatedAt],
        ['Outcome', `${r.outcome.status}${r.outcome.reason ? `: ${r.outcome.reason}` : ''}`],
      ],
    ),
    '',
  );
  if (r.outcome.hint && r.outcome.status !== 'done') push(`**Next action:** ${r.outcome.hint}`, '');

  push('## Profiles', '');
  if (r.profilesBefore.length) push('Before (recorded by the snapshot):', '', ...table(['Profile', 'Version', 'Packs'], r.profilesBefore.map((p) => [p.name, p.version, p.packs.map((k) => `${k.name} ${k.tag}`).join(', ')])), '');
  if (r.profilesAfter.length) push('After (read from the cluster):', '', ...table(['Profile', 'Version', 'Source'], r.profilesAfter.map((p) => [p.name, p.version, p.source])), '');
  if (!r.profilesBefore.length && !r.profilesAfter.length) push('_Not recorded in this session._', '');

  push('## Plan', '');
  if (r.hops.length === 0) push('No hops: the pack was already at the target (or no plan was made).', '');
  for (const h of r.hops) {
    push(`### Hop ${h.index}: ${h.from} → ${h.to}`, '', ...table(['Profile', 'Version label', 'Pack changes'], h.profiles.map((p) => [p.name, `${p.fromVersion} → ${p.toVersion}`, p.packs.join('; ')])), '');
  }
  if (r.impact.length) {
    const by = (fate: string) => r.impact.filter((i) => i.fate === fate);
    push(`VM impact: ${by('live-migrate').length} live-migrate, ${by('evict').length} evicted, ${by('restart').length} need a restart, ${by('not-running').length} not running.`, '');
    const restart = by('restart');
    if (restart.length) push(...restart.map((i) => `- ${i.vm}: ${i.reason}`), '');
  }

  push('## Customizations carried forward', '');
  if (r.customizations.length === 0) push('_None recorded._', '');
  else push(...table(['Hop', 'Profile', 'Pack', 'Path', 'Label', 'Deployed', 'New default', 'Decision'], r.customizations.map((c) => [c.hop, c.profile, c.pack, `\`${c.path}\``, c.label, c.deployed, c.newDefault, c.decision])), '');
  if (r.rules.length) push('Rules (spec 9.2):', '', ...table(['Where', 'Rule', 'Result', 'Detail'], r.rules.map((x) => [x.stage, x.title, x.status === 'notApplicable' ? 'N/A' : x.status.toUpperCase(), x.message])), '');

  if (r.preChecks.length) push('## Pre-checks', '', ...table(['Check', 'Result', 'Detail'], r.preChecks.map((c) => [c.title, (statusWord[c.status] ?? c.status).toUpperCase(), c.summary])), '');

  push(r.rehearsal ? '## Planned calls (recorded, not sent)' : '## Changes sent', '');
  if (r.mutations.length === 0) push('_None._', '');
  else push(...table(['Time', 'Step', 'What', 'Request', 'Body', 'Approval', 'Outcome'], r.mutations.map((x) => [x.at, x.step, x.what, `\`${x.request}\``, x.bodySummary, x.approval, x.outcome])), '');

  if (r.diffs.length) {
    push('## Payload diffs per pack', '');
    for (const d of r.diffs) {
      push(`### ${d.hop ? `Hop ${d.hop}, ` : ''}${d.profile} / ${d.pack}: ${d.from} → ${d.to} (+${d.added} −${d.removed})`, '');
      if (d.patch.length) push('```diff', ...d.patch, ...(d.truncated ? ['… (diff truncated)'] : []), '```', '');
      else push('_Values unchanged (tag only)._', '');
    }
  }

  push('## Migrations', '');
  if (r.migrations.length === 0) push('_Not monitored in this session._', '');
  else push(...r.migrations.map((x) => `- ${x.step}: ${x.summary}`), '');
  if (r.diagnoses.length) {
    push('## Diagnoses', '');
    for (const d of r.diagnoses) push(`- ${d.step}: ${d.summary}`, ...d.findings.map((f) => `  - ${f}`));
    push('');
  }
  push('## VM restarts', '', `Restarted (${r.restarts.restarted.length}): ${r.restarts.restarted.join(', ') || 'none'}`, '', `Outstanding, not restarted (${r.restarts.outstanding.length}): ${r.restarts.outstanding.join(', ') || 'none'}`, '');

  push('## Verification', '');
  if (!r.verification) push('_Not run in this session._', '');
  else {
    if (r.verification.rehearsal) push("_Rehearsal: today's health, not the target versions._", '');
    push(`Overall: **${(statusWord[r.verification.overall] ?? r.verification.overall).toUpperCase()}**`, '');
    for (const c of r.verification.results) {
      push(`- **${statusWord[c.status]}** ${c.title}${c.spec ? ` (${c.spec})` : ''}: ${c.summary} _(${formatDuration(c.durationMs)})_`);
      for (const e of c.evidence) push(`  - ${e}`);
      if (c.status !== 'pass' && c.remediation) push(`  - What to do: ${c.remediation}`);
    }
    push('');
  }

  push('## Steps', '', ...table(['Step', 'Title', 'Status', 'Duration', 'Attempts', 'Summary'], r.steps.map((s) => [s.id, s.title, s.status, formatDuration(s.durationMs), s.attempts, s.error ? `${s.error.message}` : s.summary])), '');
  return `${out.join('\n').trimEnd()}\n`;
}
