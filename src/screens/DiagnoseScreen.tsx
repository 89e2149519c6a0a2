import { Box, Text, useInput } from 'ink';
import { useState, type ReactNode } from 'react';
import { formatDuration } from '../engine/duration.js';
import type { DiagnoseLive, DiagnoseOutput, Finding, SourceKind } from '../steps/migrations/diagnose-types.js';
import { ErrorPanel } from './ErrorPanel.js';
import { readableLine } from './migrations-evidence.js';
import type { StepScreenProps } from './step-screen.js';
import { colour, toneLabel, type Tone } from './theme.js';

const sourceLabel: Record<SourceKind, string> = {
  migrationFailureReason: 'migration failure reasons',
  virtHandlerLogs: 'virt-handler logs',
  launcherLogs: 'launcher logs',
};

type Line = { key: string; node: ReactNode };

const tinted = (tone: Tone, text: string, bold = true) => {
  const c = colour(tone);
  return (
    <Text bold={bold} {...(c ? { color: c } : {})}>
      {text}
    </Text>
  );
};

function findingLines(f: Finding, i: number): Line[] {
  const k = (s: string) => `f${i}-${s}`;
  const lines: Line[] = [
    {
      key: k('title'),
      node: (
        <Text wrap="wrap">
          {tinted(f.confirmed ? 'fail' : 'warn', f.confirmed ? 'KNOWN ISSUE' : 'POSSIBLE ISSUE')} <Text bold>{f.title}</Text>
          <Text dimColor>{f.confirmed ? '' : ' (only secondary symptoms found)'}</Text>
        </Text>
      ),
    },
    { key: k('sym'), node: <Text bold>Symptoms</Text> },
  ];
  for (const s of f.signatures) {
    lines.push({
      key: k(`s-${s.id}`),
      node: (
        <Text wrap="wrap">
          {'  '}
          {s.matches > 0 ? tinted('fail', '[FOUND]    ') : tinted('muted', '[not found]', false)} {s.description ?? s.id}
          <Text dimColor>
            {' '}
            — {s.matches} line(s) in {sourceLabel[s.source]}
            {s.secondary ? ' · secondary' : ''}
          </Text>
        </Text>
      ),
    });
  }
  if (f.evidence.length) lines.push({ key: k('ev'), node: <Text bold>Evidence</Text> });
  f.evidence.forEach((e, j) => {
    lines.push({ key: k(`e${j}a`), node: <Text dimColor wrap="wrap">{`  • ${e.signature}, from ${e.source}:`}</Text> });
    lines.push({ key: k(`e${j}b`), node: <Text wrap="wrap">{`      ${readableLine(e.line)}`}</Text> });
  });
  lines.push({ key: k('rec'), node: <Text bold>What the runbook prescribes</Text> });
  f.recovery.forEach((r, j) => lines.push({ key: k(`r${j}`), node: <Text wrap="wrap">{`  ${j + 1}. ${r}`}</Text> }));
  lines.push({ key: k('gap'), node: <Text> </Text> });
  return lines;
}

function outputLines(out: DiagnoseOutput): Line[] {
  const lines: Line[] = out.findings.flatMap(findingLines);
  out.unknown.forEach((u, i) => {
    lines.push({
      key: `u${i}`,
      node: (
        <Text wrap="wrap">
          {tinted('unknown', toneLabel.unknown)} <Text bold>Failure no known issue explains</Text> <Text dimColor>({u.count}×)</Text>
        </Text>
      ),
    });
    lines.push({ key: `u${i}r`, node: <Text wrap="wrap">{`  ${u.reason}`}</Text> });
    lines.push({ key: `u${i}v`, node: <Text dimColor wrap="wrap">{`  VMIs: ${u.vmis.join(', ')}`}</Text> });
  });
  if (out.stuck.length) {
    lines.push({ key: 'stuck', node: <Text wrap="wrap">{`Hanging in Running: ${out.stuck.slice(0, 8).map((s) => `${s.vmi} (${formatDuration(s.ageMs)})`).join(', ')}${out.stuck.length > 8 ? ', …' : ''}`}</Text> });
  }
  const r = out.read;
  lines.push({
    key: 'read',
    node: (
      <Text dimColor wrap="wrap">
        Read: {r.failureReasons} failure reason(s), virt-handler logs of {r.handlerPods.length} pod(s) (last {r.handlerTail} lines), launcher logs of {r.launcherPods.length} pod(s) (last {r.launcherTail} lines)
        {out.affectedNodes.length ? ` on ${out.affectedNodes.join(', ')}` : ''}.
      </Text>
    ),
  });
  r.unreadable.forEach((u, i) => lines.push({ key: `nr${i}`, node: <Text dimColor wrap="wrap">{`Could not read ${u}`}</Text> }));
  return lines;
}

/**
 * The diagnosis: the issue by name, each symptom found or not, each matched line with where it
 * came from, and the recovery the runbook prescribes; failures nothing explains, raw. Scrolls.
 */
export function DiagnoseScreen({ step, isActive, height }: StepScreenProps) {
  const out = step.output as DiagnoseOutput | undefined;
  const live = step.live as DiagnoseLive | undefined;
  const [offset, setOffset] = useState(0);
  const lines = out ? outputLines(out) : [];
  const room = Math.max(4, height - 3);
  const maxOffset = Math.max(0, lines.length - room);
  useInput(
    (_input, key) => {
      if (key.upArrow) setOffset((o) => Math.max(0, o - 1));
      else if (key.downArrow) setOffset((o) => Math.min(maxOffset, o + 1));
      else if (key.pageUp) setOffset((o) => Math.max(0, o - room));
      else if (key.pageDown) setOffset((o) => Math.min(maxOffset, o + room));
    },
    { isActive: isActive && maxOffset > 0 },
  );
  const start = Math.min(offset, maxOffset);
  const confirmed = out?.findings.some((f) => f.confirmed);
  return (
    <Box flexDirection="column">
      <Text wrap="wrap">
        <Text bold>{step.title}</Text>{' '}
        {out ? tinted(confirmed ? 'fail' : out.unknown.length ? 'unknown' : 'info', out.headline, false) : <Text dimColor>{step.skipReason ? `Skipped: ${step.skipReason}` : (live?.headline ?? 'Reading…')}</Text>}
      </Text>
      {lines.slice(start, start + room).map((l) => (
        <Box key={l.key}>{l.node}</Box>
      ))}
      {maxOffset > 0 ? <Text dimColor>{`lines ${start + 1}-${Math.min(lines.length, start + room)} of ${lines.length}${isActive ? ' (↑↓ PgUp PgDn to scroll)' : ''}`}</Text> : null}
      {step.error ? <ErrorPanel error={step.error} /> : null}
    </Box>
  );
}
