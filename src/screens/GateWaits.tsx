import { Text } from 'ink';
import type { GateRequest } from '../engine/gate.js';
import { sanitizeText } from '../text/sanitize.js';
import { colour } from './theme.js';

/** While the operator looks at another step, the open gate waits (and takes no key): one line saying so. */
export function GateWaits({ gate }: { gate: GateRequest }) {
  const amber = colour('warn');
  return (
    <Text wrap="truncate-end" {...(amber ? { color: amber } : {})}>
      ⏸ f: back to the gate that waits for you: <Text bold>{sanitizeText(gate.title, { max: 200 })}</Text>
    </Text>
  );
}
