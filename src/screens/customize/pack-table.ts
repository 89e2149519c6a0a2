/**
 * The pack rows laid out for a width. Every row shows its versions whole and its counts whole; when
 * a row is too wide the pack's name gives way first (shortened in its middle, down to a floor), and
 * when even that is not enough every row puts its counts on the line under its name. One layout
 * for the whole list, so the columns line up. Pure.
 */
import { shortenMiddle } from '../fit-text.js';
import { COUNT_SEPARATOR, countParts, countsText, versionsText, type CountPart, type PackRow } from './pack-rows.js';

/** The cursor (2), the mark (1) and a space. */
export const ROW_LEAD = 4;
/** A name is not shortened below this (or its own length): below it, counts go to their own line. */
const NAME_FLOOR = 20;
/** With its profile (`vmo-infra / csi-portworx-generic`) only when every row has room for that. */
const PROFILE_NAME_MAX = 44;

export interface PackTableLayout {
  width: number;
  /** `hop 1 · ` before each name (the plan has more than one hop). */
  hopWidth: number;
  withProfile: boolean;
  nameWidth: number;
  versionsWidth: number;
  /** The counts on the row's own line; else on the line under it. */
  countsInline: boolean;
}

const plainName = (r: PackRow) => r.pack.name;
const profileName = (r: PackRow) => `${r.profile} / ${r.pack.name}`;
const widest = (xs: readonly string[]) => Math.max(0, ...xs.map((x) => [...x].length));

export function packTableLayout(rows: readonly PackRow[], width: number): PackTableLayout {
  const manyHops = new Set(rows.map((r) => r.hop)).size > 1;
  const hopWidth = manyHops ? widest(rows.map((r) => `hop ${r.hop} · `)) : 0;
  const versionsWidth = widest(rows.map(versionsText));
  const countsWidth = widest(rows.map((r) => countsText(r.counts)));
  const fixed = ROW_LEAD + hopWidth + 1 + versionsWidth;
  const plainNeed = widest(rows.map(plainName));
  const inlineRoom = width - fixed - 2 - countsWidth;
  const countsInline = inlineRoom >= Math.min(plainNeed, NAME_FLOOR);
  const room = Math.max(4, countsInline ? inlineRoom : width - fixed);
  const withProfile = rows.length > 0 && rows.every((r) => profileName(r).length <= Math.min(room, PROFILE_NAME_MAX));
  const nameWidth = Math.min(room, widest(rows.map(withProfile ? profileName : plainName)));
  return { width, hopWidth, withProfile, nameWidth, versionsWidth, countsInline };
}

export interface PackRowLines {
  /** After the cursor and the mark: the hop, the name (padded), the versions (padded). */
  head: string;
  /** The counts: on the head's line when inline (one line), else the lines under it. */
  counts: CountPart[][];
}

/** Count parts in lines of `width`, split only between parts. */
function countLines(parts: CountPart[], width: number): CountPart[][] {
  const lines: CountPart[][] = [];
  let line: CountPart[] = [];
  let used = 0;
  for (const p of parts) {
    const add = (line.length ? COUNT_SEPARATOR.length : 0) + p.text.length;
    if (line.length && used + add > width) {
      lines.push(line);
      line = [];
      used = 0;
    }
    used += (line.length ? COUNT_SEPARATOR.length : 0) + p.text.length;
    line.push(p);
  }
  if (line.length) lines.push(line);
  return lines;
}

export function packRowLines(r: PackRow, layout: PackTableLayout): PackRowLines {
  const hop = layout.hopWidth ? `hop ${r.hop} · `.padEnd(layout.hopWidth) : '';
  const name = shortenMiddle(layout.withProfile ? profileName(r) : plainName(r), layout.nameWidth);
  const head = `${hop}${name.padEnd(layout.nameWidth)} ${versionsText(r).padEnd(layout.versionsWidth)}`;
  const parts = countParts(r.counts);
  return { head, counts: layout.countsInline ? [parts] : countLines(parts, Math.max(10, layout.width - ROW_LEAD)) };
}

/** Terminal rows a pack row takes. */
export const packRowHeight = (lines: PackRowLines, layout: PackTableLayout): number => (layout.countsInline ? 1 : 1 + lines.counts.length);
