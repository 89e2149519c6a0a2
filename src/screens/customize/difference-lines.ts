/**
 * One difference whole, for the view Enter opens: the key path, the site's value, the new default,
 * what the draft holds (and the old default, where the comparison knew it), and why it is listed.
 * Every field wrapped whole at the width; the path and the two values come first, so a short
 * screen shows them before anything else. Pure.
 */
import type { CustomizeEntry } from '../../steps/customize/types.js';
import { sanitizeText } from '../../text/sanitize.js';
import { shortenMiddle } from '../fit-text.js';
import { flowPieces, type BreakKind } from './break-lines.js';
import { unchanged, valueText } from './entry-rows.js';
import { versionsText, type PackRow } from './pack-rows.js';

/** One row over the difference: "A conflict · hop 1 · vmo-core-addon / virtual-machine-orchestrator 4.4.10 → 4.5.4", the name shortened to fit. */
export function differenceHeading(e: CustomizeEntry, r: PackRow, width: number): string {
  const lead = `${e.label === 'conflict' ? 'A conflict' : 'A difference'} · hop ${r.hop} · `;
  const tail = ` ${versionsText(r)}`;
  const room = width - lead.length - tail.length;
  const full = `${r.profile} / ${r.pack.name}`;
  return `${lead}${full.length <= room ? full : shortenMiddle(r.pack.name, Math.max(8, room))}${tail}`;
}

export interface DifferenceRow {
  text: string;
  /** The field the row belongs to (the path is drawn bold, the reasons dim). */
  field: 'path' | 'value' | 'why';
}

/** `name: text`, wrapped whole at the width with continuation rows indented by 2 (after `lead`, when given). */
export function field(name: string, text: string, kind: BreakKind, width: number, as: DifferenceRow['field'], lead = ''): DifferenceRow[] {
  const rows = flowPieces([{ text: `${name}: `, breaks: 'words' }, { text, breaks: kind }], Math.max(10, width - lead.length), { indent: 2 });
  return rows.map((row) => ({ text: `${lead}${row}`, field: as }));
}

export function differenceRows(e: CustomizeEntry, width: number): DifferenceRow[] {
  const draft = `${valueText(e.result)}${unchanged(e) ? ' (the same as deployed)' : ''}`;
  const values: Array<[string, string]> =
    e.label === 'conflict'
      ? [
          ['site (deployed)', valueText(e.deployed)],
          ['new default', valueText(e.newDefault)],
          ['draft now', draft],
        ]
      : [
          ['deployed', valueText(e.deployed)],
          ['draft', draft],
          ['new default', valueText(e.newDefault)],
        ];
  if ('oldDefault' in e) values.push(['old default', valueText(e.oldDefault)]);
  const why: Array<[string, string, BreakKind]> = [];
  if (e.movedFrom) why.push(['moved from', e.movedFrom, 'path']);
  if (e.removed) why.push(['removed', e.removed, 'words']);
  if (e.note && !(e.removed && e.note.includes(e.removed))) why.push(['why', e.note, 'words']);
  return [
    ...field('path', sanitizeText(e.path, { max: 4000 }), 'path', width, 'path'),
    ...values.flatMap(([name, text]) => field(name, text, 'value', width, 'value')),
    ...why.flatMap(([name, text, kind]) => field(name, sanitizeText(text, { max: 4000 }), kind, width, 'why')),
  ];
}
