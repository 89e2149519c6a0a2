import { Box, Text } from 'ink';
import type { PackState } from '../palette/cluster-types.js';
import type { ClusterPanel } from '../steps/hop/reconcile.js';
import { colour, type Tone } from './theme.js';

const packLabel: Record<PackState, { text: string; tone: Tone }> = {
  ready: { text: 'READY', tone: 'pass' },
  progressing: { text: 'PROGRESSING', tone: 'warn' },
  error: { text: 'ERROR', tone: 'fail' },
};

const tinted = (tone: Tone) => {
  const c = colour(tone);
  return c ? { color: c } : {};
};

/**
 * A real Palette's cluster object, live: the packs of the new versions (the Ready ones on one line,
 * each Progressing or Error one with Palette's words), the cluster's conditions, a node rebuild
 * waiting or under way, and the latest events.
 * Every string in `panel` was sanitized by the step; `room` bounds the events shown.
 */
export function ClusterStatusPanel({ panel, room }: { panel: ClusterPanel; room: number }) {
  const falseConditions = panel.conditions.filter((c) => c.status !== 'True');
  // Packs that are done share one line; the ones still going (or failed) get a line each.
  const ready = panel.packs.filter((p) => p.state === 'ready');
  const open = panel.packs.filter((p) => p.state !== 'ready');
  const events = panel.events.slice(0, Math.max(1, room - open.length));
  return (
    <Box flexDirection="column" marginTop={1} borderStyle="round" paddingX={1}>
      <Text>
        <Text bold>Cluster {panel.cluster}</Text> <Text dimColor>state {panel.state || '?'}</Text>
        {panel.repave ? <Text {...tinted(panel.repave === 'Pending' ? 'warn' : 'muted')}> · node rebuild {panel.repave}</Text> : null}
      </Text>
      {panel.packs.length === 0 ? <Text dimColor>No pack of the new versions reported yet.</Text> : null}
      {ready.length ? (
        <Text wrap="truncate-end">
          <Text bold {...tinted('pass')}>
            {'READY'.padEnd(12)}
          </Text>
          {ready.length}/{panel.packs.length}: {ready.map((p) => `${p.pack} ${p.tag}`).join(', ')}
        </Text>
      ) : null}
      {open.map((p) => (
        <Text key={`${p.profile}/${p.pack}`} wrap="truncate-end">
          <Text bold {...tinted(packLabel[p.state].tone)}>
            {packLabel[p.state].text.padEnd(12)}
          </Text>
          {`${p.pack} ${p.tag}`.padEnd(36)} <Text dimColor>{p.profile} {p.version}{p.detail ? ` · ${p.detail}` : ''}</Text>
        </Text>
      ))}
      <Text>
        <Text bold>Conditions</Text>{' '}
        {panel.conditions.length === 0 ? (
          <Text dimColor>none reported</Text>
        ) : falseConditions.length === 0 ? (
          <Text {...tinted('pass')}>all {panel.conditions.length} True</Text>
        ) : (
          <Text {...tinted('warn')}>{falseConditions.map((c) => `${c.type}=${c.status}${c.detail ? ` (${c.detail})` : ''}`).join('; ')}</Text>
        )}
      </Text>
      <Text bold>Latest events</Text>
      {events.length === 0 ? <Text dimColor>  none</Text> : null}
      {events.map((e, i) => (
        <Text key={i} wrap="truncate-end" dimColor={e.severity !== 'Warning' && e.severity !== 'Error'}>
          {'  '}
          {e.at.slice(11, 19)} {e.reason}: {e.message}
        </Text>
      ))}
    </Box>
  );
}
