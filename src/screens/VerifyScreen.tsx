import { Box, Text, useInput } from 'ink';
import { useState } from 'react';
import { formatDuration } from '../engine/duration.js';
import type { CheckResult } from '../kube/checks/types.js';
import type { VerifyLive, VerifyOutput } from '../steps/verify/verify.js';
import { ErrorPanel } from './ErrorPanel.js';
import { StatusPanel } from './StatusPanel.js';
import type { StepScreenProps } from './step-screen.js';

/**
 * Verification as a grid of green/red/amber/grey panels, each with its status in words and the
 * time it took. Arrows move, Enter expands evidence and remediation, r re-runs, f finishes.
 */
export function VerifyScreen({ step, isActive, width, gate, decide }: StepScreenProps) {
  const live = step.live as VerifyLive | undefined;
  const output = step.output as VerifyOutput | undefined;
  const results: CheckResult[] = live?.results ?? output?.results ?? [];
  const [focus, setFocus] = useState(0);
  const [expanded, setExpanded] = useState<string | undefined>();
  const columns = width >= 96 ? 2 : 1;

  useInput(
    (input, key) => {
      if (key.rightArrow || key.downArrow) setFocus((f) => Math.min(results.length - 1, f + (key.downArrow ? columns : 1)));
      else if (key.leftArrow || key.upArrow) setFocus((f) => Math.max(0, f - (key.upArrow ? columns : 1)));
      else if (key.return) setExpanded((e) => (e === results[focus]?.id ? undefined : results[focus]?.id));
      else if (gate && decide && input === 'r') decide('approve');
      else if (gate && decide && (input === 'f' || key.escape)) decide('skip');
    },
    { isActive },
  );

  const panelWidth = Math.floor((width - (columns - 1)) / columns);
  const rows: CheckResult[][] = [];
  for (let i = 0; i < results.length; i += columns) rows.push(results.slice(i, i + columns));
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{step.title}</Text> <Text dimColor>{live?.running ? '· running the checks…' : live?.headline ?? step.summary ?? ''}</Text>
      </Text>
      {output?.rehearsal ? <Text dimColor>Rehearsal: today’s health, not the target versions.</Text> : null}
      {rows.map((row, r) => (
        <Box key={r} gap={1}>
          {row.map((c, i) => {
            const index = r * columns + i;
            return (
              <StatusPanel
                key={c.id}
                width={panelWidth}
                status={c.status}
                title={`${c.title}${c.spec ? ` (${c.spec})` : ''}`}
                summary={c.summary}
                note={formatDuration(c.durationMs)}
                focused={isActive && index === focus}
                expanded={expanded === c.id}
                lines={[...c.evidence.map((e) => `  • ${e}`), ...(c.remediation ? [`What to do: ${c.remediation}`] : [])]}
              />
            );
          })}
        </Box>
      ))}
      {step.error && !gate ? <ErrorPanel error={step.error} title="Verification failed" /> : null}
      {isActive ? (
        <Text dimColor>
          ←→↑↓ move · Enter {expanded ? 'collapse' : 'expand evidence'}
          {gate ? ' · r re-run the checks · f finish with these results' : ''}
        </Text>
      ) : null}
    </Box>
  );
}
