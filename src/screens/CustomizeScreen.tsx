import { Box, Text } from 'ink';
import { useEffect, useMemo } from 'react';
import type { GateRequest } from '../engine/gate.js';
import { valuesDiff } from '../steps/hop/payload-diff.js';
import type { CustomizeLive, CustomizeOutput, DecisionMap, FixChoices } from '../steps/customize/types.js';
import { flowText } from './customize/break-lines.js';
import { initialConfirm, type ConfirmState } from './customize/confirm-model.js';
import { confirmRows } from './customize/confirm-rows.js';
import { choicesFor, decisionText, entryKey, undecidedConflicts } from './customize/conflict-choices.js';
import { ConflictsConfirm } from './customize/ConflictsConfirm.js';
import { differenceHeading, differenceRows } from './customize/difference-lines.js';
import { DifferenceView } from './customize/DifferenceView.js';
import { entryLines, entrySearchText } from './customize/entry-rows.js';
import { EntryTable } from './customize/EntryTable.js';
import { fixRows } from './customize/fix-rows.js';
import { FixesPanel } from './customize/FixesPanel.js';
import { packRows, rowSearchText, totalsText } from './customize/pack-rows.js';
import { PackList } from './customize/PackList.js';
import { packRowHeight, packRowLines, packTableLayout } from './customize/pack-table.js';
import { listBudget, type ReviewFocus } from './customize/review-layout.js';
import { reviewRules } from './customize/review-rules.js';
import { ReviewList, YamlDiffSection } from './customize/ReviewList.js';
import { ReviewStatus, reviewStatusRows } from './customize/ReviewStatus.js';
import { rowWindow } from './customize/row-window.js';
import { useReviewKeys, type ReviewMode } from './customize/use-review-keys.js';
import { foldImageTags } from './diff-fold.js';
import { ErrorPanel } from './ErrorPanel.js';
import type { Hint } from './Footer.js';
import { initialScroll, searchLine, type ScrollState } from './keys/scroll-model.js';
import { useScroll } from './keys/use-scroll.js';
import type { StepScreenProps } from './step-screen.js';
import { DEFAULT_GATE_GUARD_MS, useGateGuard } from './use-gate-guard.js';
import { useRefState } from './use-ref-state.js';

const HINT_FULL = (fixes: boolean) =>
  `Tab packs/differences${fixes ? '/fixes' : ''} · ↑↓ move · PgUp PgDn a page · / search · Enter on a difference: it whole (a conflict: choose its value)${fixes ? ' · f on a fix: choose it' : ''} · d YAML diff · a apply and review`;
const HINT_SHORT = 'Tab ↑↓ · Enter whole · / search · d diff · ? keys';

/**
 * The customizations review. Per pack (those with conflicts or additions first, marked), its
 * counts whole; per difference its path and values whole (wrapped), Enter opens it on a screen of
 * its own (a conflict: choose its value there); a YAML diff per pack (d); the rules as lines; the
 * fixes offered (Tab, f). c continues (first showing the conflicts nobody decided, which then need
 * y), a applies the decisions and reviews again, s stops.
 */
export function CustomizeScreen({ step, isActive, width, height, gate, decide, guard, onHints }: StepScreenProps) {
  const live = step.live as CustomizeLive | undefined;
  const out = (live?.result ?? step.output) as CustomizeOutput | undefined;
  const rows = useMemo(() => packRows(out), [out]);
  const offered = useMemo(() => fixRows(out), [out]);
  const rules = useMemo(() => reviewRules(out), [out]);
  const [packScroll, setPackScroll, packRef] = useRefState<ScrollState>(initialScroll);
  const [entryScroll, setEntryScroll, entryRef] = useRefState<ScrollState>(initialScroll);
  const [focus, setFocus, focusRef] = useRefState<ReviewFocus>('packs');
  const [mode, setMode, modeRef] = useRefState<ReviewMode>('list');
  const [typed, setTyped, typedRef] = useRefState('');
  const [pending, setPending, pendingRef] = useRefState<DecisionMap>(() => (step.notes.decisions as DecisionMap | undefined) ?? {});
  const [fixes, setFixes, fixesRef] = useRefState<FixChoices>(() => (step.notes.fixes as FixChoices | undefined) ?? {});
  const [fixIndex, setFixIndex, fixIndexRef] = useRefState(0);
  // The conflict chooser's focus: it starts on the first option and never wraps round.
  const [choiceAt, setChoiceAt, choiceAtRef] = useRefState(0);
  const [detailOffset, setDetailOffset, detailRef] = useRefState(0);
  const [confirm, setConfirm, confirmRef] = useRefState<ConfirmState>({ offset: 0, seenEnd: false });
  // Each time the confirmation opens it is a new thing on screen: its own guard time.
  const [confirmToken, setConfirmToken] = useRefState<GateRequest | undefined>(undefined);

  const textWidth = Math.max(20, width);
  const roomy = height >= 30;
  const packIndex = Math.min(packScroll.offset, Math.max(0, rows.length - 1));
  const row = rows[packIndex];
  const entries = row?.entries ?? [];
  const entryIndex = Math.min(entryScroll.offset, Math.max(0, entries.length - 1));
  const entry = entries[entryIndex];
  const decisionOf = (e: NonNullable<typeof entry>, p: DecisionMap = pending) => (row ? decisionText(entryKey(row, e), e, p) : '');

  // The list view, counted row by row.
  const header = out ? flowText(`${step.title}: ${totalsText(rows)}`, 'words', textWidth, { indent: 2 }) : [];
  const packTable = useMemo(() => packTableLayout(rows, textWidth), [rows, textWidth]);
  const packHeights = useMemo(() => rows.map((r) => packRowHeight(packRowLines(r, packTable), packTable)), [rows, packTable]);
  const lines = useMemo(() => entries.map((e) => entryLines(e, textWidth)), [entries, textWidth]);
  const packLineText = row ? `${row.profile} / ${row.pack.name} · ${row.pack.mode === 'threeWay' ? '3-way' : '2-way (old defaults unknown)'} · new defaults from ${row.pack.sources.newDefaults}` : '';
  const packLine = !row ? [] : focus === 'packs' && roomy ? flowText(packLineText, 'words', textWidth, { indent: 2 }) : [packLineText];
  const hintRows = isActive && gate ? (roomy ? flowText(HINT_FULL(offered.length > 0), 'words', textWidth) : [HINT_SHORT]) : [];
  const decisionRows = focus === 'entries' && entry?.label === 'conflict' ? 1 : 0;
  const fixedRows = header.length + (roomy ? 2 : 0) + packLine.length + 2 + decisionRows + reviewStatusRows(rules, offered, focus === 'fixes', roomy) + hintRows.length;
  const packSearch = focus === 'packs' ? searchLine(packScroll) : undefined;
  const budget = listBudget({ height, fixedRows, packHeights, selectedPack: packIndex, entriesNeed: lines.reduce((n, l) => n + l.rows.length, 0), focus, lineUnder: Boolean(packSearch) });
  const packWindow = rowWindow(packHeights, packIndex, budget.packRoom);
  const entryWindow = rowWindow(lines.map((l) => l.rows.length), entryIndex, budget.entryRoom);
  const diff = useMemo(() => (row && focus === 'diff' ? foldImageTags(valuesDiff(row.pack.deployedValues, row.pack.values, 4000).patch) : undefined), [row, focus]);
  const diffScroll = useScroll({ total: diff?.length ?? 0, page: budget.entryRoom, textAt: (i) => diff?.[i]?.text ?? '' });

  // The difference on a screen of its own, counted the same way.
  const heading = row && entry ? [differenceHeading(entry, row, textWidth)] : [];
  const diffRows = useMemo(() => (entry && mode !== 'list' && mode !== 'confirm' ? differenceRows(entry, textWidth) : []), [entry, mode, textWidth]);
  const choices = entry?.label === 'conflict' ? choicesFor(entry) : [];
  const options = mode === 'choose' || mode === 'edit' ? choices.map((c) => flowText(c.label, 'words', textWidth - 4, { indent: 2 })) : undefined;
  const detailFixed = heading.length + (entry?.label === 'conflict' ? 1 : 0) + (options ? 1 + options.reduce((n, o) => n + o.length, 0) : 0) + (mode === 'edit' ? 1 : 0) + 1;
  const detailPage = Math.max(3, height - detailFixed - (diffRows.length > height - detailFixed ? 1 : 0));

  // The conflicts `c` would continue with, when nobody decided them.
  const undecided = useMemo(() => undecidedConflicts(rows, pending), [rows, pending]);
  const confirmHeading = flowText(`${undecided.length} conflict(s) nobody decided`, 'words', textWidth).concat(
    flowText("c keeps the review's proposal for each. To decide one: n, then Enter on it.", 'words', textWidth),
  );
  const confirmList = useMemo(() => (mode === 'confirm' ? confirmRows(undecided, textWidth) : []), [mode, undecided, textWidth]);
  const confirmPage = Math.max(3, height - confirmHeading.length - 4);
  const gateGuard = useGateGuard(mode === 'confirm' && isActive ? confirmToken : undefined, guard?.ms ?? DEFAULT_GATE_GUARD_MS, guard?.now);

  const entryIsConflict = entry?.label === 'conflict';
  useEffect(() => {
    if (!onHints || !isActive) return;
    if (mode === 'confirm') onHints([['y', 'continue with these proposals'], ['n/Esc', 'back to the review'], ['↑↓', 'scroll'], ['?', 'help']]);
    else if (mode === 'choose') onHints([['↑↓', 'move'], ['Enter', 'choose'], ['PgUp PgDn', 'scroll'], ['Esc', 'back'], ['?', 'help']]);
    else if (mode === 'edit') onHints([['Enter', 'set the value'], ['Esc', 'back']]);
    else if (mode === 'detail') onHints([...(entryIsConflict ? ([['Enter', 'choose its value']] as Hint[]) : []), ['↑↓', 'scroll'], ['Esc', 'back'], ['?', 'help']]);
    else onHints(undefined);
  }, [mode, isActive, onHints, entryIsConflict]);
  useEffect(() => () => onHints?.(undefined), [onHints]);
  // A new round of the review (decisions applied) is a new gate: it is shown, never confirmed by what was open before.
  const gateKey = gate?.key;
  useEffect(() => {
    if (modeRef.current === 'confirm') setMode('list');
  }, [gateKey]);

  useReviewKeys({
    isActive,
    gate,
    decide,
    rows,
    offered,
    bounds: { packPage: packWindow.end - packWindow.start, entryPage: entryWindow.end - entryWindow.start, detail: { total: diffRows.length, page: detailPage }, confirm: { total: confirmList.length, page: confirmPage } },
    packText: (i) => (rows[i] ? rowSearchText(rows[i]!) : ''),
    entryText: (r, e) => entrySearchText(e, decisionText(entryKey(r, e), e, pendingRef.current)),
    state: { packRef, setPackScroll, entryRef, setEntryScroll, focusRef, setFocus, modeRef, setMode, typedRef, setTyped, pendingRef, setPending, fixesRef, setFixes, fixIndexRef, setFixIndex, choiceAtRef, setChoiceAt, detailRef, setDetailOffset, confirmRef, setConfirm },
    diffScroll,
    openConfirm: () => {
      setConfirm(initialConfirm({ total: confirmRows(undecidedConflicts(rows, pendingRef.current), textWidth).length, page: confirmPage }));
      setConfirmToken({ gate: 'customize-conflicts', key: `${gate?.key ?? step.id}/conflicts`, title: 'Continue with the undecided conflicts', lines: [], options: [], safeChoice: 'abort' });
    },
    undecidedCount: () => undecidedConflicts(rows, pendingRef.current).length,
    armed: () => Boolean(confirmToken && gateGuard.isArmed(confirmToken)),
  });

  if (!out) {
    return (
      <Box flexDirection="column">
        <Text bold>{step.title}</Text>
        <Text dimColor>{step.skipReason ? `Skipped: ${step.skipReason}` : (live?.headline ?? 'Reading the values…')}</Text>
        {step.error ? <ErrorPanel error={step.error} /> : null}
      </Box>
    );
  }

  if (mode === 'confirm') {
    return <ConflictsConfirm heading={confirmHeading} rows={confirmList} offset={Math.min(confirm.offset, Math.max(0, confirmList.length - confirmPage))} page={confirmPage} note={confirm.note} armed={Boolean(confirmToken && gateGuard.isArmed(confirmToken))} />;
  }

  if (mode !== 'list' && entry && row) {
    const conflict = entry.label === 'conflict';
    const hint = mode === 'edit' ? 'Type a YAML value · Enter set · Esc back' : mode === 'choose' ? '↑↓ move · Enter choose · Esc back' : conflict ? 'Enter choose its value · PgDn · Esc back' : '↑↓ PgUp PgDn scroll · Esc back';
    return (
      <DifferenceView
        heading={heading}
        rows={diffRows}
        offset={Math.min(detailOffset, Math.max(0, diffRows.length - detailPage))}
        page={detailPage}
        decision={conflict ? decisionOf(entry) : undefined}
        chooser={options ? { options, at: Math.min(choiceAt, options.length - 1) } : undefined}
        typed={mode === 'edit' ? typed : undefined}
        isActive={isActive}
        hint={hint}
      />
    );
  }

  const focusLine = focus === 'entries' ? searchLine(entryScroll) : undefined;
  const entriesStatus =
    focusLine ??
    (entries.length === 0
      ? ' '
      : focus === 'entries'
        ? `  difference ${entryIndex + 1} of ${entries.length} · Enter: whole`
        : `  ${entries.length} difference(s) · Tab, then ↑↓ and Enter: each whole`);
  const section =
    focus === 'fixes' ? (
      <FixesPanel offered={offered} chosen={fixes} selected={fixIndex} shown={Math.floor(budget.entryRoom / 3)} roomy={false} isActive={isActive} />
    ) : focus === 'diff' && diff && row ? (
      <YamlDiffSection name={row.pack.name} diff={diff} scroll={diffScroll} rows={budget.entryRoom} />
    ) : (
      <>
        <EntryTable entries={entries} lines={lines} width={textWidth} window={entryWindow} room={budget.entryRoom} selected={entryIndex} focused={focus === 'entries'} isActive={isActive} status={entriesStatus} />
        {decisionRows && entry ? (
          <Text wrap="truncate-end">
            Decision: <Text bold>{decisionOf(entry)}</Text> <Text dimColor>(Enter to choose)</Text>
          </Text>
        ) : null}
      </>
    );
  return (
    <ReviewList
      header={header}
      roomy={roomy}
      packs={<PackList rows={rows} layout={packTable} window={packWindow} selected={packIndex} focused={focus === 'packs'} more={packSearch ?? (budget.packMore ? `  pack ${packIndex + 1} of ${rows.length}${focus === 'packs' ? ' · ↑↓ PgUp PgDn' : ''}` : undefined)} />}
      packLine={packLine}
      section={section}
      status={<ReviewStatus rules={rules} offered={offered} chosen={fixes} fixesOpen={focus === 'fixes'} roomy={roomy} />}
      error={step.error ? <ErrorPanel error={step.error} /> : null}
      hints={hintRows}
    />
  );
}
