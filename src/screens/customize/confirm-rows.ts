/**
 * What the conflicts confirmation says, as rows of the width: each undecided conflict with its
 * pack, its key path, the site's value, the new default, and what `c` keeps (the review's proposal)
 * with the value the draft then holds. Every value whole. Pure.
 */
import { sanitizeText } from '../../text/sanitize.js';
import { flowText } from './break-lines.js';
import { proposalWords, type UndecidedConflict } from './conflict-choices.js';
import { field, type DifferenceRow } from './difference-lines.js';
import { valueText } from './entry-rows.js';
import { versionsText } from './pack-rows.js';

export interface ConfirmRow {
  text: string;
  kind: 'pack' | 'path' | 'value' | 'keeps' | 'gap';
}

const as = (rows: DifferenceRow[], kind: ConfirmRow['kind']): ConfirmRow[] => rows.map((r) => ({ text: r.text, kind }));

export function confirmRows(list: readonly UndecidedConflict[], width: number): ConfirmRow[] {
  const out: ConfirmRow[] = [];
  list.forEach(({ row, entry }, i) => {
    if (i > 0) out.push({ text: '', kind: 'gap' });
    const pack = `${i + 1}. hop ${row.hop} · ${row.profile} / ${row.pack.name} ${versionsText(row)}`;
    out.push(...flowText(sanitizeText(pack, { max: 400 }), 'words', width, { indent: 3 }).map((text) => ({ text, kind: 'pack' as const })));
    out.push(...as(field('path', sanitizeText(entry.path, { max: 4000 }), 'path', width, 'path', '   '), 'path'));
    out.push(...as(field('site', valueText(entry.deployed), 'value', width, 'value', '   '), 'value'));
    out.push(...as(field('new default', valueText(entry.newDefault), 'value', width, 'value', '   '), 'value'));
    out.push(...as(field('c keeps', `${proposalWords(entry)}${entry.result !== undefined ? `: ${valueText(entry.result)}` : ''}`, 'value', width, 'value', '   '), 'keeps'));
  });
  return out;
}
