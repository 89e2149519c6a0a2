import { useEffect, useRef, useState } from 'react';
import { armed } from './keys/gate-model.js';

/** How long a gate must be on screen before a key counts, unless the runbook says otherwise. */
export const DEFAULT_GATE_GUARD_MS = 500;

/**
 * Remembers when each gate (by its key) was first drawn, and says whether keys count for it yet.
 * A key typed before a gate appeared (buffered while the process was busy) or in the instant after
 * (meant for what was on screen before) arrives inside the guard time and is dropped. The app
 * re-renders when the guard time ends, so the options show as ready.
 */
export function useGateGuard(visibleKey: string | undefined, guardMs: number): { isArmed: (key: string) => boolean } {
  const drawn = useRef(new Map<string, number>());
  const [, setTick] = useState(0);
  const timers = useRef(new Set<NodeJS.Timeout>());
  useEffect(() => {
    if (!visibleKey || drawn.current.has(visibleKey)) return;
    drawn.current.set(visibleKey, Date.now());
    if (guardMs <= 0) return;
    const t = setTimeout(() => {
      timers.current.delete(t);
      setTick((n) => n + 1);
    }, guardMs + 5);
    timers.current.add(t);
  }, [visibleKey, guardMs]);
  useEffect(() => {
    const all = timers.current;
    return () => {
      for (const t of all) clearTimeout(t);
    };
  }, []);
  return { isArmed: (key) => armed(drawn.current.get(key), Date.now(), guardMs) };
}
