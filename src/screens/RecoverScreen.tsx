import { Box, Text } from 'ink';
import { isStop } from '../errors.js';
import { clockDuration } from '../text/time.js';
import type { CancelOutcomes, CancelState, RecoverLive, RecoverOutput, RecoverVmRow, VmState } from '../steps/migrations/recover-types.js';
import { ErrorPanel } from './ErrorPanel.js';
import { fitWidths, longestOf } from './migrations-columns.js';
import type { StepScreenProps } from './step-screen.js';
import { colour, type Tone } from './theme.js';
import { WindowedTable, type Column } from './WindowedTable.js';
import { Para } from './Para.js';
import { formatDuration } from '../text/duration.js';

/** Inside a gate the box scrolls the whole table; this many rows at most are drawn there. */
const IN_GATE_ROWS = 400;

/** Every state in words, so the table reads the same without colour. */
export const vmStateLabel: Record<VmState, { text: string; tone: Tone }> = {
  pending: { text: 'PENDING', tone: 'muted' },
  asking: { text: 'ASKING', tone: 'accent' },
  'awaiting-approval': { text: 'NEEDS FLAG', tone: 'warn' },
  restarting: { text: 'RESTARTING', tone: 'info' },
  restarted: { text: 'RESTARTED', tone: 'pass' },
  'would-restart': { text: 'WOULD RESTART', tone: 'info' },
  skipped: { text: 'SKIPPED', tone: 'warn' },
  outstanding: { text: 'OUTSTANDING', tone: 'warn' },
  'not-back': { text: 'NOT BACK', tone: 'fail' },
  'up-to-date': { text: 'UP TO DATE', tone: 'pass' },
};

const cancelCounts = (o: CancelOutcomes): string =>
  [`${o.cancelled.length} cancelled`, o.abortFailed.length ? `${o.abortFailed.length} abort failed` : '', o.stillAborting.length ? `${o.stillAborting.length} still aborting` : '', o.finished.length ? `${o.finished.length} finished first` : ''].filter(Boolean).join(', ');

const cancelLabel: Record<CancelState, string> = {
  asking: 'asking whether to cancel them',
  cancelling: 'cancelling',
  cancelled: 'cancelled',
  'abort-failed': 'the cancel of some failed: KubeVirt could not abort them, they go on until their VM is restarted',
  'still-aborting': 'some were still aborting when the wait ended; a restart of their VM stops them',
  'left-running': 'left running (a restart stops its VM’s migration)',
  'would-cancel': 'would be cancelled (rehearsal)',
  'awaiting-approval': 'awaiting --approve cancel-migrations',
};

/** VM and node as wide as they need; the note takes what is left, or goes when there is no room. */
function columns(width: number, rows: readonly RecoverVmRow[]): Column<RecoverVmRow>[] {
  const stateW = 13;
  const [vmW, nodeW] = fitWidths(width - stateW - 2, [
    { natural: longestOf(rows, (r) => r.vm, 'VM'), min: 14 },
    { natural: longestOf(rows, (r) => r.node, 'NODE'), min: 8 },
  ]);
  const noteW = width - vmW! - nodeW! - stateW - 6;
  return [
    { title: 'VM', value: (r) => r.vm, width: vmW! },
    { title: 'NODE', value: (r) => r.node, width: nodeW! },
    { title: 'STATE', value: (r) => vmStateLabel[r.state].text, width: stateW, colour: (r) => colour(vmStateLabel[r.state].tone) },
    ...(noteW >= 8 ? [{ title: 'NOTE', value: (r: RecoverVmRow) => r.note ?? '', width: noteW }] : []),
  ];
}

/** The VM being decided or restarted, with why it needs the restart (the table has no room for that). */
function Focus({ rows }: { rows: RecoverVmRow[] }) {
  const row = rows.find((r) => r.state === 'asking' || r.state === 'restarting');
  if (!row) return null;
  return (
    <Para>
      <Text bold>{row.vm}</Text>: {row.why}
    </Para>
  );
}

/**
 * Recovery: each VM on the old launcher with its state (pending, restarting, restarted, skipped,
 * outstanding…), the stuck migrations' cancel, and the restart being waited for. The gate for
 * each VM is shown above this screen by the app.
 */
export function RecoverScreen({ step, isActive, width, height, state, labTime = false, inGate = false }: StepScreenProps) {
  const live = step.live as RecoverLive | undefined;
  const out = step.output as RecoverOutput | undefined;
  const rows = live?.vms ?? out?.vms ?? [];
  if (!live && !out) {
    return (
      <Box flexDirection="column">
        <Text bold>{step.title}</Text>
        <Text dimColor>{step.skipReason ? `Skipped: ${step.skipReason}` : 'Listing the VMIs on the old launcher…'}</Text>
        {step.error ? <ErrorPanel error={step.error} /> : null}
      </Box>
    );
  }
  const gateOpen = state.run.status === 'running' && step.status === 'awaitingApproval';
  // Inside its gate every VM is listed (up to a bound): the gate's box scrolls, so the VMs the
  // decision is about are all within reach there. Beside an open gate it keeps a third.
  const tableHeight = inGate ? Math.max(3, Math.min(rows.length, IN_GATE_ROWS)) : Math.max(3, (gateOpen ? Math.floor(height / 3) : height) - 9);
  const baseline = live?.baseline ?? out?.baseline;
  return (
    <Box flexDirection="column">
      <Text bold>{step.title}</Text>
      <Para>{live?.headline ?? step.summary ?? ''}</Para>
      {live?.rehearsal || out?.rehearsal ? <Text dimColor>Rehearsal: every gate is shown; restarts and cancels are recorded, not sent.</Text> : null}
      {baseline === 'first-look' ? <Text dimColor>No snapshot baseline: only VMs running when recovery first looked are offered.</Text> : null}
      {live?.cancel ? (
        <Para>
          Stuck migrations ({live.cancel.migrations.length}): {cancelLabel[live.cancel.state]}
          {live.cancel.outcomes ? ` (${cancelCounts(live.cancel.outcomes)})` : ''}
        </Para>
      ) : out?.cancelled.length || out?.cancelFailed?.length ? (
        <Para>
          Stuck migrations cancelled: {out.cancelled.length}
          {out.cancelFailed?.length ? `; not cancelled: ${out.cancelFailed.map((f) => `${f.migration} (${f.why})`).join(', ')}` : ''}
        </Para>
      ) : null}
      {live?.waiting ? (
        <Para>
          Waiting for <Text bold>{live.waiting.vm}</Text> to run on the current launcher: {live.waiting.state} <Text dimColor>({clockDuration(live.waiting.elapsedMs, labTime)} of up to {formatDuration(live.waiting.limitMs)})</Text>
        </Para>
      ) : null}
      <WindowedTable columns={columns(width, rows)} rows={rows} height={tableHeight} isActive={isActive} rowKey={(r) => r.vm} emptyText="No VM needs a restart." />
      {/* Inside its gate the gate says why (its own "Why:" line): not twice. */}
      {inGate ? null : <Focus rows={rows} />}
      {step.error ? <ErrorPanel error={step.error} title={isStop(step.error) ? 'Recovery stopped' : 'Recovery failed'} /> : null}
    </Box>
  );
}
