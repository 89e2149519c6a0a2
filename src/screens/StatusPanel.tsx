import { Box, Text } from 'ink';
import { colour, toneLabel, type Tone } from './theme.js';
import { Para } from './Para.js';

export type PanelStatus = Exclude<Tone, 'muted' | 'accent'>;

export interface StatusPanelProps {
  status: PanelStatus;
  title: string;
  summary?: string;
  /** Evidence and remediation lines, shown when expanded. */
  lines?: string[];
  expanded?: boolean;
  focused?: boolean;
  /** Right-aligned note, e.g. how long the check took. */
  note?: string;
  width?: number | string;
}

/** A green/red/amber/grey panel with its status as text too ("PASS", "FAIL", ...). */
export function StatusPanel({ status, title, summary, lines = [], expanded = false, focused = false, note, width }: StatusPanelProps) {
  const c = colour(status);
  return (
    <Box flexDirection="column" borderStyle={focused ? 'double' : 'round'} {...(c ? { borderColor: c } : {})} paddingX={1} {...(width !== undefined ? { width } : {})}>
      <Box justifyContent="space-between">
        <Text>
          <Text bold {...(c ? { color: c } : {})}>
            {toneLabel[status]}
          </Text>{' '}
          <Text bold>{title}</Text>
        </Text>
        {note ? <Text dimColor>{note}</Text> : null}
      </Box>
      {summary ? <Para>{summary}</Para> : null}
      {expanded
        ? lines.map((line, i) => (
            <Para key={i} dimColor={line.startsWith('  ')}>
              {line}
            </Para>
          ))
        : null}
    </Box>
  );
}
