import { useEffect, useState } from 'react';
import type { SessionEvent, SessionState } from '../engine/state.js';

export interface StateSource {
  getState(): SessionState;
  subscribe(listener: (state: SessionState, event: SessionEvent) => void): () => void;
}

/**
 * Session state for the view. Live progress and log lines (a migration poll can bring hundreds)
 * are batched into one render per frame; step transitions render at once, so a gate never appears
 * before the step it belongs to.
 */
export function useSessionState(source: StateSource, frameMs = 33): SessionState {
  const [state, setState] = useState(() => source.getState());
  useEffect(() => {
    let timer: NodeJS.Timeout | undefined;
    const unsubscribe = source.subscribe((_state, event) => {
      if (event.type !== 'step.progress' && event.type !== 'log') {
        if (timer) clearTimeout(timer);
        timer = undefined;
        setState(source.getState());
        return;
      }
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        setState(source.getState());
      }, frameMs);
    });
    setState(source.getState());
    return () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
    };
  }, [source, frameMs]);
  return state;
}

/** Clears the screen and puts the cursor at the top left (ECMA-48 ED 2 and CUP). */
export const CLEAR_SCREEN = '\u001B[2J\u001B[H';

/**
 * Terminal size, following resizes. On a resize the terminal has already re-wrapped (or scrolled)
 * the last frame, so erasing it line by line as Ink does leaves parts of it behind: the screen is
 * cleared first and the frame drawn whole at the new size.
 */
export function useTerminalSize(stdout: NodeJS.WriteStream): { columns: number; rows: number } {
  const read = () => ({ columns: stdout.columns || 100, rows: stdout.rows || 30 });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = () => {
      if (stdout.isTTY) stdout.write(CLEAR_SCREEN);
      setSize(read());
    };
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}
