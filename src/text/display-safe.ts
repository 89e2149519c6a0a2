/**
 * The session state as the TUI sees it: every string without terminal control characters. Names,
 * versions, reasons and messages reach the state from the network (a profile name, a pack tag, a
 * condition message), and a screen prints what it is given; this view is the one place the TUI's
 * text passes through, so no screen can forget. The engine's own state is not touched (what is
 * journaled and sent stays exactly what was read).
 *
 * Cheap enough to run on every render: the state is immutable (the reducer copies what changes),
 * so each object is cleaned once and remembered; an object with nothing to clean is returned as
 * it is, keeping identities (and React's memoization) intact.
 */
import { hasControls, stripControls } from './sanitize.js';

const cleaned = new WeakMap<object, unknown>();

/** `value` with control characters removed from every string (a copy only where something changed). */
export function displaySafe<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return (hasControls(value) ? stripControls(value) : value) as T;
  if (value === null || typeof value !== 'object' || depth > 100) return value;
  const known = cleaned.get(value);
  if (known !== undefined) return known as T;
  let out: unknown = value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = displaySafe(value[i] as unknown, depth + 1);
      if (v !== value[i]) (copy ??= value.slice())[i] = v;
    }
    if (copy) out = copy;
  } else if (Object.getPrototypeOf(value) === Object.prototype) {
    let copy: Record<string, unknown> | undefined;
    for (const [k, v] of Object.entries(value)) {
      const c = displaySafe(v, depth + 1);
      const key = hasControls(k) ? stripControls(k) : k;
      if (c !== v || key !== k) {
        copy ??= { ...(value as Record<string, unknown>) };
        if (key !== k) delete copy[k];
        copy[key] = c;
      }
    }
    if (copy) out = copy;
  }
  cleaned.set(value, out);
  return out as T;
}

/** Where a view reads a state and hears of each change (the runner, for a session's state and events). */
export interface StateSource<S, E> {
  getState(): S;
  subscribe(listener: (state: S, event: E) => void): () => void;
}

/** A state source whose states are display-safe (for the TUI). */
export function displaySafeSource<S, E>(source: StateSource<S, E>): StateSource<S, E> {
  return {
    getState: () => displaySafe(source.getState()),
    subscribe: (listener) => source.subscribe((state, event) => listener(displaySafe(state), event)),
  };
}
