import { Box, Text, useInput } from 'ink';
import { useState } from 'react';
import SelectInput from 'ink-select-input';
import { sanitizeText } from '../text/sanitize.js';
import { colour } from './theme.js';
import { Para } from './Para.js';

export interface Choice<V> {
  key: string;
  label: string;
  value: V;
  /** A line under the list describing the highlighted choice. */
  description?: string;
}

/**
 * A plain choice list (ink-select-input): ↑↓ or j/k, Enter picks, Esc cancels. Its focus wraps
 * round and Enter takes what is highlighted, which is harmless when every choice only chooses
 * (a session, a lab scenario). It is never used for gates: there focus must not wrap and an
 * approving option must not be one key away from the default (see keys/gate-model.ts).
 */
export function ChoiceList<V>({ title, lines = [], choices, initial = 0, onPick, onCancel }: { title: string; lines?: string[]; choices: Array<Choice<V>>; initial?: number; onPick: (v: V) => void; onCancel: (by: 'escape' | 'ctrl-c') => void }) {
  useInput((_input, key) => {
    if (key.escape) onCancel('escape');
    else if (key.ctrl && _input === 'c') onCancel('ctrl-c');
  });
  const c = colour('info');
  const [highlighted, setHighlighted] = useState(choices[initial]?.key);
  const description = choices.find((ch) => ch.key === highlighted)?.description;
  return (
    <Box flexDirection="column" borderStyle="round" {...(c ? { borderColor: c } : {})} paddingX={1}>
      <Text bold>{title}</Text>
      {lines.map((l, i) => (
        <Para key={i} dimColor>
          {l}
        </Para>
      ))}
      <Box marginTop={1}>
        <SelectInput items={choices.map((ch) => ({ key: ch.key, label: sanitizeText(ch.label, { max: 200 }), value: ch.key }))} initialIndex={initial} onHighlight={(item) => setHighlighted(item.value)} onSelect={(item) => onPick(choices.find((ch) => ch.key === item.value)!.value)} />
      </Box>
      {description ? (
        <Box marginTop={1}>
          <Para>{sanitizeText(description, { max: 600 })}</Para>
        </Box>
      ) : null}
      <Text dimColor>↑↓ choose · Enter pick · Esc cancel</Text>
    </Box>
  );
}
