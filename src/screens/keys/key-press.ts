/**
 * One key press in words. Ink hands every handler `(input, key)`; the pure key models (gates,
 * scrolling, search) take this instead, so their tables of key sequences read like what an
 * operator types.
 */
import type { Key } from 'ink';

export type KeyName =
  | 'up'
  | 'down'
  | 'left'
  | 'right'
  | 'pageUp'
  | 'pageDown'
  | 'home'
  | 'end'
  | 'enter'
  | 'escape'
  | 'tab'
  | 'backspace'
  | 'ctrlC'
  /** One printable character (`char` holds it). */
  | 'char'
  /** Several characters at once: a paste, or keys buffered while the process was busy. */
  | 'paste'
  | 'other';

export interface KeyPress {
  name: KeyName;
  /** The text: one character for `char`, the whole string for `paste`. */
  text?: string;
  /** For `backspace`: how many (keys typed faster than they were read arrive as one string). */
  count?: number;
}

/** DEL and BS only: what a terminal's Backspace sends, several when typed fast. */
const ERASES = /^[\x7f\b]+$/;
/** Control characters never become typed text (a name typed to confirm, a search); line ends stay (a paste's Enter). */
const CONTROL = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f]/g;

/** How many characters a backspace press erases. */
export const erased = (press: KeyPress): number => press.count ?? 1;

export function keyPress(input: string, key: Key): KeyPress {
  if (key.ctrl && input === 'c') return { name: 'ctrlC' };
  if (key.upArrow) return { name: 'up' };
  if (key.downArrow) return { name: 'down' };
  if (key.leftArrow) return { name: 'left' };
  if (key.rightArrow) return { name: 'right' };
  if (key.pageUp) return { name: 'pageUp' };
  if (key.pageDown) return { name: 'pageDown' };
  if (key.home) return { name: 'home' };
  if (key.end) return { name: 'end' };
  if (key.return) return { name: 'enter' };
  if (key.escape) return { name: 'escape' };
  if (key.tab) return { name: 'tab' };
  if (key.backspace || key.delete) return { name: 'backspace' };
  if (ERASES.test(input)) return { name: 'backspace', count: input.length };
  if (key.ctrl || key.meta || !input) return { name: 'other' };
  const text = input.replace(CONTROL, '');
  if (!text) return { name: 'other' };
  return [...text].length === 1 ? { name: 'char', text } : { name: 'paste', text };
}

/** How a key is named in the journal and the report: `y`, `Enter`, `Esc`, `q`. */
export function pressedName(press: KeyPress): string {
  if (press.name === 'char') return press.text ?? '';
  if (press.name === 'enter') return 'Enter';
  if (press.name === 'escape') return 'Esc';
  return press.name;
}

/** Shorthands for tables of key sequences in tests and models. */
export const press = {
  char: (c: string): KeyPress => ({ name: 'char', text: c }),
  key: (name: Exclude<KeyName, 'char' | 'paste'>): KeyPress => ({ name }),
  paste: (text: string): KeyPress => ({ name: 'paste', text }),
};
