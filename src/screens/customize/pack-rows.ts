/**
 * The review's pack rows: one per pack version a hop writes, with the counts an operator decides on.
 * A row with a conflict or an addition (a value neither the site nor the new version has) is what
 * needs a look, so those rows come first and carry a mark; within each group the plan's order
 * stays. The header's totals are these rows' counts added up, so the two can never disagree. Pure.
 */
import type { CustomizeEntry, CustomizeOutput, DraftAddition, PackCustomization } from '../../steps/customize/types.js';

export interface RowCounts {
  conflicts: number;
  /** Additions in the draft (chosen fixes, typed values, other values someone chose). */
  added: number;
  /** Additions offered and left out (a rule's fix not chosen, a value nobody chose). */
  offered: number;
  newDefaults: number;
  carried: number;
  ignored: number;
}

export interface PackRow {
  hop: number;
  role: string;
  profile: string;
  pack: PackCustomization;
  counts: RowCounts;
  /** The pack's differences as the review lists them: conflicts first, then chosen fixes, then the rest (each in the pack's order). */
  entries: CustomizeEntry[];
}

const entryRank = (e: CustomizeEntry) => (e.label === 'conflict' ? 0 : e.label === 'ruleFix' ? 1 : 2);

/** Conflicts first, then chosen fixes, then the rest, each group in the pack's order. */
export function reviewEntries(entries: readonly CustomizeEntry[]): CustomizeEntry[] {
  return entries.map((e, i) => ({ e, i })).sort((a, b) => entryRank(a.e) - entryRank(b.e) || a.i - b.i).map((x) => x.e);
}

/** The row's counts: the pack's labels, and the profile's additions that name this pack. */
export function rowCounts(pack: PackCustomization, additions: readonly DraftAddition[]): RowCounts {
  const own = additions.filter((a) => a.pack === pack.name);
  const c = pack.counts;
  return {
    conflicts: c.conflict,
    added: own.filter((a) => a.included).length,
    offered: own.filter((a) => !a.included).length,
    newDefaults: c.newDefault,
    carried: c.carried + c.candidate,
    ignored: c.ignored,
  };
}

/** Needs a look: it holds a conflict (1) or an addition (2); else 3. */
export function rowRank(c: RowCounts): 1 | 2 | 3 {
  if (c.conflicts > 0) return 1;
  return c.added + c.offered > 0 ? 2 : 3;
}

/** The mark at a row's start: `!` a conflict, `+` an addition, blank for the rest. */
export function rowMark(c: RowCounts): string {
  const rank = rowRank(c);
  return rank === 1 ? '!' : rank === 2 ? '+' : ' ';
}

/** Every pack row, those with conflicts first, then those with additions, then the rest (each in plan order). */
export function packRows(out: CustomizeOutput | undefined): PackRow[] {
  const rows = (out?.byHop ?? []).flatMap((h) =>
    h.profiles.flatMap((p) => p.packs.map((pack) => ({ hop: h.index, role: p.role, profile: p.name, pack, counts: rowCounts(pack, p.additions), entries: reviewEntries(pack.entries) }))),
  );
  return rows.map((r, i) => ({ r, i })).sort((a, b) => rowRank(a.r.counts) - rowRank(b.r.counts) || a.i - b.i).map((x) => x.r);
}

export interface CountPart {
  text: string;
  /** Conflicts red, additions amber; the rest plain. */
  tone?: 'fail' | 'warn';
}

/** The counts that are not zero, conflicts first, then additions: "conflicts 1 · new 45 · ignored 11". */
export function countParts(c: RowCounts): CountPart[] {
  const parts: CountPart[] = [];
  if (c.conflicts) parts.push({ text: `conflicts ${c.conflicts}`, tone: 'fail' });
  if (c.added) parts.push({ text: `added ${c.added}`, tone: 'warn' });
  if (c.offered) parts.push({ text: `offered ${c.offered}`, tone: 'warn' });
  if (c.newDefaults) parts.push({ text: `new ${c.newDefaults}` });
  if (c.carried) parts.push({ text: `carried ${c.carried}` });
  if (c.ignored) parts.push({ text: `ignored ${c.ignored}` });
  return parts.length ? parts : [{ text: 'no differences' }];
}

export const COUNT_SEPARATOR = ' · ';

export const countsText = (c: RowCounts): string => countParts(c).map((p) => p.text).join(COUNT_SEPARATOR);

/** The rows' counts added up: what the review's header says. */
export function reviewTotals(rows: readonly PackRow[]): RowCounts {
  const total: RowCounts = { conflicts: 0, added: 0, offered: 0, newDefaults: 0, carried: 0, ignored: 0 };
  for (const r of rows) for (const k of Object.keys(total) as Array<keyof RowCounts>) total[k] += r.counts[k];
  return total;
}

/** "12 pack version(s): conflicts 3 · new 58 · carried 25 · ignored 93". */
export function totalsText(rows: readonly PackRow[]): string {
  return `${rows.length} pack version(s): ${countsText(reviewTotals(rows))}`;
}

export const versionsText = (r: PackRow): string => `${r.pack.from} → ${r.pack.tag}`;

/** Everything the row says, whole (nothing shortened): what `/` searches. */
export function rowSearchText(r: PackRow): string {
  const marks = [r.counts.conflicts ? 'conflict' : '', r.counts.added + r.counts.offered ? 'addition' : ''].filter(Boolean).join(' ');
  return `hop ${r.hop} ${r.profile} / ${r.pack.name} ${versionsText(r)} ${countsText(r.counts)} ${marks}`;
}
