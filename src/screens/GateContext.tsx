import { Text } from 'ink';
import type { StepState } from '../engine/state.js';

/**
 * Where the gate is in the runbook, one line above its box (the step list makes way for the gate):
 * the hop with its versions, the step, its place among the steps, and how to look at the others.
 * Parts are dropped from the end, whole, when the line is narrower than all of them.
 */
export function gateContextText(all: readonly StepState[], step: StepState | undefined, width: number): string {
  if (!step) return '';
  const at = all.findIndex((s) => s.id === step.id);
  const parts = [
    step.hop ? `Hop ${step.hop.index}/${step.hop.count}: ${step.hop.from} → ${step.hop.to} · ${step.title}` : step.title,
    at >= 0 ? `step ${at + 1} of ${all.length}` : '',
    '[ ] the other steps',
  ].filter(Boolean);
  let line = parts[0]!;
  for (const p of parts.slice(1)) if (line.length + 3 + p.length <= width) line += ` · ${p}`;
  return line;
}

export function GateContext({ all, step, width }: { all: readonly StepState[]; step: StepState | undefined; width: number }) {
  return (
    <Text dimColor wrap="truncate-end">
      {gateContextText(all, step, width)}
    </Text>
  );
}
