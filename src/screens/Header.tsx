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

/** Runbook, cluster and a mode badge: LIVE in red (this changes a real cluster), REHEARSAL, LAB. */
export function Header({ meta }: { meta: SessionMeta }) {
  const cluster = meta.cluster.name ?? meta.cluster.uid ?? 'no cluster';
  return (
    <Box justifyContent="space-between" paddingX={1}>
      <Text>
        <Text bold>upgrade-pilot</Text> · {meta.runbook.title} · cluster <Text bold>{cluster}</Text>
        {meta.cluster.context ? <Text dimColor> ({meta.cluster.context})</Text> : null}
      </Text>
      <Box gap={1}>
        {meta.lab ? <Badge text="LAB" tone="info" /> : null}
        {meta.mode === 'rehearsal' ? <Badge text="REHEARSAL" tone="warn" /> : <Badge text="LIVE" tone="fail" />}
        <Text dimColor>session {meta.id}</Text>
      </Box>
    </Box>
  );
}
