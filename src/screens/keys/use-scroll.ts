import { useRef } from 'react';
import { useRefState } from '../use-ref-state.js';
import type { KeyPress } from './key-press.js';
import { clampScroll, initialScroll, scrollKey, searchLine, type ScrollBounds, type ScrollState } from './scroll-model.js';

export interface Scroll {
  /** Within the bounds as they are now. */
  state: ScrollState;
  /** Applies a key; true when it meant something (scrolling or searching). */
  handle(press: KeyPress): boolean;
  /** A search is being typed (the screen then captures every key). */
  typing(): boolean;
  /** What the search line says, if a search is on. */
  line: string | undefined;
  reset(): void;
}

/** Scrolling and `/` search over rows, for a view that takes its keys through `useScreenKeys`. */
export function useScroll(bounds: ScrollBounds): Scroll {
  const [state, setState, ref] = useRefState<ScrollState>(initialScroll);
  const b = useRef(bounds);
  b.current = bounds;
  const clamped = clampScroll(state, bounds);
  return {
    state: clamped,
    handle(press) {
      const r = scrollKey(clampScroll(ref.current, b.current), press, b.current);
      if (r.handled) setState(r.state);
      return r.handled;
    },
    typing: () => Boolean(ref.current.search?.typing),
    line: searchLine(clamped),
    reset: () => setState(initialScroll),
  };
}
