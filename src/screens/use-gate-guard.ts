import { useEffect, useRef, useState } from 'react';
import type { GateRequest } from '../engine/gate.js';
import { armed } from './keys/gate-model.js';

/** How long a gate must be on screen before a key counts, unless the runbook says otherwise. */
export const DEFAULT_GATE_GUARD_MS = 500;

/**
 * Remembers when each gate was last drawn (put on screen), and says whether keys count for it yet. A key typed
 * before a gate appeared (buffered while the process was busy) or in the instant after (meant for
 * what was on screen before) arrives inside the guard time and is dropped. Each ask is its own
 * gate, even under a key asked before (a re-offered restart). The app re-renders when the guard
 * time ends, so the options show as ready.
 *
 * `now` is the wall clock; tests pass a clock they move by hand, so that a key "inside the guard
 * time" is exactly that, however busy the machine running them is.
 */
export function useGateGuard(visible: GateRequest | undefined, guardMs: number, now: () => number = Date.now): { isArmed: (gate: GateRequest) => boolean } {
  const drawn = useRef(new WeakMap<GateRequest, number>());
  const [, setTick] = useState(0);
  const timers = useRef(new Set<NodeJS.Timeout>());
  useEffect(() => {
    // Each time the gate comes back on screen (after the quit question, the help, another step's
    // view) its guard starts again: a key typed while it was hidden was meant for what hid it.
    if (!visible) return;
    drawn.current.set(visible, now());
    if (guardMs <= 0) return;
    const t = setTimeout(() => {
      timers.current.delete(t);
      setTick((n) => n + 1);
    }, guardMs + 5);
    timers.current.add(t);
  }, [visible, guardMs, now]);
  useEffect(() => {
    const all = timers.current;
    return () => {
      for (const t of all) clearTimeout(t);
    };
  }, []);
  return { isArmed: (gate) => armed(drawn.current.get(gate), now(), guardMs) };
}
