import { Box, Text } from 'ink';
import { colour } from '../theme.js';
import { BACK_KEY, CONTINUE_KEY } from './confirm-model.js';
import { NOT_ARMED_YET } from '../keys/gate-model.js';
import type { ConfirmRow } from './confirm-rows.js';

export interface ConflictsConfirmProps {
  heading: readonly string[];
  rows: readonly ConfirmRow[];
  offset: number;
  page: number;
  /** Why the last key did nothing. */
  note?: string | undefined;
  /** Keys count (the guard time since it was drawn has passed). */
  armed: boolean;
}

/** The undecided conflicts `c` would continue with, each whole, and the two keys that answer: y continues, n goes back. */
export function ConflictsConfirm({ heading, rows, offset, page, note, armed }: ConflictsConfirmProps) {
  const amber = colour('warn');
  const red = colour('fail');
  const more = rows.length > page;
  return (
    <Box flexDirection="column">
      {heading.map((h, i) => (
        <Text key={i} bold={i === 0} wrap="truncate-end" {...(i === 0 && amber ? { color: amber } : {})}>
          {h}
        </Text>
      ))}
      {rows.slice(offset, offset + page).map((r, i) => (
        <Text key={offset + i} wrap="truncate-end" bold={r.kind === 'pack' || r.kind === 'keeps'} dimColor={r.kind === 'path'}>
          {r.text || ' '}
        </Text>
      ))}
      <Text dimColor wrap="truncate-end">
        {more ? `rows ${offset + 1}-${Math.min(rows.length, offset + page)} of ${rows.length} · ↑↓ PgUp PgDn G scroll` : ' '}
      </Text>
      <Text wrap="truncate-end" {...(note && red ? { color: red } : {})}>
        {note ?? (armed ? ' ' : NOT_ARMED_YET)}
      </Text>
      <Text wrap="truncate-end" bold={armed} dimColor={!armed}>
        {`[${CONTINUE_KEY}] Continue with these proposals`}
      </Text>
      <Text wrap="truncate-end" bold={armed} dimColor={!armed}>
        {`[${BACK_KEY}] Back to the review (Esc)`}
      </Text>
    </Box>
  );
}
