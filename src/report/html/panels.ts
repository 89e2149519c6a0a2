/**
 * The verification panels as the TUI shows them, for report.html: the overall result, then one
 * panel per check, its status in words and colour, title, spec item and time, its summary, and for
 * a panel that is not green its evidence and what to do. Every text is escaped. Pure.
 */
import type { ReportData } from '../model.js';
import { escapeHtml as h } from './markdown-html.js';
import { formatDuration } from '../../text/duration.js';

const word: Record<string, string> = { pass: 'PASS', fail: 'FAIL', warn: 'WARN', unknown: 'UNKNOWN' };
const tone = (status: string) => (status in word ? status : 'unknown');

export function verificationPanels(r: Pick<ReportData, 'verification'>): string {
  const v = r.verification;
  const out = ['<h2 id="verification">Verification</h2>'];
  if (!v) return [...out, '<p><em>Not run in this session.</em></p>'].join('\n');
  if (v.rehearsal) out.push("<p><em>Rehearsal: today's health, not the target versions.</em></p>");
  const counts = ['pass', 'fail', 'warn', 'unknown'].map((s) => `${v.results.filter((c) => c.status === s).length} ${{ pass: 'green', fail: 'red', warn: 'amber', unknown: 'unknown' }[s]}`).join(', ');
  out.push(`<p><span class="overall ${tone(v.overall)}">${h((word[v.overall] ?? v.overall).toUpperCase())}</span> ${h(counts)}</p>`, '<div class="panels">');
  for (const c of v.results) {
    const details = c.status === 'pass' ? [] : [c.evidence.length ? `<ul>${c.evidence.map((e) => `<li>${h(e)}</li>`).join('')}</ul>` : '', c.remediation ? `<p class="todo"><strong>What to do:</strong> ${h(c.remediation)}</p>` : ''];
    out.push(
      `<article class="panel ${tone(c.status)}" data-check="${h(c.id)}">`,
      `<header><span class="badge">${h(word[c.status] ?? c.status)}</span><h3>${h(c.title)}</h3>${c.spec ? `<span class="spec">${h(c.spec)}</span>` : ''}<span class="time">${h(formatDuration(c.durationMs))}</span></header>`,
      `<p>${h(c.summary)}</p>`,
      ...details.filter(Boolean),
      '</article>',
    );
  }
  out.push('</div>');
  return out.join('\n');
}
