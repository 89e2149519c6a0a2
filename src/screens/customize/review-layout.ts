/**
 * How the review's rows share the screen's height. Every row is counted, so the lists take what is
 * left and nothing under them (the rules, the keys) is pushed out of sight. While the packs have
 * the focus they get at least half; while a pack's differences are read the packs shrink to the
 * selected one (and a line saying which of how many). Pure.
 */
export type ReviewFocus = 'packs' | 'entries' | 'diff' | 'fixes';

export interface ListBudgetInput {
  height: number;
  /** Rows of everything but the two lists (header, pack line, table header and status line, rules, keys). */
  fixedRows: number;
  packHeights: readonly number[];
  selectedPack: number;
  /** Rows every difference of the selected pack would take. */
  entriesNeed: number;
  focus: ReviewFocus;
  /** A line under the packs is needed anyway (a search being typed or its result). */
  lineUnder?: boolean;
}

export interface ListBudget {
  packRoom: number;
  entryRoom: number;
  /** Not every pack is in view: a line says which one of how many (or the line under is needed anyway). */
  packMore: boolean;
}

export function listBudget(i: ListBudgetInput): ListBudget {
  const listsRoom = Math.max(4, i.height - i.fixedRows);
  const need = i.packHeights.reduce((n, h) => n + h, 0);
  const selected = i.packHeights[i.selectedPack] ?? 1;
  const want = i.focus === 'packs' ? Math.max(Math.ceil(listsRoom / 2), listsRoom - Math.max(2, i.entriesNeed)) : Math.max(selected, Math.floor(listsRoom / 4));
  const packMore = Boolean(i.lineUnder) || need > Math.min(need, want);
  const packRoom = Math.max(selected, Math.min(need, want) - (packMore ? 1 : 0));
  const entryRoom = Math.max(2, listsRoom - packRoom - (packMore ? 1 : 0));
  return { packRoom, entryRoom, packMore };
}
