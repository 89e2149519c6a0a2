import { Box, Text, useInput } from 'ink';
import { useMemo, useState } from 'react';
import { useRefState } from './use-ref-state.js';
import { parse as parseYamlValue } from 'yaml';
import { valuesDiff } from '../steps/hop/payload-diff.js';
import { decisionKey, type CustomizeEntry, type CustomizeLive, type CustomizeOutput, type DecisionMap, type PackCustomization } from '../steps/customize/types.js';
import { ErrorPanel } from './ErrorPanel.js';
import type { StepScreenProps } from './step-screen.js';
import { colour, type Tone } from './theme.js';

const labelTone: Record<string, Tone> = { carried: 'pass', candidate: 'pass', ruleFix: 'warn', newDefault: 'info', conflict: 'fail', ignored: 'muted' };
const show = (v: unknown) => (v === undefined ? '(absent)' : typeof v === 'string' ? v : JSON.stringify(v));
const fit = (s: string, n: number) => (s.length > n ? `${s.slice(0, Math.max(0, n - 1))}…` : s.padEnd(n));
/** Paths keep their end, where the setting is named: `…kubevirtResource.additionalFeatureGates`. */
const fitLeft = (s: string, n: number) => (s.length > n ? `…${s.slice(s.length - n + 1)}` : s.padEnd(n));

interface PackRow {
  hop: number;
  role: string;
  profile: string;
  pack: PackCustomization;
}

function decisionText(key: string, e: CustomizeEntry, pending: DecisionMap): string {
  const d = pending[key];
  if (d === undefined) return e.label !== 'conflict' ? '' : e.decision === 'merged' ? 'merge both (proposed)' : 'keep site (proposed)';
  if (d === 'keepSite') return 'keep site';
  if (d === 'takeNew') return 'take new default';
  if (d === 'merge') return 'merge both';
  return `value ${show(d.value)}`;
}

/** Only the counts that are not zero, so a pack's line fits. */
function countsLine(n: PackCustomization['counts']): string {
  const parts: Array<[number, string]> = [
    [n.carried + n.candidate, 'carried'],
    [n.newDefault, 'new'],
    [n.conflict, 'conflicts'],
    [n.ruleFix, 'rule fixes'],
    [n.ignored, 'ignored'],
  ];
  return parts.filter(([v]) => v > 0).map(([v, w]) => `${w} ${v}`).join(' · ') || 'no differences';
}

/**
 * Per pack, the differences with their label and deployed → draft value; conflicts decided with
 * k / n / e; a YAML diff per pack; the rules as a panel. c continues, a applies decisions, s stops.
 */
export function CustomizeScreen({ step, isActive, width, height, gate, decide }: StepScreenProps) {
  const live = step.live as CustomizeLive | undefined;
  const out = (live?.result ?? step.output) as CustomizeOutput | undefined;
  const rows: PackRow[] = useMemo(
    () => (out?.byHop ?? []).flatMap((h) => h.profiles.flatMap((p) => p.packs.map((pack) => ({ hop: h.index, role: p.role, profile: p.name, pack })))),
    [out],
  );
  const [packIndex, setPackIndex, packRef] = useRefState(0);
  const [entryIndex, setEntryIndex, entryRef] = useRefState(0);
  const [focus, setFocus, focusRef] = useRefState<'packs' | 'entries' | 'diff'>('packs');
  const [editing, setEditing, editingRef] = useRefState<string | undefined>(undefined);
  const [typed, setTyped, typedRef] = useRefState('');
  const [pending, setPending, pendingRef] = useRefState<DecisionMap>(() => (step.notes.decisions as DecisionMap | undefined) ?? {});
  const [diffOffset, setDiffOffset] = useState(0);

  const row = rows[Math.min(packIndex, rows.length - 1)];
  const entries = row?.pack.entries ?? [];
  const entry = entries[Math.min(entryIndex, entries.length - 1)];
  // What the key handler acts on, read through refs (see useRefState).
  const current = () => {
    const r = rows[Math.min(packRef.current, rows.length - 1)];
    const list = r?.pack.entries ?? [];
    return { r, list, e: list[Math.min(entryRef.current, list.length - 1)] };
  };
  const keyOf = (e: CustomizeEntry) => (row ? decisionKey(row.hop, row.role, row.pack.name, e.path) : e.path);
  const diff = useMemo(() => (row && focus === 'diff' ? valuesDiff(row.pack.deployedValues, row.pack.values, 2000) : undefined), [row, focus]);
  const rules = (out?.byHop ?? []).flatMap((h) => h.profiles.flatMap((p) => p.rules.map((r) => ({ ...r, hop: h.index }))));
  const red = rules.filter((r) => r.status === 'fail');
  const grey = rules.filter((r) => r.status === 'notApplicable');

  const setDecision = (value: DecisionMap[string] | undefined) => {
    const { r, e } = current();
    if (!r || !e || e.label !== 'conflict') return;
    const key = decisionKey(r.hop, r.role, r.pack.name, e.path);
    setPending((p) => {
      const next = { ...p };
      if (value === undefined) delete next[key];
      else next[key] = value;
      return next;
    });
  };

  useInput(
    (input, key) => {
      const { list, e } = current();
      if (editingRef.current) {
        if (key.escape) setEditing(undefined);
        else if (key.return) {
          let value: unknown = typedRef.current;
          try {
            value = parseYamlValue(typedRef.current);
          } catch {
            // not YAML: keep the text as a string
          }
          setDecision({ value });
          setEditing(undefined);
        } else if (key.backspace || key.delete) setTyped((t) => t.slice(0, -1));
        else if (input && !key.ctrl && !key.meta) setTyped((t) => t + input);
        return;
      }
      const f = focusRef.current;
      if (key.tab) setFocus(f === 'packs' ? 'entries' : 'packs');
      else if (input === 'd') setFocus(f === 'diff' ? 'packs' : 'diff');
      else if (key.upArrow || key.downArrow) {
        const d = key.upArrow ? -1 : 1;
        if (f === 'packs') {
          setPackIndex((i) => Math.min(rows.length - 1, Math.max(0, i + d)));
          setEntryIndex(0);
          setDiffOffset(0);
        } else if (f === 'entries') setEntryIndex((i) => Math.min(list.length - 1, Math.max(0, i + d)));
        else setDiffOffset((o) => Math.max(0, o + d * 5));
      } else if (f === 'entries' && input === 'k') setDecision('keepSite');
      else if (f === 'entries' && input === 'n') setDecision('takeNew');
      else if (f === 'entries' && input === 'm' && e?.suggestion !== undefined) setDecision('merge');
      else if (f === 'entries' && input === 'e' && e?.label === 'conflict') {
        setTyped('');
        setEditing(e.path);
      } else if (gate && decide && input === 'c') decide('approve', { decisions: pendingRef.current });
      else if (gate && decide && input === 'a') decide('skip', { decisions: pendingRef.current });
      else if (gate && decide && input === 's') decide('abort');
    },
    { isActive },
  );

  if (!out) {
    return (
      <Box flexDirection="column">
        <Text bold>{step.title}</Text>
        <Text dimColor>{step.skipReason ? `Skipped: ${step.skipReason}` : (live?.headline ?? 'Reading the values…')}</Text>
        {step.error ? <ErrorPanel error={step.error} /> : null}
      </Box>
    );
  }

  const listRoom = Math.max(3, Math.min(rows.length, Math.floor((height - 12) / 3)));
  const entryRoom = Math.max(3, height - listRoom - 14);
  const packStart = Math.max(0, Math.min(packIndex - Math.floor(listRoom / 2), rows.length - listRoom));
  const entryStart = Math.max(0, Math.min(entryIndex - Math.floor(entryRoom / 2), entries.length - entryRoom));
  // marker 2 + label 12 + " → " 3 + spaces: the rest split between the path and the two values.
  const avail = Math.max(30, width - 19);
  const pathWidth = Math.floor(avail * 0.42);
  const valueWidth = Math.floor((avail - pathWidth) / 2);
  const c = row?.pack.counts;
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{step.title}</Text> <Text dimColor>{live?.headline ?? step.summary ?? ''}</Text>
      </Text>
      <Box flexDirection="column" marginTop={1}>
        {rows.slice(packStart, packStart + listRoom).map((r, i) => {
          const at = packStart + i === packIndex;
          const n = r.pack.counts;
          return (
            <Text key={`${r.hop}/${r.role}/${r.pack.name}`} wrap="truncate-end" {...(at && focus === 'packs' && isActive ? { inverse: true } : {})}>
              {at ? '❯ ' : '  '}hop {r.hop} · {fit(`${r.profile} / ${r.pack.name}`, 34)} {`${r.pack.from} → ${r.pack.tag}`.padEnd(18)} <Text dimColor>{countsLine(n)}</Text>
            </Text>
          );
        })}
        {rows.length > listRoom ? <Text dimColor>{`  ${rows.length} packs (↑↓)`}</Text> : null}
      </Box>
      {row && c ? (
        <Text dimColor>
          {row.pack.mode === 'threeWay' ? '3-way' : '2-way (old defaults unknown)'} · new defaults from {row.pack.sources.newDefaults}
        </Text>
      ) : null}
      {focus === 'diff' && diff ? (
        <Box flexDirection="column" marginTop={1}>
          <Text bold>
            YAML diff of {row?.pack.name}: deployed → draft (+{diff.added} −{diff.removed}) <Text dimColor>↑↓ scroll · d close</Text>
          </Text>
          {diff.patch.slice(diffOffset, diffOffset + entryRoom).map((l, i) => {
            const tone = l.startsWith('+') ? colour('pass') : l.startsWith('-') ? colour('fail') : undefined;
            return (
              <Text key={i} wrap="truncate-end" {...(tone ? { color: tone } : {})} dimColor={l.startsWith(' ')}>
                {l}
              </Text>
            );
          })}
          {diff.patch.length === 0 ? <Text dimColor>The values are the same as deployed.</Text> : null}
        </Box>
      ) : (
        <Box flexDirection="column" marginTop={1}>
          <Text bold wrap="truncate-end">
            {'  '}
            {fit('LABEL', 12)}
            {fit('PATH', pathWidth)} {fit('DEPLOYED', valueWidth)} → {fit('DRAFT', valueWidth)}
          </Text>
          {entries.length === 0 ? <Text dimColor>  No differences other than ignored ones (image tags and versions).</Text> : null}
          {entries.slice(entryStart, entryStart + entryRoom).map((e, i) => {
            const at = entryStart + i === entryIndex && focus === 'entries';
            const tone = colour(labelTone[e.label] ?? 'muted');
            const decision = decisionText(keyOf(e), e, pending);
            return (
              <Text key={e.path} wrap="truncate-end" {...(at && isActive ? { inverse: true } : {})}>
                {at ? '❯ ' : '  '}
                <Text {...(tone ? { color: tone } : {})}>{fit(e.label === 'ruleFix' ? 'rule fix' : e.label === 'newDefault' ? 'new default' : e.label, 12)}</Text>
                {fitLeft(e.path, pathWidth)} {fit(show(e.deployed), valueWidth)} → {fit(show(e.result), valueWidth)}
              </Text>
            );
          })}
          {entries.length > entryRoom ? <Text dimColor>{`  ${entries.length} differences (Tab, then ↑↓)`}</Text> : null}
          {focus === 'entries' && entry ? (
            <Box flexDirection="column">
              <Text wrap="truncate-end">
                <Text bold>{entry.path}</Text>
                {entry.note ? <Text dimColor> ({entry.note})</Text> : null}
              </Text>
              {entry.label === 'conflict' ? (
                <Text>
                  Decision: <Text bold>{decisionText(keyOf(entry), entry, pending)}</Text>{' '}
                  <Text dimColor>(k keep site · n new default{entry.suggestion !== undefined ? ' · m merge lists' : ''} · e enter a value)</Text>
                </Text>
              ) : null}
              <Text dimColor wrap="truncate-end">
                draft {show(entry.result)} · deployed {show(entry.deployed)} · new default {show(entry.newDefault)}
              </Text>
            </Box>
          ) : null}
        </Box>
      )}
      {editing ? (
        <Text>
          Value for {entry?.path} (YAML; Enter to set, Esc to cancel): {typed}
          <Text inverse> </Text>
        </Text>
      ) : null}
      <Box marginTop={1}>
        <Text>
          <Text bold {...(colour(red.length ? 'fail' : 'pass') ? { color: colour(red.length ? 'fail' : 'pass')! } : {})}>
            {red.length ? 'RULES FAIL' : 'RULES PASS'}
          </Text>{' '}
          {rules.length - red.length - grey.length}/{rules.length - grey.length} customization rules hold
          {red.length ? `: ${red.map((r) => `hop ${r.hop} ${r.title}`).join('; ')}` : ''}
        </Text>
      </Box>
      {grey.length ? (
        <Text dimColor wrap="truncate-end">
          {`N/A ${grey.length}: ${[...new Map(grey.map((r) => [r.id, `${r.title} (${r.message})`])).values()].join('; ')}`}
        </Text>
      ) : null}
      {step.error ? <ErrorPanel error={step.error} /> : null}
      {isActive && gate ? (
        <Text dimColor>
          Tab packs/differences · d YAML diff · on a conflict: k keep site, n take new, m merge lists, e enter a value · a apply and review
        </Text>
      ) : null}
    </Box>
  );
}
