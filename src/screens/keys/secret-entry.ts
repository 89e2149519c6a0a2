/**
 * Typing values that must not show (a profile variable's password) at a gate: each value hidden,
 * then once more to confirm, one after the other; Esc goes back to the options with nothing kept.
 * Pure and tested with key tables; what was typed lives only in the gate's view until the gate is
 * decided, when the app hands the values to the run's variable values (never to the journal).
 */
import { erased, type KeyPress } from './key-press.js';

export interface SecretEntry {
  /** Which of the gate's inputs is being typed. */
  index: number;
  /** The first typing of this value, while it is typed again. */
  first?: string;
  typed: string;
  /** Why the last Enter did not take the value. */
  problem?: 'empty' | 'mismatch';
  /** Values taken so far, by name. */
  values: Record<string, string>;
}

export type SecretStep = { kind: 'typing'; entry: SecretEntry } | { kind: 'cancel' } | { kind: 'done'; values: Record<string, string> };

export const startSecret = (): SecretEntry => ({ index: 0, typed: '', values: {} });

export function secretKey(entry: SecretEntry, key: KeyPress, inputs: ReadonlyArray<{ name: string }>): SecretStep {
  if (key.name === 'escape') return { kind: 'cancel' };
  // A paste (or fast typing) may hold line ends: each is an Enter, in order.
  if (key.name === 'paste' && key.text && /[\r\n]/.test(key.text)) {
    let step: SecretStep = { kind: 'typing', entry };
    for (const part of key.text.split(/(\r\n|\r|\n)/)) {
      if (step.kind !== 'typing') break;
      if (part === '') continue;
      step = /^[\r\n]+$/.test(part) ? secretKey(step.entry, { name: 'enter' }, inputs) : secretKey(step.entry, { name: 'paste', text: part }, inputs);
    }
    return step;
  }
  const { problem: _p, ...fresh } = entry;
  if (key.name === 'backspace') return { kind: 'typing', entry: { ...fresh, typed: entry.typed.slice(0, -erased(key)) } };
  if ((key.name === 'char' || key.name === 'paste') && key.text) return { kind: 'typing', entry: { ...fresh, typed: entry.typed + key.text } };
  if (key.name !== 'enter') return { kind: 'typing', entry };
  if (entry.typed === '') return { kind: 'typing', entry: { ...entry, problem: 'empty' } };
  if (entry.first === undefined) {
    const { first: _f, ...rest } = fresh;
    return { kind: 'typing', entry: { ...rest, first: entry.typed, typed: '' } };
  }
  if (entry.typed !== entry.first) {
    const { first: _f, ...rest } = fresh;
    return { kind: 'typing', entry: { ...rest, typed: '', problem: 'mismatch' } };
  }
  const name = inputs[entry.index]?.name;
  const values = name ? { ...entry.values, [name]: entry.typed } : entry.values;
  if (entry.index + 1 >= inputs.length) return { kind: 'done', values };
  return { kind: 'typing', entry: { index: entry.index + 1, typed: '', values } };
}
