import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { isPendingUid } from '../palette/mutations.js';
import type { DraftLive, DraftOutput } from '../steps/hop/draft.js';
import { sanitizeText } from '../text/sanitize.js';
import { foldedCount, foldImageTags, type DiffLine } from './diff-fold.js';
import { DiffLines } from './DiffLines.js';
import { ErrorPanel } from './ErrorPanel.js';
import { keyPress } from './keys/key-press.js';
import { useScreenKeys } from './keys/key-router.js';
import { useScroll } from './keys/use-scroll.js';
import type { StepScreenProps } from './step-screen.js';
import { StatusPanel } from './StatusPanel.js';
import { colour } from './theme.js';
import { Para } from './Para.js';

/** Inside a gate the box scrolls the whole diff; this many lines at most are drawn there. */
const IN_GATE_LINES = 400;

/**
 * Per pack: old → new tag and what the values change (image tags that only follow the pack
 * version folded into one line); the new version label; the diff, scrolled and searched with the
 * usual keys; a red panel for the silent no-op.
 */
export function DraftScreen({ step, height, isActive, inGate }: StepScreenProps) {
  const live = step.live as DraftLive | undefined;
  const out = step.output as (DraftOutput & { notApplied?: string[] }) | undefined;
  const draft = live?.draft ?? out;
  const notApplied = live?.notApplied ?? out?.notApplied;
  const packs = useMemo(() => (draft?.packs ?? []).map((p) => ({ p, folded: foldImageTags(p.diff.patch) })), [draft]);
  const diff: DiffLine[] = useMemo(() => packs.flatMap(({ p, folded }) => (folded.length ? [{ kind: 'title' as const, text: `--- ${p.name} values` }, ...folded] : [])), [packs]);
  const howLine = draft?.how === 'clone' || draft?.how === 'existing' || draft?.how === 'in-place' ? 1 : 0;
  const room = inGate ? IN_GATE_LINES : Math.max(4, height - 8 - howLine - packs.length * 2);
  const scroll = useScroll({ total: diff.length, page: room, textAt: (i) => diff[i]?.text ?? '' });
  useScreenKeys((input, key) => void scroll.handle(keyPress(input, key)), { isActive: isActive && !inGate && diff.length > room, capture: scroll.typing });

  if (!draft) {
    return (
      <Box flexDirection="column">
        <Text bold>{step.title}</Text>
        <Text dimColor>{step.skipReason ? `Skipped: ${step.skipReason}` : 'Reading the profile…'}</Text>
        {step.error ? <ErrorPanel error={step.error} /> : null}
      </Box>
    );
  }
  const add = colour('pass');
  const offset = inGate ? 0 : scroll.state.offset;
  return (
    <Box flexDirection="column">
      <Para>
        <Text bold>Draft of {sanitizeText(draft.name, { max: 200 })}</Text> <Text dimColor>({isPendingUid(draft.uid) ? 'a new version: its uid comes with the clone' : draft.uid})</Text> version <Text bold>{draft.fromVersion}</Text> → <Text bold>{draft.toVersion}</Text>
      </Para>
      {draft.how === 'clone' || draft.how === 'existing' ? (
        <Para dimColor>
          A new version object ({draft.how === 'clone' ? 'cloned from' : 'next to'} {draft.fromVersion}, uid {draft.source?.uid ?? '?'}, which stays as it is).
        </Para>
      ) : draft.how === 'in-place' ? (
        <Text dimColor>Edited in place: the version keeps its label.</Text>
      ) : null}
      {packs.map(({ p, folded }) => {
        const tags = foldedCount(folded);
        return (
          <Para key={p.name}>
            {'  '}
            {p.name.padEnd(30)} {p.from} → <Text bold>{p.to}</Text>
            <Text dimColor>
              {'  '}values +{p.diff.added} −{p.diff.removed}
              {tags ? ` (${tags} of them only follow the pack version)` : ''}
              {p.carried ? ` · ${p.carried} site value(s) carried` : ''}
              {p.manifests.length ? ` · manifests: ${p.manifests.join(', ')}` : ''}
            </Text>
          </Para>
        );
      })}
      {notApplied ? (
        <StatusPanel status="fail" title="The API accepted the change but did not apply it" summary="The draft read back does not hold what was sent (a silent no-op). Nothing was published." lines={notApplied.map((d) => `  • ${sanitizeText(d, { max: 500 })}`)} expanded />
      ) : out?.readBack === 'matched' ? (
        <Text {...(add ? { color: add } : {})}>✔ Draft written and read back: it holds exactly what was sent.</Text>
      ) : out?.readBack === 'rehearsal' ? (
        <Text dimColor>Rehearsal: the PUT was recorded, not sent.</Text>
      ) : null}
      {step.error && !notApplied ? <ErrorPanel error={step.error} /> : null}
      {diff.length ? (
        <Box flexDirection="column" marginTop={1}>
          <DiffLines lines={diff} offset={offset} rows={room} hit={scroll.state.search?.hit} wrap={inGate} />
          {scroll.line ? (
            <Text>{scroll.line}</Text>
          ) : diff.length > offset + room ? (
            <Text dimColor>
              {inGate ? `… ${diff.length - room} more diff lines (see the report)` : `lines ${offset + 1}-${offset + room} of ${diff.length}${isActive ? ' · ↑↓ PgUp PgDn g G scroll · / search' : ''}`}
            </Text>
          ) : null}
        </Box>
      ) : null}
    </Box>
  );
}
