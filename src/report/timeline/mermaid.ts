/**
 * The timeline as a Mermaid `gantt` block for report.md (Git hosts and wikis render it). Only a
 * subset of the grammar is written (mermaid-js/mermaid packages/mermaid/src/diagrams/gantt/parser/
 * gantt.jison, in its older and newer forms): title, dateFormat, axisFormat, tickInterval,
 * todayMarker, section and task lines `name :tags, id, start, end`. Text from the cluster or the
 * operator is made safe for both lexers (mermaidText). Pure.
 */
import type { Timeline, TimelineBar, TimelineForecast } from './schema.js';
import { axisRange } from './layout.js';
import { tickStep } from './ticks.js';
import { durationRange, formatDuration, roughDuration } from '../../text/duration.js';

/**
 * Words that open a statement when a line starts with them (the lexer tries them before task text,
 * case-insensitively), and a date, which is a token of its own.
 */
const LEADING = /^(gantt|dateformat|inclusiveenddates|topaxis|axisformat|tickinterval|includes|excludes|todaymarker|weekday|weekend|title|accdescription|acctitle|accdescr|section|click|call|href|\d{4}-\d{2}-\d{2})/i;

/**
 * Text for a section name, a task name or the title: `:` ends a task name, `#` and `%%` start
 * comments, `;` ends a statement in the older lexer; each becomes a look-alike. Line breaks become
 * spaces; a text that would start a statement gets a visible prefix.
 */
export function mermaidText(s: string, max = 120): string {
  let t = s
    .replace(/[\r\n\t\f\v]+/g, ' ')
    .replace(/:/g, '∶')
    .replace(/#/g, '＃')
    .replace(/;/g, ',')
    .replace(/%/g, '％')
    .replace(/\s+/g, ' ')
    .trim();
  if (t.length > max) t = `${t.slice(0, max - 1).trimEnd()}…`;
  if (LEADING.test(t)) t = `› ${t}`;
  return t || '-';
}

/** `2026-12-02 00:57:20` (UTC): whole seconds, as `dateFormat YYYY-MM-DD HH:mm:ss` reads them. */
const at = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

/** A bar's start and end, to the second: a bar shorter than a second is drawn one second long. */
function span(from: string, to: string): [string, string] {
  const a = Math.floor(Date.parse(from) / 1000) * 1000;
  const b = Math.max(a + 1000, Math.ceil(Date.parse(to) / 1000) * 1000);
  return [at(a), at(b)];
}

/** Tags by whose time and how it ended: the tool's and the cluster's work plain, the operator's waits grey (done), failures red (crit). */
function tags(b: TimelineBar): string[] {
  const t: string[] = [];
  if (b.status === 'failed') t.push('crit');
  if (b.by === 'operator' || b.status === 'skipped' || b.status === 'halted') t.push('done');
  return t;
}

const line = (name: string, tagList: string[], id: string, from: string, to: string) => `    ${mermaidText(name)} :${[...tagList, id, ...span(from, to)].join(', ')}`;

const barName = (b: TimelineBar) => {
  const who = b.by === 'operator' && b.status === 'ok' ? 'waiting, ' : '';
  return `${who}${b.label}${b.note ? ` · ${b.note}` : ''}`;
};

function forecastLines(f: TimelineForecast, id: () => string, lab: string): string[] {
  const out = [line(`predicted end p50..p90 · ${durationRange(f.p50Seconds, f.p90Seconds)}${lab}`, ['active'], id(), f.p50At, f.p90At)];
  if (f.to) out.push(line(`cluster work · took ${f.tookSeconds !== undefined ? `${roughDuration(f.tookSeconds)}${lab}` : formatDuration(Date.parse(f.to) - Date.parse(f.from))}`, [], id(), f.from, f.to));
  return out;
}

/** The axis labels and tick spacing for the run's length (Mermaid's d3 formats). */
function axis(t: Timeline): string[] {
  const { from, to } = axisRange(t);
  const lengthMs = to - from;
  const format = lengthMs < 15 * 60_000 ? '%H:%M:%S' : lengthMs < 36 * 3_600_000 ? '%H:%M' : '%m-%d %H:%M';
  const step = tickStep(lengthMs, 8);
  return [`    axisFormat ${format}`, `    tickInterval ${step.mermaid}`];
}

export function timelineMermaid(t: Timeline, title: string): string[] {
  let n = 0;
  const id = () => `t${++n}`;
  const lab = t.labSpeed ? ' lab time' : '';
  const out = ['```mermaid', 'gantt', `    title ${mermaidText(`${title} (UTC)`, 160)}`, '    dateFormat YYYY-MM-DD HH:mm:ss', ...axis(t), '    todayMarker off'];
  // A window that runs far past the run is cut at the axis's end (it would squeeze the run), and says so.
  const { to: axisEnd } = axisRange(t);
  for (const w of t.windows) {
    const cut = Date.parse(w.to) > axisEnd;
    const name = cut ? `${w.label}, until ${w.to.slice(11, 19)} UTC` : w.label;
    out.push(`    section ${mermaidText('Booked window')}`, line(name, ['done'], id(), w.from, cut ? new Date(axisEnd).toISOString() : w.to));
  }
  for (const s of t.sections) {
    out.push(`    section ${mermaidText(s.title, 80)}`);
    for (const b of s.bars) out.push(line(barName(b), tags(b), id(), b.from, b.to));
    if (s.forecast) out.push(...forecastLines(s.forecast, id, lab));
  }
  if (t.marks.length) {
    out.push(`    section ${mermaidText('End')}`);
    for (const m of t.marks) out.push(line(m.label, ['milestone', ...(m.status === 'failed' ? ['crit'] : [])], id(), m.at, m.at));
  }
  out.push('```');
  return out;
}
