import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { sortImpact } from '../domain/impact/impact.js';
import type { PlanLive, PlanOutput } from '../steps/plan/types.js';
import { ErrorPanel } from './ErrorPanel.js';
import { keyPress } from './keys/key-press.js';
import { useScreenKeys } from './keys/key-router.js';
import { useScroll } from './keys/use-scroll.js';
import { wrapText } from './migrations-wrap.js';
import { planLines, type DocLine } from './plan-lines.js';
import { StatusPanel } from './StatusPanel.js';
import type { StepScreenProps } from './step-screen.js';
import { colour } from './theme.js';

function Line({ line, hit }: { line: DocLine; hit: boolean }) {
  const c = line.tone ? colour(line.tone) : undefined;
  return (
    <Text wrap="truncate-end" inverse={hit} {...(line.bold ? { bold: true } : {})} {...(line.dim && !hit ? { dimColor: true } : {})} {...(c ? { color: c } : {})}>
      {line.text || ' '}
    </Text>
  );
}

/** Where the window is and the keys, as long as the width allows. */
function scrollLine(offset: number, page: number, total: number, active: boolean, width: number): string {
  const range = `lines ${offset + 1}-${Math.min(total, offset + page)} of ${total}`;
  if (!active) return range;
  return [`${range} · ↑↓ PgUp PgDn g G scroll · / search`, `${range} · ↑↓ PgUp PgDn g G · / search`, `${range} · ↑↓ PgDn G /`].find((l) => l.length <= width) ?? range;
}

/**
 * The plan: the ladder on top; under it, scrolled as one (↑↓ PgUp PgDn g G, / to find a VM): the
 * whole upgrade against the booked window, each hop with its window (p50 and p90 against the window
 * booked, and its parts), its profiles and packs; every VM of the impact, restarts and evictions
 * first; every note; the way back. A refused plan is a red panel with the reason and the fix.
 */
export function PlanScreen({ step, isActive, height, width }: StepScreenProps) {
  const out = step.output as PlanOutput | undefined;
  const live = step.live as PlanLive | undefined;
  // Sorted and laid out once per output and width, not on every key press: the table may hold thousands of VMs.
  const sorted = useMemo(() => sortImpact(out?.impact ?? []), [out]);
  const lines = useMemo(() => (out && out.status !== 'refused' ? planLines(out, sorted, width) : []), [out, sorted, width]);
  const top = useMemo(() => {
    if (!out || out.status === 'refused') return [];
    const ladder = [out.deployed, ...out.hops.map((h) => h.to)].join(' ─▶ ');
    const title = out.hops.length ? `${step.title} ${out.pack} ${ladder} (${out.hops.length} hop(s), one minor each)` : `${step.title} ${out.pack} is already at ${out.deployed}: nothing to publish.`;
    return wrapText(title, width, 2).map((text, i): DocLine => ({ text, bold: i === 0 }));
  }, [out, step.title, width]);
  const page = Math.max(3, height - top.length - 1);
  const scroll = useScroll({ total: lines.length, page, textAt: (i) => lines[i]?.text ?? '' });
  useScreenKeys((input, key) => void scroll.handle(keyPress(input, key)), { isActive: isActive && lines.length > page, capture: scroll.typing });

  if (!out) {
    return (
      <Box flexDirection="column">
        <Text bold>{step.title}</Text>
        <Text dimColor>{step.skipReason ? `Skipped: ${step.skipReason}` : (live?.headline ?? 'Waiting…')}</Text>
        {step.error ? <ErrorPanel error={step.error} /> : null}
      </Box>
    );
  }
  if (out.status === 'refused') {
    return (
      <Box flexDirection="column">
        <Text>
          <Text bold>{step.title}</Text> <Text dimColor>{out.pack} {out.deployed} → {out.target}</Text>
        </Text>
        <StatusPanel status="fail" title="The plan is refused" summary={out.refusal?.reason ?? ''} lines={out.refusal ? [`What to do: ${out.refusal.hint}`] : []} expanded />
      </Box>
    );
  }
  const offset = scroll.state.offset;
  const hit = scroll.state.search?.hit;
  const more = lines.length > page;
  return (
    <Box flexDirection="column">
      {top.map((l, i) => (
        <Line key={`t${i}`} line={l} hit={false} />
      ))}
      {lines.slice(offset, offset + page).map((l, i) => (
        <Line key={offset + i} line={l} hit={offset + i === hit} />
      ))}
      {scroll.line ? <Text>{scroll.line}</Text> : more ? <Text dimColor>{scrollLine(offset, page, lines.length, isActive, width)}</Text> : null}
    </Box>
  );
}
