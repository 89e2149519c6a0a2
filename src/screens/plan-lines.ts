/**
 * The plan screen as lines, pure: each hop with its window (median and pessimistic against the
 * window booked, and what it is made of), its profiles and packs; every VM of the impact, one row
 * each (restarts and evictions first), a reason cut in its row being numbered and given in full
 * under the table; every note and the way back, wrapped. The screen scrolls through them, so a
 * cluster of 5,000 VMs costs what one screen of lines costs to draw.
 */
import type { PlannedHop } from '../domain/plan/planned-hop.js';
import type { VmImpact } from '../domain/impact/vm-impact.js';
import { etaPartName, roomLines } from '../domain/window/render.js';
import { windowVerdict } from '../domain/window/window-verdict.js';
import { impactLine } from '../domain/impact/impact.js';
import { referenceText } from '../steps/plan/render-text.js';
import type { PlanOutput } from '../steps/plan/types.js';
import { durationRange, roughDuration } from '../text/duration.js';
import { sanitizeText } from '../text/sanitize.js';
import { fitMiddle } from './fit-text.js';
import { longestOf } from './migrations-columns.js';
import { wrapText } from './migrations-wrap.js';
import type { Tone } from './theme.js';

export interface DocLine {
  text: string;
  tone?: Tone;
  bold?: boolean;
  dim?: boolean;
}

const fateLabel: Record<VmImpact['fate'], { text: string; tone: Tone }> = {
  'live-migrate': { text: 'LIVE-MIGRATE', tone: 'pass' },
  evict: { text: 'EVICT', tone: 'warn' },
  restart: { text: 'RESTART LATER', tone: 'accent' },
  'not-running': { text: 'NOT RUNNING', tone: 'muted' },
};

/** A line as it is when it fits (its columns kept), else wrapped at words under its own indent. */
function wrapped(text: string, width: number, style: Omit<DocLine, 'text'> = {}, hanging = 2): DocLine[] {
  const clean = sanitizeText(text, { max: 4000 });
  return (clean.length <= width ? [clean] : wrapText(clean, width, hanging)).map((t) => ({ text: t, ...style }));
}

/** The hop's window: p50 and p90 against the booked window, then its parts. */
export function hopWindowLines(hop: PlannedHop, bookedMs: number | undefined, restarts: number, width: number): DocLine[] {
  const eta = hop.eta;
  if (!eta) return [];
  const verdict = bookedMs !== undefined ? windowVerdict(eta.p50Seconds, eta.p90Seconds, bookedMs) : undefined;
  const head = `  Window: p50 ${roughDuration(eta.p50Seconds)} · p90 ${roughDuration(eta.p90Seconds)}${verdict ? ` · ${verdict.text}` : ''}`;
  const parts = eta.parts
    .filter((p) => p.what !== 'restarts' || p.p50Seconds > 0)
    .map((p) => `${etaPartName[p.what]} ${durationRange(p.p50Seconds, p.p90Seconds)}`)
    .join(' · ');
  const answers = restarts ? `; plus your time at ${restarts === 1 ? 'the restart gate' : `${restarts} restart gates`} (not predicted)` : '';
  return [...wrapped(head, width, { bold: true, ...(verdict && verdict.fit !== 'fits' ? { tone: verdict.fit === 'over' ? 'fail' : 'warn' } : {}) }, 2), ...wrapped(`    ${parts}${answers}`, width, { dim: true }, 2)];
}

function hopLines(hop: PlannedHop, out: PlanOutput, width: number): DocLine[] {
  const components = [hop.kubevirtVersion && `KubeVirt ${hop.kubevirtVersion}`, hop.cdiVersion && `CDI ${hop.cdiVersion}`].filter(Boolean).join(' · ');
  const registry = out.versionSource;
  const source = hop.source ? ` · ${hop.to} is ${registry ? hop.source.replace(` in ${registry}`, '') : hop.source}` : '';
  const lines: DocLine[] = [...wrapped(`Hop ${hop.index}: ${hop.from} → ${hop.to}${components ? ` deploys ${components}` : ''}${source}`, width, { bold: true })];
  lines.push(...hopWindowLines(hop, out.bookedWindowMs, out.impactCounts.restart, width));
  for (const p of hop.profiles) {
    lines.push(...wrapped(`  ${p.name} version ${p.fromVersion} → ${p.toVersion} (${p.reference?.kind === 'registry' ? 'registry defaults' : referenceText(p)})`, width, {}, 4));
    for (const k of p.packs) lines.push(...wrapped(`    ${k.name.padEnd(30)} ${k.from} → ${k.to}${k.source && p.reference?.kind !== 'profile' ? ` ${k.source}` : ''}`, width, {}, 4));
    if (p.stays?.length) lines.push(...wrapped(`    stay: ${p.stays.join(', ')}`, width, { dim: true }, 4));
  }
  for (const v of hop.variables ?? []) {
    lines.push(...wrapped(`  new profile variable ${v.name} (${v.since}): declared before the draft; its value is asked at the draft gate${v.sensitive ? ', hidden' : ''}, and written nowhere`, width, {}, 4));
  }
  if (hop.room) for (const l of roomLines(hop.room)) lines.push(...wrapped(l, width, { tone: hop.room.nodes.some((n) => n.unplaced.length) ? 'warn' : 'muted' }, 4));
  return lines;
}

/**
 * The impact table: a header, then one row per VM, its name whole; a reason too long for its cell
 * gets a number, given in full below. Where the pane is narrow the cell holds only that number.
 */
export function impactLines(rows: readonly VmImpact[], width: number): { lines: DocLine[]; reasons: DocLine[] } {
  if (!rows.length) return { lines: [{ text: 'No VMs on this cluster.', dim: true }], reasons: [] };
  const fateW = 13;
  const vmW = Math.min(48, longestOf(rows, (r) => r.vm, 'VM'));
  const nodeNatural = longestOf(rows, (r) => r.node ?? '', 'NODE');
  // The name first: the node gives way (shortened in the middle, never below 6) before the VM does.
  const nodeW = Math.max(6, Math.min(nodeNatural, width - fateW - vmW - 6 - 16));
  const whyW = width - fateW - vmW - nodeW - 6;
  const tagOnly = whyW < 16;
  const numbers = new Map<string, number>();
  const number = (reason: string) => numbers.get(reason) ?? numbers.set(reason, numbers.size + 1).get(reason)!;
  const lines: DocLine[] = [{ text: `${'FATE'.padEnd(fateW)}  ${'VM'.padEnd(vmW)}  ${'NODE'.padEnd(nodeW)}  WHY`, bold: true }];
  for (const r of rows) {
    const reason = sanitizeText(r.reason, { max: 1000 });
    let why = reason;
    if (tagOnly) why = `[${number(reason)}]`;
    else if (reason.length > whyW) {
      const tag = `[${number(reason)}] `;
      why = `${tag}${reason.slice(0, Math.max(0, whyW - tag.length - 1))}…`;
    }
    lines.push({ text: `${fateLabel[r.fate].text.padEnd(fateW)}  ${fitMiddle(r.vm, vmW)}  ${fitMiddle(r.node ?? '', nodeW)}  ${why}`, tone: fateLabel[r.fate].tone });
  }
  const reasons = [...numbers].flatMap(([reason, n]) => wrapped(`[${n}] ${reason}`, width, { dim: true }, 4));
  return { lines, reasons };
}

/** Everything under the plan's title, in order: the whole upgrade's window first. */
export function planLines(out: PlanOutput, sorted: readonly VmImpact[], width: number): DocLine[] {
  const lines: DocLine[] = [];
  if (out.windowTotal) lines.push(...wrapped(out.windowTotal, width, { tone: /MORE than/.test(out.windowTotal) ? 'warn' : 'pass' }));
  if (out.hops.length && out.versionSource) lines.push(...wrapped(`Versions from ${out.versionSource}`, width, { dim: true }));
  for (const h of out.hops) lines.push(...hopLines(h, out, width));
  lines.push({ text: '' }, ...wrapped(`VM impact ${impactLine(out.impactCounts)}`, width, { bold: true }));
  const table = impactLines(sorted, width);
  lines.push(...table.lines);
  if (table.reasons.length) lines.push({ text: 'Why, in full:', bold: true }, ...table.reasons);
  if (out.notes.length) lines.push({ text: '' }, { text: 'Notes', bold: true });
  for (const n of out.notes) lines.push(...wrapped(`• ${n}`, width, { dim: true }));
  const wayBack = out.wayBack ?? [];
  if (wayBack.length) lines.push({ text: '' }, { text: 'The way back', bold: true });
  for (const w of wayBack) lines.push(...wrapped(`• ${w.name} ${w.version} (uid ${w.uid}): ${w.how}`, width, { dim: true }));
  return lines;
}
