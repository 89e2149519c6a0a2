import { Box, Text } from 'ink';
import { formatDuration } from '../text/duration.js';
import type { Entry, StepState } from '../engine/state.js';
import { showsTime, stepRows, stepWindow, TIME_WIDTH, type StepRow } from './step-list-rows.js';
import { colour, stepDisplay, stepIcon } from './theme.js';

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

/** How long a step has run: its finished attempts, plus the one running now up to `now`. */
function timeOf(e: StepState | undefined, now: number): string {
  if (!e || e.status === 'pending') return '';
  if (e.status === 'skipped') return 'skip';
  const running = e.status === 'running' || e.status === 'awaitingApproval';
  return formatDuration(running && e.startedAt ? e.durationMs + Math.max(0, now - Date.parse(e.startedAt)) : e.durationMs);
}

function Row({ row, width, now, runStatus, restarted }: { row: StepRow; width: number; now: number; runStatus: string; restarted: ReadonlySet<string> | undefined }) {
  const step = row.step;
  if (!step) {
    return (
      <>
        {row.lines.map((l, i) => (
          <Text key={i} bold>
            {l.padEnd(width)}
          </Text>
        ))}
      </>
    );
  }
  const s = step.entry ? stepIcon[stepDisplay(step.entry, runStatus, restarted)] : stepIcon.pending;
  const c = colour(s.tone);
  const time = showsTime(width) ? TIME_WIDTH : 0;
  return (
    <>
      {row.lines.map((l, i) => (
        <Text key={i} {...(step.selected ? { inverse: true } : {})} {...(step.entry ? {} : { dimColor: true })}>
          <Text {...(c ? { color: c } : {})}>{i === 0 ? `${s.icon} ` : '  '}</Text>
          {l.padEnd(width - 2 - (i === 0 ? time : 0))}
          {i === 0 && time ? <Text dimColor>{timeOf(step.entry, now).padStart(time)}</Text> : null}
        </Text>
      ))}
    </>
  );
}

/**
 * The steps with status icons and durations, hop headings between, every title whole (wrapped
 * under itself when the list is narrow); when they do not all fit, the window follows the selected
 * step and says how many steps are hidden above and below it.
 */
export function StepList({ entries, selectedId, width, height, now, runStatus, restarted }: StepListProps) {
  const win = stepWindow(stepRows(entries, selectedId, width), height);
  return (
    <Box flexDirection="column" width={width}>
      {win.above ? <Text dimColor>{`↑ ${win.above} more step(s) above`}</Text> : null}
      {win.rows.map((r) => (
        <Row key={r.key} row={r} width={width} now={now} runStatus={runStatus} restarted={restarted} />
      ))}
      {win.below ? <Text dimColor>{`↓ ${win.below} more step(s) below`}</Text> : null}
    </Box>
  );
}
