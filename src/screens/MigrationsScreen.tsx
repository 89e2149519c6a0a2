import { Box, Text } from 'ink';
import { clockDuration } from '../text/time.js';
import type { KubevirtProgress, MigrationRow, MigrationsLive, MigrationsOutput, MigrationWait, StallReason } from '../steps/migrations/monitor-types.js';
import { waitedLine } from '../steps/migrations/waiting.js';
import { PHASES } from '../steps/migrations/phases.js';
import { ErrorPanel } from './ErrorPanel.js';
import { fitWidths, longestOf } from './migrations-columns.js';
import { OutdatedTrend } from './migrations-sparkline.js';
import { StatusPanel } from './StatusPanel.js';
import type { StepScreenProps } from './step-screen.js';
import { colour, type Tone } from './theme.js';
import { WindowedTable, type Column } from './WindowedTable.js';
import { Para } from './Para.js';
import { wrapText } from './migrations-wrap.js';
import { durationRange, formatDuration, roughDuration } from '../text/duration.js';

const phaseTone = (phase: string): Tone => (phase === 'Succeeded' ? 'pass' : phase === 'Failed' ? 'fail' : phase === 'Running' ? 'info' : 'muted');

const route = (r: MigrationRow) => `${r.source} → ${r.target}`;
const age = (r: MigrationRow) => formatDuration(r.runningMs ?? r.ageMs);

function columns(width: number, rows: readonly MigrationRow[], labTime: boolean): Column<MigrationRow>[] {
  const ageTitle = labTime ? 'AGE (LAB)' : 'AGE';
  const [vmiW, routeW, phaseW, ageW] = fitWidths(width, [
    { natural: longestOf(rows, (r) => r.vmi, 'VMI'), min: 12 },
    { natural: longestOf(rows, route, 'SOURCE → TARGET'), min: 12 },
    { natural: longestOf(rows, (r) => r.phase, 'PHASE'), min: 7 },
    { natural: Math.max(3, longestOf(rows, age, ageTitle)), min: 6 },
  ]);
  return [
    { title: 'VMI', value: (r) => r.vmi, width: vmiW! },
    { title: 'SOURCE → TARGET', value: route, width: routeW! },
    { title: 'PHASE', value: (r) => r.phase, width: phaseW!, colour: (r) => colour(phaseTone(r.phase)) },
    { title: ageTitle, value: age, width: ageW!, align: 'right' },
  ];
}

function Counts({ counts }: { counts: Record<string, number> }) {
  const shown = PHASES.filter((p) => (counts[p] ?? 0) > 0);
  if (shown.length === 0) return <Text dimColor>No migrations.</Text>;
  return (
    <Para>
      {shown.map((p, i) => {
        const c = colour(phaseTone(p));
        return (
          <Text key={p}>
            {i > 0 ? ' · ' : ''}
            <Text {...(c ? { color: c } : {})}>{p}</Text> <Text bold>{counts[p]}</Text>
          </Text>
        );
      })}
    </Para>
  );
}

function KubevirtLine({ kv }: { kv: KubevirtProgress }) {
  if (!kv.found) return <Text dimColor>KubeVirt CR {kv.ref} not found: its progress is not shown.</Text>;
  const moving = kv.observed !== kv.target ? ` → ${kv.target}` : '';
  const expected = kv.expected && !kv.settled ? ` (this hop: ${kv.expected})` : '';
  return (
    <Para>
      KubeVirt <Text bold>{kv.phase || '?'}</Text> {kv.observed || '?'}
      {moving}
      {expected}
      <Text dimColor>
        {kv.conditions.length ? ` · ${kv.conditions.join(', ')}` : kv.settled ? ' · settled' : ''}
        {kv.outdatedWorkloads !== undefined ? ` · CR counts ${kv.outdatedWorkloads} outdated` : ''}
      </Text>
    </Para>
  );
}

/**
 * The watch's times, all in the cluster's clock and from the same origin as the migrations' ages:
 * since the hop was sent (against the hop's window), what is left, the polls.
 */
function statusText(live: MigrationsLive, labTime: boolean): string {
  const hop = live.hop ? `the hop: p50 ${roughDuration(live.hop.p50Seconds)}, p90 ${roughDuration(live.hop.p90Seconds)}` : '';
  // While it waits, the wait says how long since the send.
  const since = live.wait
    ? [hop, `watching ${formatDuration(live.elapsedMs)}`].filter(Boolean).join(' · ')
    : live.sinceSentMs !== undefined
      ? `since the hop was sent ${clockDuration(live.sinceSentMs, labTime)}${hop ? ` (${hop})` : ''} · watching ${formatDuration(live.elapsedMs)}`
      : `watching ${clockDuration(live.elapsedMs, labTime)}`;
  return [
    `${since}${live.remaining ? ` · about ${durationRange(live.remaining.p50Seconds, live.remaining.p90Seconds)} left` : ''}${live.planned ? ` (planned ${durationRange(live.planned.p50Seconds, live.planned.p90Seconds)})` : ''}`,
    `poll ${live.polls}${live.nextPollInMs ? ` · next poll in ${formatDuration(live.nextPollInMs)}` : ''} · progress ${formatDuration(live.sinceProgressMs)} ago`,
  ].join(' · ');
}

/** What the watch waits for while nothing moves; past the plan's p90, what to check and how to stop safely. */
function waitLines(wait: MigrationWait, labTime: boolean): string[] {
  const head = wait.text.charAt(0).toUpperCase() + wait.text.slice(1);
  return [head, `  ${waitedLine(wait, labTime)}`, ...(wait.overdue ? [...wait.checks.map((c, i) => `  ${i === 0 ? 'Check:' : '      '} ${c}`), `  ${wait.stop}`] : [])];
}

function WaitPanel({ lines, overdue }: { lines: string[]; overdue: boolean }) {
  const tone = colour(overdue ? 'warn' : 'info');
  return (
    <Box flexDirection="column">
      {lines.map((l, i) => (
        <Para key={i} bold={i === 0} dimColor={i === 1 && !overdue} {...(i === 0 && tone ? { color: tone } : {})}>
          {l}
        </Para>
      ))}
    </Box>
  );
}

/** Final once the watch ended stalled; otherwise the problems so far, and why the watch goes on. */
function StallPanel({ reasons, width, stalled, movable }: { reasons: StallReason[]; width: number; stalled: boolean; movable?: number | undefined }) {
  const shown = reasons.slice(0, 3);
  const more = reasons.length - shown.length;
  return (
    <StatusPanel
      status="warn"
      title={stalled ? 'Stalled: the migrations will not finish by themselves' : 'Problems so far'}
      summary={stalled ? 'Diagnosis and recovery follow.' : movable !== undefined ? `${movable} outdated VMI(s) can still move by themselves.` : 'Not a stall yet: other VMIs could still move.'}
      lines={[...shown.map((r) => `• ${r.text}`), ...(more > 0 ? [`  … and ${more} more`] : [])]}
      expanded
      width={width}
    />
  );
}

const problemRows = (out: MigrationsOutput): MigrationRow[] =>
  out.problems.map((p) => ({ key: p.migration, vmi: p.vmi, source: p.source, target: p.target, phase: p.phase, ageMs: p.ageMs, ...(p.reason ? { reason: p.reason } : {}) }));

/**
 * The migrations live: a windowed table (VMI, source → target, phase, age) with problems on top,
 * counts per phase, outdated VMIs over time, the KubeVirt CR's progress, and the stall reasons.
 * When the step has ended, its recorded findings instead of the live table.
 */
export function MigrationsScreen({ step, isActive, width, height, labTime = false }: StepScreenProps) {
  const live = step.live as MigrationsLive | undefined;
  const out = step.output as MigrationsOutput | undefined;
  const data = live ?? out;
  if (!data) {
    return (
      <Box flexDirection="column">
        <Text bold>{step.title}</Text>
        <Text dimColor>{step.skipReason ? `Skipped: ${step.skipReason}` : 'Reading the migrations…'}</Text>
        {step.error ? <ErrorPanel error={step.error} /> : null}
      </Box>
    );
  }
  const stall = live?.stall ?? out?.stall ?? [];
  const rows = live?.rows ?? (out ? problemRows(out) : []);
  const staying = live?.staying ?? out?.totals.needsRestart ?? 0;
  const rehearsal = out?.rehearsal;
  const waiting = live?.wait ? waitLines(live.wait, labTime) : [];
  const quiet = Boolean(live?.wait) && rows.length === 0 && !data.history.some((h) => h.outdated > 0);
  const waitRows = waiting.reduce((n, l) => n + wrapText(l, width, 0).length, 0);
  const status = live ? statusText(live, labTime) : '';
  const used = 6 + (live ? wrapText(status, width, 0).length : 1) + waitRows + (stall.length ? 4 + Math.min(3, stall.length) : 0) + (out ? 3 : 0) + (rehearsal ? rehearsal.wouldWaitFor.length + 1 : 0);
  const tableHeight = Math.max(3, height - used);
  const pass = colour('pass');
  return (
    <Box flexDirection="column">
      <Text bold>{step.title}</Text>
      {out && step.summary ? <Para>{step.summary}</Para> : null}
      {/* While it waits with nothing to show, the wait says it all (KubeVirt's version and conditions included): room for what to check. */}
      {quiet ? null : <Counts counts={data.counts} />}
      {quiet ? null : <OutdatedTrend values={data.history.map((h) => h.outdated)} staying={staying} width={width} />}
      {live?.wait ? null : <KubevirtLine kv={data.kubevirt} />}
      {live?.wait ? <WaitPanel lines={waiting} overdue={live.wait.overdue} /> : null}
      {out?.outcome === 'completed' ? (
        <Para {...(pass ? { color: pass } : {})}>
          ✔ DONE: no migration in flight and nothing outdated that KubeVirt could still move.{staying ? ` ${staying} VM(s) will not move by themselves (they cannot live-migrate and are not evicted): recovery offers their restarts.` : ''}
        </Para>
      ) : null}
      {rehearsal ? (
        <Box flexDirection="column">
          <Text dimColor>Rehearsal: nothing was published. It would wait until:</Text>
          {rehearsal.wouldWaitFor.map((w, i) => (
            <Para key={i}>
              {'  • '}
              {w}
            </Para>
          ))}
        </Box>
      ) : null}
      {stall.length ? <StallPanel reasons={stall} width={width} stalled={live ? live.ended && !live.movable : out?.outcome === 'stalled'} movable={live?.movable} /> : null}
      {out && rows.length ? <Text bold>Failed or hanging migrations:</Text> : null}
      {quiet ? null : <WindowedTable columns={columns(width, rows, labTime)} rows={rows} height={tableHeight} isActive={isActive} rowKey={(r) => r.key} emptyText={out ? 'No failed or hanging migrations.' : 'No migrations yet.'} />}
      {live ? (
        <Para dimColor>{status}</Para>
      ) : out ? (
        <Text dimColor>
          {out.polls} poll(s) over {clockDuration(out.elapsedMs, labTime)}
          {out.planned ? ` (planned ${durationRange(out.planned.p50Seconds, out.planned.p90Seconds)})` : ''}
        </Text>
      ) : null}
      {step.error ? <ErrorPanel error={step.error} /> : null}
    </Box>
  );
}
