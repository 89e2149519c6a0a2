import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { parse as parseYamlValue } from 'yaml';
import { valuesDiff } from '../steps/hop/payload-diff.js';
import { chooserText, fixSettings } from '../steps/customize/render-text.js';
import { decisionKey, type CustomizeEntry, type CustomizeLive, type CustomizeOutput, type DecisionMap, type FixChoices, type PackCustomization } from '../steps/customize/types.js';
import { sanitizeText } from '../text/sanitize.js';
import { DiffLines, foldImageTags } from './DiffLines.js';
import { ErrorPanel } from './ErrorPanel.js';
import { keyPress } from './keys/key-press.js';
import { useScreenKeys } from './keys/key-router.js';
import { initialScroll, scrollKey, searchLine, type ScrollState } from './keys/scroll-model.js';
import { useScroll } from './keys/use-scroll.js';
import type { StepScreenProps } from './step-screen.js';
import { colour, type Tone } from './theme.js';
import { useRefState } from './use-ref-state.js';
import { Para } from './Para.js';
import { fitMiddle, shortenMiddle } from './fit-text.js';
import { wrapText } from './migrations-wrap.js';

const labelTone: Record<string, Tone> = { carried: 'pass', candidate: 'pass', ruleFix: 'warn', newDefault: 'info', conflict: 'fail', ignored: 'muted' };
const show = (v: unknown) => sanitizeText(v === undefined ? '(absent)' : typeof v === 'string' ? v : JSON.stringify(v), { max: 300 });
const fit = fitMiddle;

interface PackRow {
  hop: number;
  role: string;
  profile: string;
  pack: PackCustomization;
}

/** Something the drafts would hold that the site never had: a rule's fix (by rule id) or another addition (by its key). */
interface FixRow {
  id: string;
  title: string;
  where: string;
  what: string;
  effect: string;
}

/** The fixes and additions the review offers, once each (a fix is chosen for every hop where it is offered). */
function fixRows(out: CustomizeOutput | undefined): FixRow[] {
  const rows = new Map<string, FixRow>();
  for (const h of out?.byHop ?? []) {
    for (const p of h.profiles) {
      for (const f of p.fixes) {
        const prev = rows.get(f.rule);
        const what = fixSettings(f, (v) => JSON.stringify(v)).replaceAll('`', '');
        rows.set(f.rule, { id: f.rule, title: f.title, where: prev ? `${prev.where}, ${h.index}` : `${f.pack}, hop ${h.index}`, what, effect: f.effect });
      }
      for (const a of p.additions.filter((x) => x.source === 'other')) {
        const id = `${h.index}/${p.role}/${a.pack}/${a.path}`;
        rows.set(id, { id, title: `a value neither side has (${a.pack})`, where: `${a.pack}, hop ${h.index}`, what: `${a.path} = ${JSON.stringify(a.value)}`, effect: a.what });
      }
    }
  }
  return [...rows.values()];
}

type Decision = DecisionMap[string];
type Choice = { kind: 'set'; decision: Decision } | { kind: 'proposal' } | { kind: 'enter' };

function decisionText(key: string, e: CustomizeEntry, pending: DecisionMap): string {
  const d = pending[key];
  if (d === undefined) return e.label !== 'conflict' ? '' : e.decision === 'merged' ? 'merge both (proposed)' : e.removed ? 'drop: removed in the new version (proposed)' : 'keep site (proposed)';
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

/** A conflict's possible decisions, as a plain choice list (wrapping round it is harmless: nothing is decided until Enter). */
function choicesFor(e: CustomizeEntry): Array<{ key: string; label: string; value: Choice }> {
  return [
    { key: 'keep', label: `Keep the site value: ${show(e.deployed)}${e.removed ? ' (at a key the new version no longer reads)' : ''}`, value: { kind: 'set', decision: 'keepSite' } },
    { key: 'new', label: e.removed ? 'Drop it (the new version removed this key)' : `Take the new default: ${show(e.newDefault)}`, value: { kind: 'set', decision: 'takeNew' } },
    ...(e.suggestion !== undefined ? [{ key: 'merge', label: `Merge both lists: ${show(e.suggestion)}`, value: { kind: 'set', decision: 'merge' } as Choice }] : []),
    { key: 'enter', label: 'Enter a value…', value: { kind: 'enter' } },
    { key: 'proposal', label: 'Back to the proposal', value: { kind: 'proposal' } },
  ];
}

/**
 * The focused difference: its path, then each value on its own lines, wrapped at its items (never
 * cut to a column). In `rows` rows of `width`: a value longer than its share ends with where to
 * read it whole (the YAML diff, d).
 */
export function detailLines(e: CustomizeEntry, width: number, rows: number): string[] {
  const v = (x: unknown) => sanitizeText(x === undefined ? '(absent)' : typeof x === 'string' ? x : JSON.stringify(x, null, 1).replace(/\n\s*/g, ' '), { max: 4000 });
  const where = [...new Set([e.movedFrom ? `moved from ${e.movedFrom}` : '', e.removed ? `removed: ${e.removed}` : '', e.note && !(e.removed && e.note.includes(e.removed)) ? e.note : ''].filter(Boolean))].join('; ');
  const full = `${e.path}${where ? ` (${where})` : ''}`;
  // The path, and why it moved or went, in at most half the rows.
  const pathRoom = Math.max(1, Math.floor(rows / 2)) * width - 2;
  const path = wrapText(full, width, 0).length <= Math.max(1, Math.floor(rows / 2)) ? full : `${full.slice(0, Math.max(10, pathRoom - 8))}…`;
  const share = Math.max(1, Math.floor((rows - wrapText(path, width, 0).length) / 3));
  const fitted = (label: string, x: unknown) => {
    const line = `${label}: ${v(x)}`;
    if (wrapText(line, width, 0).length <= share) return line;
    const more = ' … (d: the YAML diff)';
    let cut = Math.max(10, share * width - more.length - 4);
    while (cut > 10 && wrapText(`${line.slice(0, cut)}${more}`, width, 0).length > share) cut -= Math.max(1, Math.floor(width / 2));
    return `${line.slice(0, cut)}${more}`;
  };
  return [path, fitted('draft', e.result), fitted('deployed', e.deployed), fitted('new default', e.newDefault)];
}

/**
 * Per pack, the differences with their label and deployed → draft value; a conflict's decision
 * chosen from a list (Enter); a YAML diff per pack (d, image tags folded, `/` searches); the
 * rules as a panel. c continues, a applies the decisions and reviews again, s stops.
 */
export function CustomizeScreen({ step, isActive, width, height, gate, decide }: StepScreenProps) {
  const live = step.live as CustomizeLive | undefined;
  const out = (live?.result ?? step.output) as CustomizeOutput | undefined;
  const rows: PackRow[] = useMemo(
    () => (out?.byHop ?? []).flatMap((h) => h.profiles.flatMap((p) => p.packs.map((pack) => ({ hop: h.index, role: p.role, profile: p.name, pack })))),
    [out],
  );
  const [packScroll, setPackScroll, packRef] = useRefState<ScrollState>(initialScroll);
  const [entryScroll, setEntryScroll, entryRef] = useRefState<ScrollState>(initialScroll);
  const [focus, setFocus, focusRef] = useRefState<'packs' | 'entries' | 'diff' | 'fixes'>('packs');
  const [mode, setMode, modeRef] = useRefState<'list' | 'choose' | 'edit'>('list');
  const [typed, setTyped, typedRef] = useRefState('');
  const [pending, setPending, pendingRef] = useRefState<DecisionMap>(() => (step.notes.decisions as DecisionMap | undefined) ?? {});
  const [fixes, setFixes, fixesRef] = useRefState<FixChoices>(() => (step.notes.fixes as FixChoices | undefined) ?? {});
  const [fixIndex, setFixIndex, fixIndexRef] = useRefState(0);
  // The conflict chooser's focus: it starts on what is decided now and never wraps round.
  const [choiceAt, setChoiceAt, choiceAtRef] = useRefState(0);
  const offered = useMemo(() => fixRows(out), [out]);

  const packIndex = Math.min(packScroll.offset, Math.max(0, rows.length - 1));
  const row = rows[packIndex];
  const entries = row?.pack.entries ?? [];
  const entryIndex = Math.min(entryScroll.offset, Math.max(0, entries.length - 1));
  const entry = entries[entryIndex];
  const keyOf = (r: PackRow, e: CustomizeEntry) => decisionKey(r.hop, r.role, r.pack.name, e.path);
  const diff = useMemo(() => (row && focus === 'diff' ? foldImageTags(valuesDiff(row.pack.deployedValues, row.pack.values, 4000).patch) : undefined), [row, focus]);
  const rules = (out?.byHop ?? []).flatMap((h) => h.profiles.flatMap((p) => p.rules.map((r) => ({ ...r, hop: h.index }))));
  const red = rules.filter((r) => r.status === 'fail');
  const grey = rules.filter((r) => r.status === 'notApplicable');
  const amber = rules.filter((r) => r.status === 'notOnSite');
  const amberRules = [...new Map(amber.map((r) => [r.id, r])).values()];

  // Every row is counted, so the lists take what is left of the screen's height and nothing
  // below them (the rules, the keys) is pushed out of sight.
  const textWidth = Math.max(20, width);
  const hintText = `Tab packs/differences${offered.length ? '/fixes' : ''} · ↑↓ move · PgUp PgDn a page · d YAML diff · / search · Enter on a conflict: choose its value${offered.length ? ' · f on a fix: choose it' : ''} · a apply and review`;
  // In full when there is room; on a short screen one line (the keys are in help, ?), so the lists keep their rows.
  const hintFull = height >= 30;
  const hintRows = isActive && gate ? (hintFull ? wrapText(hintText, textWidth, 0).length : 1) : 0;
  const roomy = height >= 30;
  const belowRows = 1 + (amberRules.length ? 1 : 0) + (offered.length ? 1 : 0) + (grey.length ? 1 : 0) + hintRows + (roomy ? 1 : 0);
  const headline = `${step.title} ${live?.headline ?? step.summary ?? ''}`.trim();
  const headlineRows = wrapText(headline, textWidth, 0).length;
  // The focused difference takes what the lists leave at their smallest (two packs, two differences, their lines).
  const detailBudget = Math.max(4, height - headlineRows - (roomy ? 3 : 0) - 1 - 1 - 1 - 1 - 4 - 1 - belowRows - (mode === 'edit' ? 1 : 0));
  const detail = entry && focus === 'entries' ? detailLines(entry, textWidth, Math.min(detailBudget, Math.max(4, Math.floor(height / 2)))) : [];
  const detailRows = detail.reduce((n, l) => n + wrapText(l, textWidth, 0).length, 0) + (entry?.label === 'conflict' && focus === 'entries' ? 1 : 0);
  const packLine = row ? `${row.profile} · ${countsLine(row.pack.counts)} · ${row.pack.mode === 'threeWay' ? '3-way' : '2-way (old defaults unknown)'} · new defaults from ${row.pack.sources.newDefaults}` : '';
  // In full while the packs have the focus; one line (it is said above) while a difference is read.
  const packLineRows = row ? (focus === 'packs' ? wrapText(packLine, textWidth, 0).length : 1) : 0;
  const fixedRows = headlineRows + (roomy ? 2 : 0) + 1 + packLineRows + 1 + 1 + detailRows + belowRows + (mode === 'edit' ? 1 : 0);
  const listsRoom = Math.max(4, height - fixedRows);
  // The differences get what this pack needs; the packs the rest (at least a third).
  const entriesWant = Math.max(2, entries.length);
  const listRoom = Math.max(2, Math.min(rows.length, Math.max(Math.floor(listsRoom / 3), listsRoom - entriesWant)));
  const entryRoom = Math.max(2, listsRoom - listRoom);
  const diffScroll = useScroll({ total: diff?.length ?? 0, page: entryRoom, textAt: (i) => diff?.[i]?.text ?? '' });

  // What the key handler acts on, read through refs (see useRefState).
  const current = () => {
    const r = rows[Math.min(packRef.current.offset, rows.length - 1)];
    const list = r?.pack.entries ?? [];
    return { r, list, e: list[Math.min(entryRef.current.offset, list.length - 1)] };
  };
  const setDecision = (value: Decision | undefined) => {
    const { r, e } = current();
    if (!r || !e || e.label !== 'conflict') return;
    const key = keyOf(r, e);
    setPending((p) => {
      const next = { ...p };
      if (value === undefined) delete next[key];
      else next[key] = value;
      return next;
    });
  };
  const onChoice = (item: { value: Choice }) => {
    if (item.value.kind === 'enter') {
      setTyped('');
      setMode('edit');
      return;
    }
    setDecision(item.value.kind === 'set' ? item.value.decision : undefined);
    setMode('list');
  };

  /** Moves the selection in a list: the selected row is the offset of a one-row window (so `/` and n/N jump to it). */
  const moveIn = (list: 'packs' | 'entries', k: ReturnType<typeof keyPress>): boolean => {
    const total = list === 'packs' ? rows.length : current().list.length;
    const ref = list === 'packs' ? packRef : entryRef;
    const set = list === 'packs' ? setPackScroll : setEntryScroll;
    const page = list === 'packs' ? listRoom : entryRoom;
    const textAt = list === 'packs' ? (i: number) => `${rows[i]?.profile} ${rows[i]?.pack.name}` : (i: number) => {
      const e = current().list[i];
      return e ? `${e.label} ${e.path} ${show(e.deployed)} ${show(e.result)}` : '';
    };
    const paged = k.name === 'pageUp' || k.name === 'pageDown' ? { ...ref.current, offset: ref.current.offset + (k.name === 'pageUp' ? -page : page) } : undefined;
    const r = paged ? { state: { ...paged, offset: Math.min(total - 1, Math.max(0, paged.offset)) }, handled: true } : scrollKey(ref.current, k, { total, page: 1, textAt });
    if (!r.handled) return false;
    set(r.state);
    if (list === 'packs') {
      setEntryScroll(initialScroll);
      diffScroll.reset();
    }
    return true;
  };

  const typingNow = () => modeRef.current !== 'list' || Boolean(packRef.current.search?.typing || entryRef.current.search?.typing) || diffScroll.typing();

  useScreenKeys(
    (input, key) => {
      const k = keyPress(input, key);
      const m = modeRef.current;
      if (m === 'choose') {
        const e = current().e;
        const list = e ? choicesFor(e) : [];
        if (k.name === 'escape') setMode('list');
        else if (k.name === 'up' || k.text === 'k') setChoiceAt((i) => Math.max(0, i - 1));
        else if (k.name === 'down' || k.text === 'j') setChoiceAt((i) => Math.min(list.length - 1, i + 1));
        else if (k.name === 'enter' && list[choiceAtRef.current]) onChoice(list[choiceAtRef.current]!);
        return;
      }
      if (m === 'edit') {
        if (k.name === 'escape') setMode('list');
        else if (k.name === 'enter') {
          let value: unknown = typedRef.current;
          try {
            value = parseYamlValue(typedRef.current);
          } catch {
            // not YAML: keep the text as a string
          }
          setDecision({ value });
          setMode('list');
        } else if (k.name === 'backspace') setTyped((t) => t.slice(0, -1));
        else if ((k.name === 'char' || k.name === 'paste') && k.text) setTyped((t) => t + k.text);
        return;
      }
      const f = focusRef.current;
      if (f === 'diff') {
        if (diffScroll.handle(k)) return;
        if (k.text === 'd' || k.name === 'escape') setFocus('packs');
        return;
      }
      if (f === 'fixes') {
        const row = offered[Math.min(fixIndexRef.current, offered.length - 1)];
        if (k.name === 'up' || k.text === 'k') setFixIndex((i) => Math.max(0, i - 1));
        else if (k.name === 'down' || k.text === 'j') setFixIndex((i) => Math.min(offered.length - 1, i + 1));
        else if (k.text === 'f' && row) {
          // Choosing writes a setting the site never had: the key that chose it goes into the report.
          setFixes((all) => {
            const next = { ...all };
            if (next[row.id]) delete next[row.id];
            else next[row.id] = { by: 'operator', key: 'f', at: new Date().toISOString() };
            return next;
          });
        } else if (k.name === 'tab' || k.name === 'escape') setFocus('packs');
        else if (gate && decide && k.text === 'c') decide('approve', { decisions: pendingRef.current, fixes: fixesRef.current }, 'c');
        else if (gate && decide && k.text === 'a') decide('skip', { decisions: pendingRef.current, fixes: fixesRef.current }, 'a');
        else if (gate && decide && k.text === 's') decide('abort', undefined, 's');
        return;
      }
      if (moveIn(f, k)) return;
      if (k.name === 'tab') setFocus(f === 'packs' ? 'entries' : f === 'entries' && offered.length ? 'fixes' : 'packs');
      else if (k.text === 'd') {
        diffScroll.reset();
        setFocus('diff');
      } else if (k.name === 'enter' && f === 'entries' && current().e?.label === 'conflict') {
        setChoiceAt(0);
        setMode('choose');
      }
      else if (k.name === 'enter' && f === 'packs') setFocus('entries');
      else if (gate && decide && k.text === 'c') decide('approve', { decisions: pendingRef.current, fixes: fixesRef.current }, 'c');
      else if (gate && decide && k.text === 'a') decide('skip', { decisions: pendingRef.current, fixes: fixesRef.current }, 'a');
      else if (gate && decide && k.text === 's') decide('abort', undefined, 's');
    },
    { isActive, capture: typingNow },
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

  const packStart = Math.max(0, Math.min(packIndex - Math.floor(listRoom / 2), rows.length - listRoom));
  const entryStart = Math.max(0, Math.min(entryIndex - Math.floor(entryRoom / 2), entries.length - entryRoom));
  // marker 2 + label 12 + " → " 3 + spaces: the rest split between the path and the two values.
  const avail = Math.max(30, width - 19);
  const pathWidth = Math.floor(avail * 0.42);
  const valueWidth = Math.floor((avail - pathWidth) / 2);
  const focusLine = focus === 'packs' ? searchLine(packScroll) : focus === 'entries' ? searchLine(entryScroll) : undefined;
  const manyHops = new Set(rows.map((r) => r.hop)).size > 1;
  // One name column for every pack: with its profile when every row has room for both, else the pack's name.
  const hopWidth = manyHops ? 'hop 1 · '.length : 0;
  const versionsWidth = Math.max(0, ...rows.map((r) => `${r.pack.from} → ${r.pack.tag}`.length));
  const nameRoom = Math.max(8, width - 2 - hopWidth - 1 - versionsWidth);
  const withProfile = rows.every((r) => `${r.profile} / ${r.pack.name}`.length <= Math.min(nameRoom, 44));
  const nameOf = (r: PackRow) => (withProfile ? `${r.profile} / ${r.pack.name}` : r.pack.name);
  const nameWidth = Math.min(nameRoom, Math.max(0, ...rows.map((r) => nameOf(r).length)));
  const rulesTone = colour(red.length ? 'fail' : 'pass');

  if (mode === 'choose' && entry && row && entry.label === 'conflict') {
    // The chooser takes the screen: every option, wrapped, with the focus on one, right under the
    // conflict's path; the values (each option names its own) follow in the rows left.
    const list = choicesFor(entry);
    const at = Math.min(choiceAt, list.length - 1);
    const optionRows = list.reduce((n, c) => n + wrapText(`❯ ${c.label}`, textWidth - 4, 0).length, 0);
    const [path, ...values] = detailLines(entry, textWidth, Math.max(4, height - 5 - optionRows));
    return (
      <Box flexDirection="column">
        <Text bold wrap="truncate-end">
          {step.title}: a conflict in {shortenMiddle(row.pack.name, Math.max(10, width - step.title.length - 16))}
        </Text>
        <Text bold wrap="truncate-end">
          {shortenMiddle(entry.path, width)}
        </Text>
        <Box flexDirection="column" borderStyle="round" paddingX={1}>
          <Text bold>What should the draft hold?</Text>
          {list.map((c, i) => (
            <Para key={c.key} bold={i === at} {...(i === at ? { inverse: Boolean(isActive) } : {})}>
              {i === at ? '❯ ' : '  '}
              {c.label}
            </Para>
          ))}
          <Text dimColor wrap="truncate-end">
            ↑↓ move · Enter choose · Esc back
          </Text>
        </Box>
        {[path !== entry.path ? path : undefined, ...values].filter((l): l is string => Boolean(l)).map((l, i) => (
          <Para key={i} dimColor>
            {l}
          </Para>
        ))}
      </Box>
    );
  }

  return (
    <Box flexDirection="column">
      <Para>
        <Text bold>{step.title}</Text> <Text dimColor>{live?.headline ?? step.summary ?? ''}</Text>
      </Para>
      <Box flexDirection="column" marginTop={roomy ? 1 : 0}>
        {rows.slice(packStart, packStart + listRoom).map((r, i) => {
          const at = packStart + i === packIndex;
          // The versions are never cut: the name gives way first (in its middle), then the counts.
          const versions = `${r.pack.from} → ${r.pack.tag}`.padEnd(versionsWidth);
          const hop = manyHops ? `hop ${r.hop} · ` : '';
          const name = nameOf(r);
          const counts = countsLine(r.pack.counts);
          const countsFit = width - 2 - hop.length - nameWidth - 1 - versions.length - 2 >= counts.length;
          return (
            <Text key={`${r.hop}/${r.role}/${r.pack.name}`} wrap="truncate-end" {...(at && focus === 'packs' && isActive ? { inverse: true } : {})}>
              {at ? '❯ ' : '  '}
              {hop}
              {fitMiddle(name, nameWidth)} {versions}
              {countsFit ? <Text dimColor>{`  ${counts}`}</Text> : null}
            </Text>
          );
        })}
        {rows.length > listRoom ? <Text dimColor wrap="truncate-end">{`  pack ${packIndex + 1} of ${rows.length}${focus === 'packs' ? ' · ↑↓ PgUp PgDn' : ''}`}</Text> : null}
      </Box>
      {row && focus === 'packs' ? <Para dimColor>{packLine}</Para> : null}
      {row && focus !== 'packs' ? (
        <Text dimColor wrap="truncate-end">
          {packLine}
        </Text>
      ) : null}
      {focus === 'fixes' ? (
        <Box flexDirection="column" marginTop={roomy ? 1 : 0}>
          <Text bold wrap="truncate-end">
            Fixes offered: settings the site did not have. None goes into a draft unless chosen. <Text dimColor>↑↓ move · f choose / leave out · Tab back</Text>
          </Text>
          {offered.slice(0, Math.max(1, Math.floor(entryRoom / 3))).map((o, i) => {
            const at = i === Math.min(fixIndex, offered.length - 1);
            const chosen = fixes[o.id];
            return (
              <Box key={o.id} flexDirection="column">
                <Text wrap="truncate-end" {...(at && isActive ? { inverse: true } : {})}>
                  {at ? '❯ ' : '  '}
                  {chosen ? '[x] ' : '[ ] '}
                  <Text bold>{o.id}</Text>: {chosen ? `in the drafts, chosen by ${chooserText(chosen)}` : 'left out'} <Text dimColor>({o.where})</Text>
                </Text>
                <Box paddingLeft={6} flexDirection="column">
                  <Para>sets {sanitizeText(o.what, { max: 400 })}</Para>
                  <Para dimColor>{sanitizeText(o.effect, { max: 400 })}</Para>
                </Box>
              </Box>
            );
          })}
        </Box>
      ) : focus === 'diff' && diff ? (
        <Box flexDirection="column" marginTop={roomy ? 1 : 0}>
          <Text bold wrap="truncate-end">
            YAML diff of {row?.pack.name}: deployed → draft <Text dimColor>↑↓ PgUp PgDn g G scroll · / search · d close</Text>
          </Text>
          {diff.length === 0 ? <Text dimColor>The values are the same as deployed.</Text> : <DiffLines lines={diff} offset={diffScroll.state.offset} rows={entryRoom} hit={diffScroll.state.search?.hit} />}
          {diffScroll.line ? <Text>{diffScroll.line}</Text> : null}
        </Box>
      ) : (
        <Box flexDirection="column" marginTop={roomy ? 1 : 0}>
          <Text bold wrap="truncate-end">
            {'  '}
            {fit('LABEL', 12)}
            {fit('PATH', pathWidth)} {fit('DEPLOYED', valueWidth)} → {fit('DRAFT', valueWidth)}
          </Text>
          {entries.length === 0 ? <Text dimColor>  No differences other than ignored ones (image tags and versions).</Text> : null}
          {entries.slice(entryStart, entryStart + entryRoom).map((e, i) => {
            const at = entryStart + i === entryIndex && focus === 'entries';
            const tone = colour(labelTone[e.label] ?? 'muted');
            return (
              <Text key={e.path} wrap="truncate-end" {...(at && isActive ? { inverse: true } : {})}>
                {at ? '❯ ' : '  '}
                <Text {...(tone ? { color: tone } : {})}>{fit(e.removed ? 'removed' : e.movedFrom ? 'moved' : e.label === 'ruleFix' ? 'chosen fix' : e.label === 'newDefault' ? 'new default' : e.label, 12)}</Text>
                {fit(e.path, pathWidth)} {fit(show(e.deployed), valueWidth)} → {fit(show(e.result), valueWidth)}
              </Text>
            );
          })}
          {focusLine ? (
            <Text>{focusLine}</Text>
          ) : (
            <Text dimColor wrap="truncate-end">
              {entries.length > 0 ? `  ${focus === 'entries' ? `difference ${entryIndex + 1} of ` : ''}${entries.length} difference(s)${focus === 'entries' ? ' · ↑↓ PgUp PgDn · the values in full below' : ' · Tab, then ↑↓: each in full'}` : ' '}
            </Text>
          )}
          {focus === 'entries' && entry && row ? (
            <Box flexDirection="column">
              {entry.label === 'conflict' ? (
                <Para>
                  Decision: <Text bold>{decisionText(keyOf(row, entry), entry, pending)}</Text> <Text dimColor>(Enter to choose)</Text>
                </Para>
              ) : null}
              {detail.map((l, i) => (
                <Para key={i} {...(i > 0 ? { dimColor: true } : { bold: true })}>
                  {l}
                </Para>
              ))}
            </Box>
          ) : null}
        </Box>
      )}
      {mode === 'edit' ? (
        <Text wrap="truncate-end">
          Value for {entry?.path} (YAML; Enter to set, Esc to cancel): {typed}
          <Text inverse> </Text>
        </Text>
      ) : null}
      <Box marginTop={roomy ? 1 : 0}>
        <Text wrap="truncate-end">
          <Text bold {...(rulesTone ? { color: rulesTone } : {})}>
            {red.length ? 'RULES FAIL' : 'RULES PASS'}
          </Text>{' '}
          {rules.length - red.length - grey.length - amber.length}/{rules.length - grey.length} customization rules hold{amber.length ? `, ${amber.length} not on this site before the upgrade` : ''}
          {red.length ? `: ${red.map((r) => `hop ${r.hop} ${r.title}`).join('; ')}` : ''}
        </Text>
      </Box>
      {amberRules.length ? (
        <Text wrap="truncate-end" {...(colour('warn') ? { color: colour('warn')! } : {})}>
          {`WARN not on this site before the upgrade (never blocks): ${amberRules.map((r) => r.title).join('; ')}`}
        </Text>
      ) : null}
      {offered.length && focus !== 'fixes' ? (
        <Text wrap="truncate-end">
          {`Fixes offered: ${offered.map((o) => `${o.id} ${fixes[o.id] ? '(chosen)' : '(left out)'}`).join(', ')}`} <Text dimColor>(Tab to the fixes; f chooses one)</Text>
        </Text>
      ) : null}
      {grey.length ? (
        <Text dimColor wrap="truncate-end">
          {`N/A ${grey.length}: ${[...new Map(grey.map((r) => [r.id, `${r.title} (${r.message})`])).values()].join('; ')}`}
        </Text>
      ) : null}
      {step.error ? <ErrorPanel error={step.error} /> : null}
      {hintRows && hintFull ? <Para dimColor>{hintText}</Para> : null}
      {hintRows && !hintFull ? (
        <Text dimColor wrap="truncate-end">
          Tab ↑↓ · d diff · / search · Enter · ? keys
        </Text>
      ) : null}
    </Box>
  );
}
