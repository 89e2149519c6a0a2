import { Box, Text } from 'ink';
import { useReducer } from 'react';
import { countItems, type PreflightItem, type PreflightLive, type PreflightOutput } from '../steps/preflight/types.js';
import { ErrorPanel } from './ErrorPanel.js';
import { useScreenKeys } from './keys/key-router.js';
import { StatusPanel } from './StatusPanel.js';
import type { StepScreenProps } from './step-screen.js';
import { formatDuration } from '../text/duration.js';

interface PanelState {
  focus: number;
  /** Panels opened or closed against their default (red and amber open, green closed). */
  toggled: ReadonlySet<string>;
}

/** The time a check took is shown only where it does not crowd the title. */
const fitsBeside = (title: string, panelWidth: number): boolean => title.length + 'UNKNOWN '.length + 8 + 4 <= panelWidth;

const linesOf = (item: PreflightItem): string[] => [...item.lines.map((l) => `  • ${l}`), ...(item.hint ? [`What to do: ${item.hint}`] : [])];

/**
 * Preflight as green/red/amber/grey panels, one per question, each with its status in words.
 * Red and amber panels open with their evidence and what to do; arrows move, Enter opens or closes.
 */
export function PreflightScreen({ step, isActive, width }: StepScreenProps) {
  const live = step.live as PreflightLive | undefined;
  const output = step.output as PreflightOutput | undefined;
  const items: PreflightItem[] = live?.items ?? output?.items ?? [];
  const columns = width >= 96 ? 2 : 1;
  // One reducer for focus and open panels, so Enter acts on the focus of the keys before it.
  const [{ focus, toggled }, dispatch] = useReducer(
    (s: PanelState, a: { move: number } | { toggle: true }): PanelState => {
      if ('move' in a) return { ...s, focus: Math.max(0, Math.min(items.length - 1, s.focus + a.move)) };
      const id = items[s.focus]?.id;
      if (!id) return s;
      const next = new Set(s.toggled);
      if (!next.delete(id)) next.add(id);
      return { ...s, toggled: next };
    },
    { focus: 0, toggled: new Set<string>() },
  );

  useScreenKeys(
    (input, key) => {
      if (key.rightArrow || key.downArrow || input === 'j') dispatch({ move: key.rightArrow ? 1 : columns });
      else if (key.leftArrow || key.upArrow || input === 'k') dispatch({ move: -(key.leftArrow ? 1 : columns) });
      else if (key.return) dispatch({ toggle: true });
    },
    { isActive },
  );

  const panelWidth = Math.floor((width - (columns - 1)) / columns);
  const rows: PreflightItem[][] = [];
  for (let i = 0; i < items.length; i += columns) rows.push(items.slice(i, i + columns));
  const headline = live?.headline ?? step.summary ?? (output ? countItems(output.items) : step.skipReason ? `Skipped: ${step.skipReason}` : 'Starting…');
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{step.title}</Text> <Text dimColor>{live?.running ? `· ${headline}` : headline}</Text>
      </Text>
      {output?.kubectlVersion || output?.accessExpiresAt ? (
        <Text dimColor>
          {output.kubectlVersion ? `kubectl ${output.kubectlVersion}` : ''}
          {output.serverVersion ? ` · cluster ${output.serverVersion}` : ''}
          {output.accessExpiresAt ? ` · access valid until ${output.accessExpiresAt}` : ''}
        </Text>
      ) : null}
      {rows.map((row, r) => (
        <Box key={r} gap={1}>
          {row.map((item, i) => {
            const index = r * columns + i;
            const open = (item.status !== 'pass') !== toggled.has(item.id);
            return (
              <StatusPanel
                key={item.id}
                width={panelWidth}
                status={item.status}
                title={item.title}
                summary={item.summary}
                {...(item.ms !== undefined && fitsBeside(item.title, panelWidth) ? { note: formatDuration(item.ms) } : {})}
                focused={isActive && index === focus}
                expanded={open}
                lines={linesOf(item)}
              />
            );
          })}
        </Box>
      ))}
      {step.error ? <ErrorPanel error={step.error} title="Preflight stopped the run" /> : null}
      {isActive && items.length ? <Text dimColor>←→↑↓ move · Enter open or close a panel</Text> : null}
    </Box>
  );
}
