import { Box, Text } from 'ink';
import type { DiagnoseLive, DiagnoseOutput, Finding, SourceKind } from '../steps/migrations/diagnose-types.js';
import { ErrorPanel } from './ErrorPanel.js';
import { keyPress } from './keys/key-press.js';
import { useScreenKeys } from './keys/key-router.js';
import { useScroll } from './keys/use-scroll.js';
import { readableLine } from './migrations-evidence.js';
import { sanitizeText } from '../text/sanitize.js';
import { wrapText } from './migrations-wrap.js';
import type { StepScreenProps } from './step-screen.js';
import { colour, toneLabel, type Tone } from './theme.js';
import { Para } from './Para.js';
import { formatDuration } from '../text/duration.js';

const sourceLabel: Record<SourceKind, string> = {
  migrationFailureReason: 'migration failure reasons',
  virtHandlerLogs: 'virt-handler logs',
  launcherLogs: 'launcher logs',
};

/** One logical line: an optional label in words (and colour), then text; wrapped to rows before windowing. */
interface Line {
  label?: { text: string; tone: Tone };
  text: string;
  bold?: boolean;
  dim?: boolean;
}

interface Row extends Line {
  key: string;
}

function findingLines(f: Finding): Line[] {
  const lines: Line[] = [
    { label: { text: f.confirmed ? 'KNOWN ISSUE' : 'POSSIBLE ISSUE', tone: f.confirmed ? 'fail' : 'warn' }, text: `${f.title}${f.confirmed ? '' : ' (only secondary symptoms found)'}`, bold: true },
    { text: 'Symptoms', bold: true },
    ...f.signatures.map((s): Line => ({
      label: s.matches > 0 ? { text: '  FOUND    ', tone: 'fail' } : { text: '  NOT FOUND', tone: 'muted' },
      text: `${s.description ?? s.id} — ${s.matches} line(s) in ${sourceLabel[s.source]}${s.secondary ? ' · secondary' : ''}`,
    })),
    { text: 'What the runbook prescribes', bold: true },
    ...f.recovery.map((r, j): Line => ({ text: `  ${j + 1}. ${r}` })),
  ];
  if (f.evidence.length) lines.push({ text: 'Evidence (each matched line and where it came from)', bold: true });
  for (const e of f.evidence) {
    lines.push({ text: `  • ${e.signature}, from ${e.source}:`, dim: true });
    lines.push({ text: `      ${readableLine(e.line)}` });
  }
  lines.push({ text: '' });
  return lines;
}

function outputLines(out: DiagnoseOutput): Line[] {
  const lines = out.findings.flatMap(findingLines);
  for (const u of out.unknown) {
    lines.push({ label: { text: toneLabel.unknown, tone: 'unknown' }, text: `Failure no known issue explains (${u.count}×)`, bold: true });
    lines.push({ text: `  ${u.reason}` });
    lines.push({ text: `  VMIs: ${u.vmis.join(', ')}`, dim: true });
  }
  if (out.stuck.length) lines.push({ text: `Hanging in Running: ${out.stuck.slice(0, 8).map((s) => `${s.vmi} (${formatDuration(s.ageMs)})`).join(', ')}${out.stuck.length > 8 ? ', …' : ''}` });
  const r = out.read;
  lines.push({
    text: `Read: ${r.failureReasons} failure reason(s), virt-handler logs of ${r.handlerPods.length} pod(s) (last ${r.handlerTail} lines), launcher logs of ${r.launcherPods.length} pod(s) (last ${r.launcherTail} lines)${out.affectedNodes.length ? ` on ${out.affectedNodes.join(', ')}` : ''}.`,
    dim: true,
  });
  // A log that could not be read is evidence the diagnosis went without: said, not dimmed.
  for (const u of r.unreadable) lines.push({ label: { text: toneLabel.warn, tone: 'warn' }, text: `Evidence missing: could not read ${u}` });
  return lines;
}

function toRows(lines: Line[], width: number): Row[] {
  return lines.flatMap((line, i) => {
    // The label starts the first row; the text wraps in the room left beside it.
    const prefix = line.label ? line.label.text.length + 1 : 0;
    return wrapText(sanitizeText(line.text, { max: 2000 }), width, line.label ? prefix : 2, width - prefix).map((text, j): Row => {
      if (j === 0) return { ...line, key: `${i}.${j}`, text };
      const { label: _label, ...rest } = line;
      return { ...rest, key: `${i}.${j}`, text };
    });
  });
}

function RowText({ row, hit }: { row: Row; hit: boolean }) {
  const c = row.label ? colour(row.label.tone) : undefined;
  return (
    <Text bold={row.bold ?? false} dimColor={row.dim ?? false} inverse={hit}>
      {row.label ? (
        <Text bold {...(c ? { color: c } : {})}>
          {row.label.text}{' '}
        </Text>
      ) : null}
      {row.text}
    </Text>
  );
}

/**
 * The diagnosis: the issue by name, each symptom found or not, the recovery the runbook
 * prescribes, and each matched line with where it came from; failures nothing explains, raw.
 * Rows are wrapped to the pane's width first, so the window scrolls exactly.
 */
export function DiagnoseScreen({ step, isActive, width, height }: StepScreenProps) {
  const out = step.output as DiagnoseOutput | undefined;
  const live = step.live as DiagnoseLive | undefined;
  const headline = out ? wrapText(out.headline, width, 0) : [];
  const rows = out ? toRows(outputLines(out), width) : [];
  const room = Math.max(4, height - 2 - headline.length - (step.error ? 6 : 0));
  const scroll = useScroll({ total: rows.length, page: room, textAt: (i) => `${rows[i]?.label?.text ?? ''} ${rows[i]?.text ?? ''}` });
  const scrolls = rows.length > room;
  useScreenKeys((input, key) => void scroll.handle(keyPress(input, key)), { isActive: isActive && scrolls, capture: scroll.typing });
  const start = scroll.state.offset;
  const hit = scroll.state.search?.hit;
  const tone: Tone = out?.findings.some((f) => f.confirmed) ? 'fail' : out?.unknown.length ? 'unknown' : 'info';
  const c = colour(tone);
  return (
    <Box flexDirection="column">
      <Text bold>{step.title}</Text>
      {out ? (
        headline.map((h, i) => (
          <Text key={i} {...(c ? { color: c } : {})}>
            {h}
          </Text>
        ))
      ) : (
        <Para dimColor>
          {step.skipReason ? `Skipped: ${step.skipReason}` : (live?.headline ?? 'Reading…')}
        </Para>
      )}
      {rows.slice(start, start + room).map((r, i) => (
        <RowText key={r.key} row={r} hit={start + i === hit} />
      ))}
      {scroll.line ? <Text>{scroll.line}</Text> : scrolls ? <Text dimColor>{`rows ${start + 1}-${Math.min(rows.length, start + room)} of ${rows.length}${isActive ? ' · ↑↓ PgUp PgDn g G scroll · / search' : ''}`}</Text> : null}
      {step.error ? <ErrorPanel error={step.error} /> : null}
    </Box>
  );
}
