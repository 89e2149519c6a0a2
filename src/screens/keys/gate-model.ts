/**
 * What a key does at a gate, as a pure function tested with tables of key sequences. The rules
 * that keep anything from being approved by accident:
 *
 * - focus starts on the safe option and never wraps; ←/→ move it, ↑↓ PgUp PgDn j/k g/G only scroll
 *   the gate's content, Tab does nothing;
 * - an approving option is chosen by its own letter, or by Enter only once the operator moved the
 *   focus onto it on this gate; Esc is the safe option; `q` only asks whether to quit: it decides
 *   nothing (the app leaves the gate unanswered if the operator confirms, and returns to it if not);
 * - several characters at once (a paste, keys buffered while busy) choose nothing;
 * - once decided, the gate takes no more keys.
 *
 * The guard time (no key counts until a gate has been on screen for a moment) is `armed` below,
 * applied by the app before a key reaches this model.
 */
import type { Choice, GateOption, GateRequest } from '../../engine/gate.js';
import { erased, pressedName, type KeyPress } from './key-press.js';
import { initialScroll, scrollKey, type ScrollBounds, type ScrollState } from './scroll-model.js';
import { secretKey, startSecret, type SecretEntry } from './secret-entry.js';

export interface GateView {
  focus: number;
  /** The operator moved the focus on this gate (Enter may then choose a non-safe option). */
  moved: boolean;
  scroll: ScrollState;
  /** Approving needs the name typed: the typed text, and whether Enter found it wrong. */
  typing: boolean;
  typed: string;
  mismatch: boolean;
  /** A one-line note for the operator (why a key did nothing). */
  note?: string;
  /** Decided: no more keys. */
  done: boolean;
  /** Approving needs values typed hidden (profile variables): which one, and what was typed (secret-entry.ts). */
  secret?: SecretEntry;
}

export type GateEffect = { kind: 'decide'; choice: Choice; pressed: string; secrets?: Record<string, string> } | { kind: 'ask-quit' };

export interface GateKeyContext {
  request: Pick<GateRequest, 'options' | 'safeChoice' | 'confirmText' | 'secretInputs'>;
  rehearsal: boolean;
  /** The content's rows and the window over them. */
  bounds: ScrollBounds;
}

export function safeIndex(request: Pick<GateRequest, 'options' | 'safeChoice'>): number {
  return Math.max(0, request.options.findIndex((o) => o.choice === request.safeChoice));
}

export function initialGateView(request: Pick<GateRequest, 'options' | 'safeChoice'>): GateView {
  return { focus: safeIndex(request), moved: false, scroll: initialScroll, typing: false, typed: '', mismatch: false, done: false };
}

/** Keys that scroll a gate's content; an option may not use them as its letter. */
export const scrollLetters = new Set(['j', 'k', 'g', 'G', '/']);

/** The guard time has passed since the gate was first drawn. */
export function armed(drawnAt: number | undefined, now: number, guardMs: number): boolean {
  return drawnAt !== undefined && now - drawnAt >= guardMs;
}

/**
 * Said (on the key line, and beside a confirmation's options) while a gate's guard time runs, in
 * words, not only dimmed: without colour the two look alike. A key that did nothing in that instant
 * is explained, and a watcher of the screen can tell when keys count.
 */
export const NOT_ARMED_YET = 'keys count in a moment';

interface Step {
  view: GateView;
  effect?: GateEffect;
}

const decided = (view: GateView, choice: Choice, pressed: string): Step => ({ view: { ...view, done: true, typing: false }, effect: { kind: 'decide', choice, pressed } });

function choose(view: GateView, option: GateOption, pressed: string, ctx: GateKeyContext): Step {
  if (option.choice === 'approve' && ctx.request.secretInputs?.length && !ctx.rehearsal) {
    const { note: _n, ...rest } = view;
    return { view: { ...rest, secret: startSecret() } };
  }
  if (option.choice === 'approve' && ctx.request.confirmText && !ctx.rehearsal) {
    const { note: _n, ...rest } = view;
    return { view: { ...rest, typing: true, typed: '', mismatch: false } };
  }
  return decided(view, option.choice, pressed);
}

function typingKey(view: GateView, key: KeyPress, ctx: GateKeyContext): Step {
  if (key.name === 'escape') return { view: { ...view, typing: false, typed: '', mismatch: false } };
  if (key.name === 'enter') {
    if (view.typed === ctx.request.confirmText) return decided(view, 'approve', 'Enter');
    return { view: { ...view, mismatch: true } };
  }
  if (key.name === 'backspace') return { view: { ...view, typed: view.typed.slice(0, -erased(key)), mismatch: false } };
  if ((key.name === 'char' || key.name === 'paste') && key.text) return { view: { ...view, typed: view.typed + key.text, mismatch: false } };
  return { view };
}

export function gateKey(view: GateView, key: KeyPress, ctx: GateKeyContext): Step {
  if (view.done) return { view };
  if (view.typing) return typingKey(view, key, ctx);
  if (view.secret) {
    const r = secretKey(view.secret, key, ctx.request.secretInputs ?? []);
    if (r.kind === 'cancel') {
      const { secret: _s, ...rest } = view;
      return { view: rest };
    }
    if (r.kind === 'typing') return { view: { ...view, secret: r.entry } };
    const { secret: _s, ...rest } = view;
    return { view: { ...rest, done: true }, effect: { kind: 'decide', choice: 'approve', pressed: 'Enter', secrets: r.values } };
  }
  const { options, safeChoice } = ctx.request;
  const { note: _note, ...fresh } = view;
  const safe = options[safeIndex(ctx.request)];
  if (key.name === 'escape') return safe ? decided(fresh, safe.choice, 'Esc') : { view: fresh };
  // The gate stays as it is (focus, scroll) under the question, to be found again on Stay.
  if (key.name === 'char' && key.text === 'q') return { view: fresh, effect: { kind: 'ask-quit' } };
  if (key.name === 'left' || key.name === 'right') {
    const focus = Math.min(options.length - 1, Math.max(0, view.focus + (key.name === 'left' ? -1 : 1)));
    return { view: { ...fresh, focus, moved: view.moved || focus !== view.focus } };
  }
  if (key.name === 'enter') {
    const option = options[view.focus];
    if (!option) return { view: fresh };
    if (option.choice !== safeChoice && !view.moved) {
      return { view: { ...fresh, note: `Enter chooses the focused option; press ${option.key} to ${option.label.toLowerCase()}.` } };
    }
    return choose(fresh, option, 'Enter', ctx);
  }
  const scrolled = scrollKey(view.scroll, key, { ...ctx.bounds, textAt: undefined });
  if (scrolled.handled) return { view: { ...fresh, scroll: scrolled.state } };
  if (key.name === 'char' && key.text) {
    const option = options.find((o) => o.key === key.text!.toLowerCase());
    if (option) return choose(fresh, option, pressedName(key), ctx);
  }
  return { view: fresh };
}
