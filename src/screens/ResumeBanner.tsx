import { Box, Text } from 'ink';
import { resumeLines, type ResumeSummary } from './resume-summary.js';
import { sanitizeText } from '../text/sanitize.js';
import { wrapText } from './migrations-wrap.js';
import { colour } from './theme.js';

export type { ResumeSummary };

/** The banner's rows at a width, counted exactly (the app leaves the rest of the pane to the gate). */
export function bannerRows(summary: ResumeSummary, width: number): string[] {
  return [`Resumed.`, ...resumeLines(summary)].flatMap((l) => wrapText(sanitizeText(l, { max: 600 }), width, 2));
}

/** On resume, above the screen until the first key: how the session stopped, what was settled, what comes next. */
export function ResumeBanner({ rows }: { rows: string[] }) {
  const c = colour('info');
  return (
    <Box flexDirection="column" borderStyle="round" {...(c ? { borderColor: c } : {})} paddingX={1} flexShrink={0}>
      {rows.map((r, i) => (
        <Text key={i} wrap="truncate-end" bold={i === 0}>
          {r}
        </Text>
      ))}
    </Box>
  );
}
