import { Box, Text } from 'ink';
import { isPlaceholder, type Entry } from '../engine/state.js';
import { colour, stepDisplay, stepIcon } from './theme.js';
import { formatDuration } from '../text/duration.js';

export interface StepListProps {
  entries: Entry[];
  selectedId: string | undefined;
  width: number;
  height: number;
  now: number;
  runStatus: string;
  /** VMs restarted by any step: a recovery that left them outstanding is not amber once they are. */
  restarted?: ReadonlySet<string>;
}

type Row = { key: string; text: string; icon?: string; tone?: Parameters<typeof colour>[0]; dim?: boolean; selected?: boolean; right?: string };

/** The steps with status icons (and words for the selected one) and durations, hop headings between. */
export function StepList({ entries, selectedId, width, height, now, runStatus, restarted }: StepListProps) {
  const rows: Row[] = [];
  let lastHop: string | undefined;
  for (const e of entries) {
    if (isPlaceholder(e)) {
      rows.push({ key: e.id, text: `${e.title} (after the plan)`, icon: '·', tone: 'muted', dim: true });
      continue;
    }
    const hopKey = e.group ? `${e.group}${e.hop?.index ?? ''}` : undefined;
    if (hopKey !== lastHop && e.group) {
      rows.push({ key: `h-${hopKey}`, text: e.hop ? `Hop ${e.hop.index}/${e.hop.count}: ${e.hop.from} → ${e.hop.to}` : 'No hops: settle and check', dim: false });
    }
    lastHop = hopKey;
    const s = stepIcon[stepDisplay(e, runStatus, restarted)];
    const running = e.status === 'running' || e.status === 'awaitingApproval';
    const ms = running && e.startedAt ? e.durationMs + Math.max(0, now - Date.parse(e.startedAt)) : e.durationMs;
    const right = e.status === 'pending' ? '' : e.status === 'skipped' ? 'skip' : formatDuration(ms);
    rows.push({ key: e.id, text: `${e.group ? '  ' : ''}${e.title}`, icon: s.icon, tone: s.tone, selected: e.id === selectedId, right });
  }
  const selectedIndex = rows.findIndex((r) => r.selected);
  const room = rows.length > height ? height - 1 : height;
  const start = Math.max(0, Math.min(selectedIndex - Math.floor(room / 2), rows.length - room));
  const visible = rows.slice(start, start + room);
  // Durations only where the titles keep room enough; a hop heading takes the whole width.
  const showTime = width >= 29;
  // A title is a phrase, cut at its end; hop titles end with their versions and are short enough.
  const cut = (text: string, n: number) => (text.length > n ? `${text.slice(0, Math.max(0, n - 1))}…` : text.padEnd(n));
  return (
    <Box flexDirection="column" width={width}>
      {visible.map((r) => {
        const c = r.tone ? colour(r.tone) : undefined;
        if (!r.icon) {
          return (
            <Text key={r.key} bold wrap="truncate-end" {...(r.dim ? { dimColor: true } : {})}>
              {cut(r.text, width)}
            </Text>
          );
        }
        const textWidth = width - 2 - (showTime ? 7 : 0);
        return (
          <Text key={r.key} wrap="truncate-end" {...(r.selected ? { inverse: true } : {})} {...(r.dim ? { dimColor: true } : {})}>
            <Text {...(c ? { color: c } : {})}>{r.icon} </Text>
            {cut(r.text, textWidth)}
            {showTime ? <Text dimColor>{(r.right ?? '').padStart(7)}</Text> : null}
          </Text>
        );
      })}
      {rows.length > visible.length ? <Text dimColor>{`${rows.length - visible.length} more…`}</Text> : null}
    </Box>
  );
}
