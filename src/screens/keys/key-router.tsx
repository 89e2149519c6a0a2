/**
 * One consumer per key press. Ink hands every input event to every active `useInput` handler, so
 * a key that decides a gate could also reach a screen, an overlay, or the next gate. The app owns
 * the only `useInput` and passes each key on to exactly one consumer; screens receive theirs
 * through `useScreenKeys`, which registers them here instead of with Ink.
 */
import { useInput, type Key } from 'ink';
import { createContext, useContext, useEffect, useRef, type ReactNode } from 'react';

export type KeyHandler = (input: string, key: Key) => void;

interface Entry {
  handler: { current: KeyHandler };
  capture: { current: () => boolean };
}

export class ScreenKeys {
  private readonly entries = new Set<Entry>();

  add(entry: Entry): () => void {
    this.entries.add(entry);
    return () => this.entries.delete(entry);
  }

  /** A screen is typing text (a search, a value): every key is its own. */
  capturing(): boolean {
    return [...this.entries].some((e) => e.capture.current());
  }

  deliver(input: string, key: Key): void {
    for (const e of [...this.entries]) e.handler.current(input, key);
  }
}

const RouterContext = createContext<ScreenKeys | undefined>(undefined);

export function KeyRouter({ keys, children }: { keys: ScreenKeys; children: ReactNode }) {
  return <RouterContext.Provider value={keys}>{children}</RouterContext.Provider>;
}

/**
 * A screen's keys. Inside the app they come from its router (only when the screen is the one
 * consumer); a screen drawn on its own (a test) listens to Ink directly. `capture`: the screen is
 * typing text, so the app's own keys (q, ?, [ ]) are its too. A function is asked at each key,
 * so a screen that starts typing on one key gets the next even before it re-renders.
 */
export function useScreenKeys(handler: KeyHandler, opts: { isActive?: boolean; capture?: boolean | (() => boolean) } = {}): void {
  const router = useContext(RouterContext);
  const isActive = opts.isActive ?? true;
  const handlerRef = useRef(handler);
  handlerRef.current = handler;
  const capture = opts.capture;
  const captureRef = useRef<() => boolean>(() => false);
  captureRef.current = () => isActive && (typeof capture === 'function' ? capture() : Boolean(capture));
  useEffect(() => {
    if (!router || !isActive) return;
    return router.add({ handler: handlerRef, capture: captureRef });
  }, [router, isActive]);
  useInput((input, key) => handlerRef.current(input, key), { isActive: !router && isActive });
}
