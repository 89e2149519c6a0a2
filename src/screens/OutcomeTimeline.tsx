import { Box, Text } from 'ink';
import { useMemo } from 'react';
import type { SessionState } from '../engine/state.js';
import { buildReport } from '../report/build.js';
import { timelineTitle } from '../report/markdown-timeline.js';
import { timelineText, type TextTone } from '../report/timeline/text.js';
import { noColor } from './theme.js';

/** Colours of the text bars; every bar also has its own glyph, so the picture reads without them. */
const tones: Record<TextTone, { color?: string; bold?: boolean; dimColor?: boolean }> = {
  tool: { color: 'blue' },
  cluster: { color: 'cyan' },
  operator: { color: 'yellow' },
  failed: { color: 'red' },
  running: { color: 'gray' },
  forecast: { color: 'blueBright' },
  window: { color: 'green' },
  muted: { dimColor: true },
  heading: { bold: true },
  ok: { color: 'green' },
  stopped: { color: 'yellow' },
};

/**
 * The end screen's picture of the run: the report's timeline as text bars fitted to the pane
 * (hops, restarts, the operator's waits, each hop's predicted p50..p90), under the outcome.
 */
export function OutcomeTimeline({ state, width }: { state: SessionState; width: number }) {
  const lines = useMemo(() => {
    const report = buildReport(state);
    return report.timeline.sections.length ? timelineText(report.timeline, width, timelineTitle(report)) : [];
    // The picture is of the run as it ended: redrawn when the journal moves on, not on every frame.
  }, [state.seq, width]);
  if (!lines.length) return null;
  const plain = noColor();
  return (
    <Box flexDirection="column" marginTop={1}>
      {lines.map((line, i) => (
        <Text key={i} wrap="truncate-end">
          {line.map((p, j) => (
            <Text key={j} {...(p.tone && !plain ? tones[p.tone] : p.tone === 'heading' ? { bold: true } : {})}>
              {p.text}
            </Text>
          ))}
        </Text>
      ))}
    </Box>
  );
}
