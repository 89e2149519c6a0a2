import { Box, Text } from 'ink';
import type { FixChoices } from '../../steps/customize/types.js';
import { colour } from '../theme.js';
import type { FixRow } from './fix-rows.js';
import { rulesLine, type ReviewRules } from './review-rules.js';

export interface ReviewStatusProps {
  rules: ReviewRules;
  offered: readonly FixRow[];
  chosen: FixChoices;
  /** The fixes have the focus (their panel shows them; no summary line). */
  fixesOpen: boolean;
  roomy: boolean;
}

/** Under the lists, one line each: the rules, the amber ones, the fixes offered, the rules that do not apply. */
export function ReviewStatus({ rules, offered, chosen, fixesOpen, roomy }: ReviewStatusProps) {
  const line = rulesLine(rules);
  const tone = colour(rules.red.length ? 'fail' : 'pass');
  const amber = colour('warn');
  return (
    <Box flexDirection="column" marginTop={roomy ? 1 : 0}>
      <Text wrap="truncate-end">
        <Text bold {...(tone ? { color: tone } : {})}>
          {line.word}
        </Text>{' '}
        {line.text}
      </Text>
      {rules.amberOnce.length ? (
        <Text wrap="truncate-end" {...(amber ? { color: amber } : {})}>
          {`WARN not on this site before the upgrade (never blocks): ${rules.amberOnce.map((r) => r.title).join('; ')}`}
        </Text>
      ) : null}
      {offered.length && !fixesOpen ? (
        <Text wrap="truncate-end">
          {`Fixes offered: ${offered.map((o) => `${o.id} ${chosen[o.id] ? '(chosen)' : '(left out)'}`).join(', ')}`} <Text dimColor>(Tab to the fixes; f chooses one)</Text>
        </Text>
      ) : null}
      {rules.grey.length ? (
        <Text dimColor wrap="truncate-end">
          {`N/A ${rules.grey.length}: ${[...new Map(rules.grey.map((r) => [r.id, `${r.title} (${r.message})`])).values()].join('; ')}`}
        </Text>
      ) : null}
    </Box>
  );
}

/** Rows the status lines take. */
export const reviewStatusRows = (rules: ReviewRules, offered: readonly FixRow[], fixesOpen: boolean, roomy: boolean): number =>
  (roomy ? 1 : 0) + 1 + (rules.amberOnce.length ? 1 : 0) + (offered.length && !fixesOpen ? 1 : 0) + (rules.grey.length ? 1 : 0);
