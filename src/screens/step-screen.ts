import type { ReactNode } from 'react';
import type { SessionState, StepState } from '../engine/state.js';

export interface StepScreenProps {
  step: StepState;
  state: SessionState;
  /** True when the screen may take keys (no gate or overlay is open). */
  isActive: boolean;
  rehearsal: boolean;
  width: number;
  height: number;
}

export type StepScreen = (props: StepScreenProps) => ReactNode;

/** Live data convention: any step may publish a one-line headline and a few detail lines. */
export interface LiveHeadline {
  headline?: string;
  lines?: string[];
}
