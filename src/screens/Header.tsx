import { Box, Text } from 'ink';
import type { SessionMeta } from '../engine/state.js';
import { colour } from './theme.js';

function Badge({ text, tone }: { text: string; tone: 'fail' | 'warn' | 'info' }) {
  const c = colour(tone);
  return (
    <Text bold inverse={!!c} {...(c ? { color: c } : {})}>
      {` ${text} `}
    </Text>
  );
}

/**
 * Runbook, cluster and a mode badge: LIVE in red (this changes a real cluster), REHEARSAL, LAB.
 * On a narrow terminal the context and the word "session" go first: the header stays one line.
 */
export function Header({ meta, columns = 120 }: { meta: SessionMeta; columns?: number }) {
  const cluster = meta.cluster.name ?? meta.cluster.uid ?? 'no cluster';
  const badges = (meta.lab ? 5 : 0) + (meta.mode === 'rehearsal' ? 12 : 7);
  const left = `upgrade-pilot · ${meta.runbook.title} · cluster ${cluster}`;
  const context = meta.cluster.context ? ` (${meta.cluster.context})` : '';
  const full = left.length + context.length + badges + ` session ${meta.id}`.length + 4 <= columns;
  const withoutContext = left.length + badges + ` ${meta.id}`.length + 4 <= columns;
  return (
    <Box justifyContent="space-between" paddingX={1}>
      <Text wrap="truncate-end">
        <Text bold>upgrade-pilot</Text> · {meta.runbook.title} · cluster <Text bold>{cluster}</Text>
        {full && context ? <Text dimColor>{context}</Text> : null}
      </Text>
      <Box gap={1} flexShrink={0}>
        {meta.lab ? <Badge text="LAB" tone="info" /> : null}
        {meta.mode === 'rehearsal' ? <Badge text="REHEARSAL" tone="warn" /> : <Badge text="LIVE" tone="fail" />}
        {full || withoutContext ? <Text dimColor>{full ? `session ${meta.id}` : meta.id}</Text> : null}
      </Box>
    </Box>
  );
}
