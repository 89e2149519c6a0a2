import { Box, Text } from 'ink';
import { chooserText } from '../../steps/customize/render-text.js';
import type { FixChoices } from '../../steps/customize/types.js';
import { sanitizeText } from '../../text/sanitize.js';
import { Para } from '../Para.js';
import type { FixRow } from './fix-rows.js';

export interface FixesPanelProps {
  offered: readonly FixRow[];
  chosen: FixChoices;
  selected: number;
  /** How many fixes are listed (each takes a few rows). */
  shown: number;
  roomy: boolean;
  isActive: boolean;
}

/** The fixes offered: settings the site did not have, each left out until chosen with f. */
export function FixesPanel({ offered, chosen, selected, shown, roomy, isActive }: FixesPanelProps) {
  const at = Math.min(selected, offered.length - 1);
  return (
    <Box flexDirection="column" marginTop={roomy ? 1 : 0}>
      <Text bold wrap="truncate-end">
        Fixes offered: settings the site did not have. None goes into a draft unless chosen. <Text dimColor>↑↓ move · f choose / leave out · Tab back</Text>
      </Text>
      {offered.slice(0, Math.max(1, shown)).map((o, i) => {
        const by = chosen[o.id];
        return (
          <Box key={o.id} flexDirection="column">
            <Text wrap="truncate-end" {...(i === at && isActive ? { inverse: true } : {})}>
              {i === at ? '❯ ' : '  '}
              {by ? '[x] ' : '[ ] '}
              <Text bold>{o.id}</Text>: {by ? `in the drafts, chosen by ${chooserText(by)}` : 'left out'} <Text dimColor>({o.where})</Text>
            </Text>
            <Box paddingLeft={6} flexDirection="column">
              <Para>sets {sanitizeText(o.what, { max: 400 })}</Para>
              <Para dimColor>{sanitizeText(o.effect, { max: 400 })}</Para>
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}
