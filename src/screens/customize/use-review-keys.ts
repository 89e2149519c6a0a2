/**
 * The review's keys, by what is on screen: the lists (packs, differences, fixes, the YAML diff), a
 * difference opened whole (and a conflict's chooser, and a value being typed), and the conflicts
 * confirmation. State is read through refs: keys can arrive faster than React re-renders.
 */
import { parse as parseYamlValue } from 'yaml';
import type { Choice as GateChoice, GateRequest } from '../../engine/gate.js';
import type { CustomizeEntry, DecisionMap, FixChoices } from '../../steps/customize/types.js';
import { keyPress, type KeyPress } from '../keys/key-press.js';
import { useScreenKeys } from '../keys/key-router.js';
import { initialScroll, scrollKey, type ScrollState } from '../keys/scroll-model.js';
import type { Scroll } from '../keys/use-scroll.js';
import { confirmKey, type ConfirmState } from './confirm-model.js';
import { choicesFor, entryKey, type Choice, type Decision } from './conflict-choices.js';
import type { FixRow } from './fix-rows.js';
import type { PackRow } from './pack-rows.js';
import type { ReviewFocus } from './review-layout.js';

/** What the review shows: its lists, a difference whole (or a conflict's chooser, or a value being typed), the conflicts confirmation. */
export type ReviewMode = 'list' | 'detail' | 'choose' | 'edit' | 'confirm';

type Ref<T> = { readonly current: T };
type Setter<T> = (next: T | ((prev: T) => T)) => void;

export interface ReviewState {
  packRef: Ref<ScrollState>;
  setPackScroll: Setter<ScrollState>;
  entryRef: Ref<ScrollState>;
  setEntryScroll: Setter<ScrollState>;
  focusRef: Ref<ReviewFocus>;
  setFocus: Setter<ReviewFocus>;
  modeRef: Ref<ReviewMode>;
  setMode: Setter<ReviewMode>;
  typedRef: Ref<string>;
  setTyped: Setter<string>;
  pendingRef: Ref<DecisionMap>;
  setPending: Setter<DecisionMap>;
  fixesRef: Ref<FixChoices>;
  setFixes: Setter<FixChoices>;
  fixIndexRef: Ref<number>;
  setFixIndex: Setter<number>;
  choiceAtRef: Ref<number>;
  setChoiceAt: Setter<number>;
  detailRef: Ref<number>;
  setDetailOffset: Setter<number>;
  confirmRef: Ref<ConfirmState>;
  setConfirm: Setter<ConfirmState>;
}

export interface ReviewKeysInput {
  isActive: boolean;
  gate?: GateRequest | undefined;
  decide?: ((choice: GateChoice, data?: unknown, pressed?: string) => void) | undefined;
  rows: readonly PackRow[];
  offered: readonly FixRow[];
  /** Packs and differences a page moves (those in view), the difference view's and the confirmation's rows. */
  bounds: { packPage: number; entryPage: number; detail: { total: number; page: number }; confirm: { total: number; page: number } };
  packText: (i: number) => string;
  entryText: (r: PackRow, e: CustomizeEntry) => string;
  state: ReviewState;
  diffScroll: Scroll;
  openConfirm: () => void;
  undecidedCount: () => number;
  /** The confirmation's guard time has passed since it was drawn. */
  armed: () => boolean;
}

/** Registers the review's keys; while it is typing (a search, a value) every key is its own. */
export function useReviewKeys(input: ReviewKeysInput): void {
  const { rows, offered, bounds, state: s, diffScroll, gate, decide } = input;
  const current = () => {
    const r = rows[Math.min(s.packRef.current.offset, rows.length - 1)];
    const list = r?.entries ?? [];
    return { r, list, e: list[Math.min(s.entryRef.current.offset, list.length - 1)] };
  };
  const answer = () => ({ decisions: s.pendingRef.current, fixes: s.fixesRef.current });
  const back = () => s.setMode('list');

  const setDecision = (value: Decision | undefined) => {
    const { r, e } = current();
    if (!r || !e || e.label !== 'conflict') return;
    const key = entryKey(r, e);
    s.setPending((p) => {
      const next = { ...p };
      if (value === undefined) delete next[key];
      else next[key] = value;
      return next;
    });
  };
  const onChoice = (choice: Choice) => {
    if (choice.kind === 'enter') {
      s.setTyped('');
      s.setMode('edit');
      return;
    }
    setDecision(choice.kind === 'set' ? choice.decision : undefined);
    back();
  };

  /** c, a, s: continue (the undecided conflicts first), apply and review again, stop. */
  const gateKey = (k: KeyPress): boolean => {
    if (!gate || !decide || k.name !== 'char') return false;
    if (k.text === 'c') {
      if (input.undecidedCount() === 0) decide('approve', answer(), 'c');
      else {
        input.openConfirm();
        s.setMode('confirm');
      }
    } else if (k.text === 'a') decide('skip', answer(), 'a');
    else if (k.text === 's') decide('abort', undefined, 's');
    else return false;
    return true;
  };

  /** Moves the selection in a list: the selected row is the offset of a one-row window (so `/` and n/N jump to it). */
  const moveIn = (list: 'packs' | 'entries', k: KeyPress): boolean => {
    const total = list === 'packs' ? rows.length : current().list.length;
    const ref = list === 'packs' ? s.packRef : s.entryRef;
    const set = list === 'packs' ? s.setPackScroll : s.setEntryScroll;
    const page = Math.max(1, list === 'packs' ? bounds.packPage : bounds.entryPage);
    const textAt = list === 'packs' ? input.packText : (i: number) => {
      const { r, list: es } = current();
      const e = es[i];
      return r && e ? input.entryText(r, e) : '';
    };
    const paged = k.name === 'pageUp' || k.name === 'pageDown' ? { ...ref.current, offset: ref.current.offset + (k.name === 'pageUp' ? -page : page) } : undefined;
    const r = paged ? { state: { ...paged, offset: Math.min(total - 1, Math.max(0, paged.offset)) }, handled: true } : scrollKey(ref.current, k, { total, page: 1, textAt });
    if (!r.handled) return false;
    set(r.state);
    if (list === 'packs') {
      s.setEntryScroll(initialScroll);
      diffScroll.reset();
    }
    return true;
  };

  const detailScroll = (k: KeyPress): boolean => {
    const r = scrollKey({ offset: s.detailRef.current }, k, bounds.detail);
    if (r.handled) s.setDetailOffset(r.state.offset);
    return r.handled;
  };

  const byMode: Record<Exclude<ReviewMode, 'list'>, (k: KeyPress) => void> = {
    confirm: (k) => {
      const r = confirmKey(s.confirmRef.current, k, bounds.confirm, input.armed());
      s.setConfirm(r.state);
      if (r.effect === 'back') back();
      else if (r.effect === 'continue' && decide) {
        // Back to the review underneath: a new round of it (decisions changed) is shown, not answered.
        back();
        decide('approve', answer(), 'c then y (undecided conflicts shown)');
      }
    },
    choose: (k) => {
      const e = current().e;
      const list = e ? choicesFor(e) : [];
      if (k.name === 'escape') s.setMode('detail');
      else if (k.name === 'up' || k.text === 'k') s.setChoiceAt((i) => Math.max(0, i - 1));
      else if (k.name === 'down' || k.text === 'j') s.setChoiceAt((i) => Math.min(list.length - 1, i + 1));
      else if (k.name === 'enter' && list[s.choiceAtRef.current]) onChoice(list[s.choiceAtRef.current]!.value);
      else if (k.name === 'pageUp' || k.name === 'pageDown') detailScroll(k);
    },
    edit: (k) => {
      if (k.name === 'escape') s.setMode('choose');
      else if (k.name === 'enter') {
        let value: unknown = s.typedRef.current;
        try {
          value = parseYamlValue(s.typedRef.current);
        } catch {
          // not YAML: keep the text as a string
        }
        setDecision({ value });
        back();
      } else if (k.name === 'backspace') s.setTyped((t) => t.slice(0, -(k.count ?? 1)));
      else if ((k.name === 'char' || k.name === 'paste') && k.text) s.setTyped((t) => t + k.text);
    },
    detail: (k) => {
      // A conflict is read whole first; Enter then opens its choices under it.
      if (k.name === 'enter' && current().e?.label === 'conflict') {
        s.setChoiceAt(0);
        s.setMode('choose');
      } else if (k.name === 'escape' || k.name === 'enter') back();
      else detailScroll(k);
    },
  };

  const fixesKey = (k: KeyPress) => {
    const row = offered[Math.min(s.fixIndexRef.current, offered.length - 1)];
    if (k.name === 'up' || k.text === 'k') s.setFixIndex((i) => Math.max(0, i - 1));
    else if (k.name === 'down' || k.text === 'j') s.setFixIndex((i) => Math.min(offered.length - 1, i + 1));
    else if (k.text === 'f' && row) {
      // Choosing writes a setting the site never had: the key that chose it goes into the report.
      s.setFixes((all) => {
        const next = { ...all };
        if (next[row.id]) delete next[row.id];
        else next[row.id] = { by: 'operator', key: 'f', at: new Date().toISOString() };
        return next;
      });
    } else if (k.name === 'tab' || k.name === 'escape') s.setFocus('packs');
    else gateKey(k);
  };

  const listKey = (k: KeyPress) => {
    const f = s.focusRef.current;
    if (f === 'diff') {
      if (diffScroll.handle(k)) return;
      if (k.text === 'd' || k.name === 'escape') s.setFocus('packs');
      return;
    }
    if (f === 'fixes') return fixesKey(k);
    if (moveIn(f, k)) return;
    if (k.name === 'tab') s.setFocus(f === 'packs' ? 'entries' : f === 'entries' && offered.length ? 'fixes' : 'packs');
    else if (k.text === 'd') {
      diffScroll.reset();
      s.setFocus('diff');
    } else if (k.name === 'enter' && f === 'entries' && current().e) {
      s.setDetailOffset(0);
      s.setMode('detail');
    } else if (k.name === 'enter' && f === 'packs') s.setFocus('entries');
    else gateKey(k);
  };

  const typing = () => s.modeRef.current === 'edit' || Boolean(s.packRef.current.search?.typing || s.entryRef.current.search?.typing) || diffScroll.typing();
  useScreenKeys(
    (text, key) => {
      const k = keyPress(text, key);
      const m = s.modeRef.current;
      if (m === 'list') listKey(k);
      else byMode[m](k);
    },
    { isActive: input.isActive, capture: typing },
  );
}
