import { Box, Text } from 'ink';
import { isPendingUid } from '../palette/mutations.js';
import type { DraftLive, DraftOutput } from '../steps/hop/draft.js';
import { ErrorPanel } from './ErrorPanel.js';
import type { StepScreenProps } from './step-screen.js';
import { StatusPanel } from './StatusPanel.js';
import { colour } from './theme.js';

/** Per pack: old → new tag and what the values change; the new version label; a red panel for the silent no-op. */
export function DraftScreen({ step, height, gate }: StepScreenProps) {
  const live = step.live as DraftLive | undefined;
  const out = step.output as (DraftOutput & { notApplied?: string[] }) | undefined;
  const draft = live?.draft ?? out;
  const notApplied = live?.notApplied ?? out?.notApplied;
  if (!draft) {
    return (
      <Box flexDirection="column">
        <Text bold>{step.title}</Text>
        <Text dimColor>{step.skipReason ? `Skipped: ${step.skipReason}` : 'Reading the profile…'}</Text>
        {step.error ? <ErrorPanel error={step.error} /> : null}
      </Box>
    );
  }
  const room = Math.max(4, height - 10 - draft.packs.length * 2 - (gate ? 0 : 0));
  const diffLines = draft.packs.flatMap((p) => (p.diff.patch.length ? [`--- ${p.name} values`, ...p.diff.patch] : []));
  const add = colour('pass');
  const del = colour('fail');
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>Draft of {draft.name}</Text> <Text dimColor>({isPendingUid(draft.uid) ? 'a new version: its uid comes with the clone' : draft.uid})</Text> version <Text bold>{draft.fromVersion}</Text> → <Text bold>{draft.toVersion}</Text>
      </Text>
      {draft.how === 'clone' || draft.how === 'existing' ? (
        <Text dimColor wrap="wrap">
          A new version object ({draft.how === 'clone' ? 'cloned from' : 'next to'} {draft.fromVersion}, uid {draft.source?.uid ?? '?'}, which stays as it is).
        </Text>
      ) : draft.how === 'in-place' ? (
        <Text dimColor>Edited in place: the version keeps its label.</Text>
      ) : null}
      {draft.packs.map((p) => (
        <Text key={p.name}>
          {'  '}
          {p.name.padEnd(30)} {p.from} → <Text bold>{p.to}</Text>
          <Text dimColor>
            {'  '}values +{p.diff.added} −{p.diff.removed}
            {p.carried ? ` · ${p.carried} site value(s) carried` : ''}
            {p.manifests.length ? ` · manifests: ${p.manifests.join(', ')}` : ''}
          </Text>
        </Text>
      ))}
      {notApplied ? (
        <StatusPanel status="fail" title="The API accepted the change but did not apply it" summary="The draft read back does not hold what was sent (spec 7: a silent no-op). Nothing was published." lines={notApplied.map((d) => `  • ${d}`)} expanded />
      ) : out?.readBack === 'matched' ? (
        <Text {...(add ? { color: add } : {})}>✔ Draft written and read back: it holds exactly what was sent.</Text>
      ) : out?.readBack === 'rehearsal' ? (
        <Text dimColor>Rehearsal: the PUT was recorded, not sent.</Text>
      ) : null}
      {step.error && !notApplied ? <ErrorPanel error={step.error} /> : null}
      {diffLines.length ? (
        <Box flexDirection="column" marginTop={1}>
          {diffLines.slice(0, room).map((l, i) => (
            <Text key={i} wrap="truncate-end" {...(l.startsWith('+') && add ? { color: add } : l.startsWith('-') && !l.startsWith('---') && del ? { color: del } : {})} dimColor={l.startsWith(' ')}>
              {l}
            </Text>
          ))}
          {diffLines.length > room ? <Text dimColor>… {diffLines.length - room} more diff lines (full diff in the report)</Text> : null}
        </Box>
      ) : null}
    </Box>
  );
}
