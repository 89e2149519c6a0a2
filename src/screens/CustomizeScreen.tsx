import { Box, Text, useInput } from 'ink';
import { useMemo, useRef, useState } from 'react';
import { parse as parseYamlValue } from 'yaml';
import { valuesDiff } from '../steps/hop/payload-diff.js';
import { decisionKey, type CustomizeEntry, type CustomizeLive, type CustomizeOutput, type DecisionMap, type PackCustomization } from '../steps/customize/types.js';
import { ErrorPanel } from './ErrorPanel.js';
import type { StepScreenProps } from './step-screen.js';
import { colour, type Tone } from './theme.js';

const labelTone: Record<string, Tone> = { carried: 'pass', candidate: 'pass', ruleFix: 'warn', newDefault: 'info', conflict: 'fail', ignored: 'muted' };
const show = (v: unknown) => (v === undefined ? '(absent)' : typeof v === 'string' ? v : JSON.stringify(v));
const fit = (s: string, n: number) => (s.length > n ? `${s.slice(0, Math.max(0, n - 1))}…` : s.padEnd(n));

interface PackRow {
  hop: number;
  role: string;
  profile: string;
  pack: PackCustomization;
}

function decisionText(key: string, e: CustomizeEntry, pending: DecisionMap): string {
  const d = pending[key];
  if (d === undefined) return e.label === 'conflict' ? 'keep site (proposed)' : '';
  return d === 'keepSite' ? 'keep site' : d === 'takeNew' ? 'take new default' : `value ${show(d.value)}`;
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
  const [packIndex, setPackIndex] = useState(0);
  const [entryIndex, setEntryIndex] = useState(0);
  const [focus, setFocus] = useState<'packs' | 'entries' | 'diff'>('packs');
  const [editing, setEditing] = useState<string | undefined>();
  const [typed, setTyped] = useState('');
  const typedRef = useRef('');
  const [pending, setPending] = useState<DecisionMap>(() => (step.notes.decisions as DecisionMap | undefined) ?? {});
  const [diffOffset, setDiffOffset] = useState(0);

  const row = rows[Math.min(packIndex, rows.length - 1)];
  const entries = row?.pack.entries ?? [];
  const entry = entries[Math.min(entryIndex, entries.length - 1)];
  const keyOf = (e: CustomizeEntry) => (row ? decisionKey(row.hop, row.role, row.pack.name, e.path) : e.path);
  const diff = useMemo(() => (row && focus === 'diff' ? valuesDiff(row.pack.deployedValues, row.pack.values, 2000) : undefined), [row, focus]);
  const rules = (out?.byHop ?? []).flatMap((h) => h.profiles.flatMap((p) => p.rules.map((r) => ({ ...r, hop: h.index }))));
  const red = rules.filter((r) => r.status === 'fail');

  const setDecision = (value: DecisionMap[string] | undefined) => {
    if (!entry || entry.label !== 'conflict') return;
    setPending((p) => {
      const next = { ...p };
      if (value === undefined) delete next[keyOf(entry)];
      else next[keyOf(entry)] = value;
      return next;
    });
  };

  useInput(
    (input, key) => {
      if (editing) {
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
        } else if (key.backspace || key.delete) {
          typedRef.current = typedRef.current.slice(0, -1);
          setTyped(typedRef.current);
        } else if (input && !key.ctrl && !key.meta) {
          typedRef.current += input;
          setTyped(typedRef.current);
        }
        return;
      }
      if (key.tab) setFocus((f) => (f === 'packs' ? 'entries' : 'packs'));
      else if (input === 'd') setFocus((f) => (f === 'diff' ? 'packs' : 'diff'));
      else if (key.upArrow || key.downArrow) {
        const d = key.upArrow ? -1 : 1;
        if (focus === 'packs') {
          setPackIndex((i) => Math.min(rows.length - 1, Math.max(0, i + d)));
          setEntryIndex(0);
          setDiffOffset(0);
        } else if (focus === 'entries') setEntryIndex((i) => Math.min(entries.length - 1, Math.max(0, i + d)));
        else setDiffOffset((o) => Math.max(0, o + d * 5));
      } else if (focus === 'entries' && input === 'k') setDecision('keepSite');
      else if (focus === 'entries' && input === 'n') setDecision('takeNew');
      else if (focus === 'entries' && input === 'e' && entry?.label === 'conflict') {
        typedRef.current = '';
        setTyped('');
        setEditing(keyOf(entry));
      } else if (gate && decide && input === 'c') decide('approve', { decisions: pending });
      else if (gate && decide && input === 'a') decide('skip', { decisions: pending });
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
  const pathWidth = Math.max(20, Math.floor(width * 0.4));
  const valueWidth = Math.max(10, Math.floor((width - pathWidth - 14) / 2));
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
            <Text key={`${r.hop}/${r.role}/${r.pack.name}`} {...(at && focus === 'packs' && isActive ? { inverse: true } : {})}>
              {at ? '❯ ' : '  '}hop {r.hop} · {fit(`${r.profile} / ${r.pack.name}`, 40)} {r.pack.from} → {r.pack.tag}{' '}
              <Text dimColor>
                carried {n.carried + n.candidate} · new {n.newDefault} · conflicts {n.conflict} · rule fixes {n.ruleFix} · ignored {n.ignored}
              </Text>
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
          <Text bold>
            {'  '}
            {fit('LABEL', 11)}
            {fit('PATH', pathWidth)} {fit('DEPLOYED', valueWidth)} → {fit('DRAFT', valueWidth)}
          </Text>
          {entries.length === 0 ? <Text dimColor>  No differences other than ignored ones (image tags and versions).</Text> : null}
          {entries.slice(entryStart, entryStart + entryRoom).map((e, i) => {
            const at = entryStart + i === entryIndex && focus === 'entries';
            const tone = colour(labelTone[e.label] ?? 'muted');
            const decision = decisionText(keyOf(e), e, pending);
            return (
              <Text key={e.path} {...(at && isActive ? { inverse: true } : {})}>
                {at ? '❯ ' : '  '}
                <Text {...(tone ? { color: tone } : {})}>{fit(e.label === 'ruleFix' ? 'rule fix' : e.label === 'newDefault' ? 'new default' : e.label, 11)}</Text>
                {fit(e.path, pathWidth)} {fit(show(e.deployed), valueWidth)} → {fit(show(e.result), valueWidth)}
                {decision ? <Text dimColor> [{decision}]</Text> : null}
              </Text>
            );
          })}
          {entries.length > entryRoom ? <Text dimColor>{`  ${entries.length} differences (Tab, then ↑↓)`}</Text> : null}
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
          {rules.length - red.length}/{rules.length} customization rules hold
          {red.length ? `: ${red.map((r) => `hop ${r.hop} ${r.title}`).join('; ')}` : ''}
        </Text>
      </Box>
      {step.error ? <ErrorPanel error={step.error} /> : null}
      {isActive && gate ? (
        <Text dimColor>
          Tab packs/differences · d YAML diff · on a conflict: k keep site, n take new, e enter a value · a apply and review · c continue · s stop
        </Text>
      ) : null}
    </Box>
  );
}
