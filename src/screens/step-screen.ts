import type { ReactNode } from 'react';
import type { Choice, GateRequest } from '../engine/gate.js';
import type { SessionState, StepState } from '../engine/state.js';
import type { Hint } from './Footer.js';

export interface StepScreenProps {
  step: StepState;
  state: SessionState;
  /** True when the screen may take keys (no gate or overlay is open). */
  isActive: boolean;
  rehearsal: boolean;
  width: number;
  height: number;
  /** An inline gate of this step, which the screen shows and answers itself. */
  gate?: GateRequest | undefined;
  /** Answers the inline gate; `pressed` is the key that decided (journaled). The app drops answers inside the gate's guard time. */
  decide?: ((choice: Choice, data?: unknown, pressed?: string) => void) | undefined;
  /** Drawn inside a gate's scrolling box (under what the gate says): show the whole content, the box scrolls it. */
  inGate?: boolean;
  /** The session measures time on the lab's simulated clock: durations from it are labelled. */
  labTime?: boolean;
  /** The app's gate guard (time a thing that approves must be on screen before a key counts), for a confirmation a screen draws itself. */
  guard?: { ms: number; now?: (() => number) | undefined } | undefined;
  /** The key line while the screen shows a view of its own (a confirmation): its keys instead of the gate's; undefined gives them back. */
  onHints?: ((hints: Hint[] | undefined) => void) | undefined;
}

export type StepScreen = (props: StepScreenProps) => ReactNode;

/** Live data convention: any step may publish a one-line headline and a few detail lines. */
export interface LiveHeadline {
  headline?: string;
  lines?: string[];
}
