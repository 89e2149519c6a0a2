import type { ReactNode } from 'react';
import type { Choice, GateRequest } from '../engine/gate.js';
import type { SessionState, StepState } from '../engine/state.js';

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
  decide?: ((choice: Choice, data?: unknown) => void) | undefined;
}

export type StepScreen = (props: StepScreenProps) => ReactNode;

/** Live data convention: any step may publish a one-line headline and a few detail lines. */
export interface LiveHeadline {
  headline?: string;
  lines?: string[];
}
