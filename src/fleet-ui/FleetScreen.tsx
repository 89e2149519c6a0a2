/**
 * The fleet screen: a header per stage with its state, one row per cluster (stage, step, hop, VMs
 * migrated/restarted/outstanding, health, time), the gates waiting across the fleet with their
 * cluster named, and a line when Palette reads wait for the fleet's shared rate limit.
 *
 * Gates are answered here by a key typed after the gate was drawn, as in the single-cluster TUI:
 * the stage's own gate in a box on this screen (Esc hides it, deciding nothing), a cluster's gate
 * on that cluster's own session screens (Enter on its row, or `a` for the first gate waiting),
 * which are the single-cluster App itself; Esc there returns here. `q` asks Quit?/Stay first.
 */
import { Box, Text, useApp, useInput, useStdout, type Key } from 'ink';
import { useEffect, useRef, useState } from 'react';
import { App } from '../screens/App.js';
import { sanitizeText } from '../text/sanitize.js';
import type { Choice, GateRequest } from '../engine/gate.js';
import { ConfirmGate, gateViewport } from '../screens/ConfirmGate.js';
import { Footer, type Hint } from '../screens/Footer.js';
import { gateKey, initialGateView, type GateView } from '../screens/keys/gate-model.js';
import { keyPress } from '../screens/keys/key-press.js';
import { MIN_SIZE } from '../screens/layout.js';
import { Para } from '../screens/Para.js';
import { TooSmall } from '../screens/TooSmall.js';
import { DEFAULT_GATE_GUARD_MS, useGateGuard } from '../screens/use-gate-guard.js';
import { useRefState } from '../screens/use-ref-state.js';
import { useTerminalSize } from '../screens/use-session-state.js';
import { clusterLive } from './fleet-live.js';
import { fleetLines, headerLine, longestName, queuedGates, rowDetail, stepText, type FleetLine } from './fleet-rows.js';
import { FleetQuit } from './FleetQuit.js';
import { fleetView, moveSelection, type FleetView } from './fleet-view.js';
import type { ClusterLive, FleetScreenController } from './types.js';

/** Re-reads the fleet on every event and each second (the time column). */
function useFleetTick(controller: FleetScreenController, active: boolean): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let pending: NodeJS.Timeout | undefined;
    const unsubscribe = controller.subscribe(() => {
      // Many clusters change at once: one render per frame.
      pending ??= setTimeout(() => {
        pending = undefined;
        setTick((n) => n + 1);
      }, 50);
    });
    const t = active ? setInterval(() => setTick((n) => n + 1), 1000) : undefined;
    return () => {
      unsubscribe();
      if (pending) clearTimeout(pending);
      if (t) clearInterval(t);
    };
  }, [controller, active]);
  return tick;
}

function useGate(queue: FleetScreenController['stageQueue']): GateRequest | undefined {
  const [gate, setGate] = useState(() => queue.current());
  useEffect(() => queue.subscribe(setGate), [queue]);
  return gate;
}

function useEnded(outcome: Promise<number>): number | undefined {
  const [code, setCode] = useState<number | undefined>();
  useEffect(() => {
    let live = true;
    void outcome.then((c) => live && setCode(c), () => live && setCode(1));
    return () => {
      live = false;
    };
  }, [outcome]);
  return code;
}

const stageColour: Record<string, string> = { done: 'green', failed: 'red', stopped: 'yellow', halting: 'yellow', 'waiting approval': 'yellow', running: 'cyan', soaking: 'cyan' };
const rowColour: Record<string, string> = { done: 'green', failed: 'red', GATE: 'yellow', stopped: 'yellow', unwatched: 'magenta', running: 'cyan' };

function Line({ line, selected }: { line: FleetLine; selected: boolean }) {
  if (line.kind === 'stage') {
    const c = stageColour[line.state];
    return (
      <Text bold wrap="truncate-end" inverse={selected} {...(c && !selected ? { color: c } : {})}>
        {line.text}
      </Text>
    );
  }
  const c = rowColour[line.status];
  return (
    <Text wrap="truncate-end" inverse={selected} {...(c && !selected ? { color: c } : {})}>
      {line.text}
    </Text>
  );
}

export function FleetScreen({ controller }: { controller: FleetScreenController }) {
  const { exit } = useApp();
  const { stdout } = useStdout();
  const { columns, rows } = useTerminalSize(stdout);
  const ended = useEnded(controller.outcome);
  useFleetTick(controller, ended === undefined);
  const stageGate = useGate(controller.stageQueue);
  const [open, setOpen, openRef] = useRefState<string | undefined>(undefined);
  // `q` asks first: to halt, or (once halting) to leave the applied clusters unwatched.
  const [quitAsked, setQuitAsked, quitAskedRef] = useRefState<false | 'halt' | 'now'>(false);
  const [quitting, setQuitting] = useState(false);
  // Enter on a row without a session running here: the row whole (Esc or Enter closes it).
  const [expanded, setExpanded, expandedRef] = useRefState<string | undefined>(undefined);
  const [hidden, setHidden, hiddenRef] = useRefState<GateRequest | undefined>(undefined);
  // The first cluster is selected (line 0 is its stage's header).
  const [, setView, viewRef] = useRefState<FleetView>({ selected: 1, offset: 0 });
  const [gateView, setGateView, gateViewRef] = useRefState<{ gate: GateRequest; view: GateView; rows: number } | undefined>(undefined);
  const decided = useRef(new WeakSet<GateRequest>());
  const [message, setMessage] = useState<string | undefined>();

  useEffect(() => {
    if (quitting && ended !== undefined) exit();
  }, [quitting, ended, exit]);

  const state = controller.state();
  const now = Date.now();
  // Each cluster's session read once per frame.
  const lives = new Map<string, ClusterLive | undefined>();
  const live = (name: string): ClusterLive | undefined => {
    if (lives.has(name)) return lives.get(name);
    const c = controller.cluster(name);
    const l = c ? clusterLive(c.source.getState(), c.queue.current()?.title) : undefined;
    lives.set(name, l);
    return l;
  };
  const width = columns - 1;
  const lines = fleetLines(state, live, { width, now, stageWaiting: stageGate ? stageOf(stageGate) : undefined });
  const gates = queuedGates(state, live, stageGate ? { stage: stageOf(stageGate), title: stageGate.title } : undefined);
  const waiting = controller.rateWaiting();
  const counts = state.clusters.reduce<Record<string, number>>((n, c) => ((n[c.status] = (n[c.status] ?? 0) + 1), n), {});
  const events = controller.events();

  // Rows: title, notice, gates, column header; the last event and the key line below; one spare.
  // The ended notice names the report's file: it wraps (two rows) rather than cutting the path.
  const noticeRows = ended !== undefined ? 2 : 1;
  const gateRowsShown = Math.min(gates.length, rows >= 30 ? 3 : 1);
  // Under the table, two rows: where the window is, and what stopped the selected cluster, whole.
  const tableHeight = Math.max(3, rows - 2 - noticeRows - (gates.length ? gateRowsShown + 1 : 0) - 1 - 2 - 1);
  const v = fleetView(lines, viewRef.current, tableHeight);
  const selectedLine = lines[v.selected];
  const selectedCluster = selectedLine?.kind === 'cluster' ? state.clusters.find((c) => c.name === selectedLine.cluster) : undefined;
  const whole = selectedCluster && ['failed', 'stopped', 'gate', 'unwatched'].includes(selectedCluster.status) ? stepText(selectedCluster, live(selectedCluster.name)) : '';
  const detail = whole ? `${selectedCluster!.name}: ${sanitizeText(whole, { max: 600 })}` : undefined;
  const stopping = controller.stopping();
  const applied = state.clusters.filter((c) => c.status === 'running' && live(c.name)?.applied).map((c) => c.name);
  const rolling = state.clusters.filter((c) => c.status === 'running' && live(c.name)?.rolling).map((c) => c.name);

  // The stage gate is drawn when it is on screen: not hidden by Esc, no cluster open, no question over it.
  const small = columns < MIN_SIZE.columns || rows < MIN_SIZE.rows;
  const drawnGate = stageGate && hidden !== stageGate && !open && !quitAsked && !expanded && !small ? stageGate : undefined;
  const guard = useGateGuard(drawnGate, controller.gateGuardMs ?? DEFAULT_GATE_GUARD_MS, controller.guardClock);
  const gateHeight = rows - 4;
  const viewport = drawnGate ? gateViewport(drawnGate, width, gateHeight, false) : 0;

  const openCluster = (name: string | null | undefined) => {
    if (name === null) return setHidden(undefined); // the stage gate: show it again
    if (!name) return;
    if (!controller.cluster(name)) {
      setMessage(undefined);
      return setExpanded(name);
    }
    setMessage(undefined);
    setOpen(name);
  };

  const answerStage = (g: GateRequest, choice: Choice, pressed: string) => {
    if (decided.current.has(g) || !guard.isArmed(g)) return;
    decided.current.add(g);
    controller.stageQueue.answer(g.key, choice, undefined, pressed);
  };

  const stageKey = (g: GateRequest, input: string, key: Key) => {
    const k = keyPress(input, key);
    const typing = gateViewRef.current?.gate === g && (gateViewRef.current.view.typing || gateViewRef.current.view.secret);
    // Esc hides the gate and decides nothing: it stays queued (the header says so), `a` brings it back.
    if (k.name === 'escape' && !typing) return setHidden(g);
    if (!guard.isArmed(g) || decided.current.has(g)) return;
    const before = gateViewRef.current?.gate === g ? gateViewRef.current : { gate: g, view: initialGateView(g), rows: 0 };
    const step = gateKey(before.view, k, { request: g, rehearsal: false, bounds: { total: before.rows, page: viewport } });
    setGateView({ ...before, view: step.view });
    if (!step.effect) return;
    if (step.effect.kind === 'ask-quit') return askQuit();
    answerStage(g, step.effect.choice, step.effect.pressed);
  };

  function askQuit() {
    const asked = controller.stopping();
    if (asked?.mode === 'now') return;
    setQuitAsked(asked?.mode === 'halt' ? 'now' : 'halt');
  }

  // Ctrl+C stops the fleet now wherever the operator is (a cluster's own screens too); a second exits at once.
  useInput((input, key) => {
    if (!(key.ctrl && input === 'c')) return;
    setQuitting(true);
    controller.interrupt();
  });

  useInput(
    (input, key) => {
      if (key.ctrl && input === 'c') return;
      if (small) return;
      const k = keyPress(input, key);
      if (quitAskedRef.current) {
        if (k.text === 'y') {
          setQuitAsked(false);
          setQuitting(true);
          controller.halt();
        } else if (k.text === 'n' || k.name === 'escape') setQuitAsked(false);
        return;
      }
      if (expandedRef.current) {
        if (k.name === 'escape' || k.name === 'enter' || k.text === 'q') setExpanded(undefined);
        return;
      }
      if (ended !== undefined && (k.text === 'q' || k.name === 'escape')) return exit();
      const g = controller.stageQueue.current();
      if (g && hiddenRef.current !== g && !openRef.current) return stageKey(g, input, key);
      if (k.text === 'q') return askQuit();
      if (k.text === 'a') return openCluster(gates[0]?.cluster);
      if (k.name === 'enter') {
        const line = lines[viewRef.current.selected];
        if (line?.kind === 'cluster') return openCluster(line.cluster);
        if (line?.kind === 'stage' && stageGate && line.stage === stageOf(stageGate)) return openCluster(null);
        return;
      }
      const moved = moveSelection(lines, viewRef.current, k, tableHeight);
      if (moved) setView(moved);
    },
    { isActive: !open },
  );

  if (open) {
    const c = controller.cluster(open);
    if (c) return <App key={open} controller={{ ...c, embedded: { leave: () => setOpen(undefined), fleet: state.fleet } }} />;
  }
  if (small) return <TooSmall columns={columns} rows={rows} need={MIN_SIZE} />;

  const title = `fleet ${state.fleet} → ${state.target} · ${state.clusters.length} clusters: ${Object.entries(counts).map(([s, n]) => `${n} ${s}`).join(', ')}`;
  const notice = waiting > 0 ? `⏳ ${waiting} Palette request(s) waiting for the fleet's shared rate limit` : ended !== undefined ? `the fleet ended (exit ${ended}); report: ${controller.reportPath?.() ?? 'upgrade-pilot fleet report --fleet FILE'}` : (events.at(-1) ?? ' ');
  const hints: Hint[] = quitAsked
    ? [['y', quitAsked === 'halt' ? 'halt' : 'leave now'], ['n/Esc', 'stay']]
    : expanded
      ? [['Esc/Enter', 'back to the fleet']]
    : drawnGate
      ? [[drawnGate.options.map((o) => o.key).join(' '), 'choose'], ['←→', 'move'], ['Enter', 'focused'], ['Esc', 'back to the fleet']]
      : ended !== undefined
        ? [['q', 'exit'], ['↑↓', 'select'], ['Enter', 'open']]
        : [['↑↓', 'select'], ['Enter', 'open cluster'], ...(gates.length ? ([['a', 'next gate']] as Hint[]) : []), ['PgDn PgUp g G', 'scroll'], ['q', 'quit']];

  return (
    <Box flexDirection="column" width={columns}>
      <Text bold wrap="truncate-end">
        {title}
      </Text>
      <Box height={noticeRows} overflow="hidden">
        <Text wrap={ended !== undefined && waiting === 0 ? 'wrap' : 'truncate-end'} {...(waiting > 0 ? { color: 'yellow' } : { dimColor: true })}>
          {notice}
        </Text>
      </Box>
      {quitAsked ? (
        <FleetQuit mode={quitAsked} applied={quitAsked === 'halt' ? applied : rolling} running={state.clusters.filter((c) => c.status === 'running').length} resumeCommand={controller.resumeCommand} gate={gates[0] ? `${gates[0].cluster ?? `stage ${stageOf(stageGate!)}`}: ${gates[0].title}` : undefined} />
      ) : expanded ? (
        <Box flexDirection="column" borderStyle="round" paddingX={1}>
          {rowDetail(state, expanded, live(expanded), controller.resumeCommand, now).map((l, i) => (
            <Para key={i}>{l}</Para>
          ))}
        </Box>
      ) : drawnGate ? (
        <ConfirmGate
          key={drawnGate.key}
          request={drawnGate}
          view={gateView?.gate === drawnGate ? gateView.view : initialGateView(drawnGate)}
          rehearsal={false}
          width={width}
          height={gateHeight}
          armed={guard.isArmed(drawnGate)}
          contentRows={gateView?.gate === drawnGate ? gateView.rows : 0}
          onMeasure={(n) => setGateView({ ...(gateViewRef.current?.gate === drawnGate ? gateViewRef.current : { gate: drawnGate, view: initialGateView(drawnGate), rows: 0 }), rows: n })}
        />
      ) : (
        <>
          {gates.length ? (
            <Box flexDirection="column">
              <Text color="yellow" bold wrap="truncate-end">{`Gates waiting (${gates.length})${gates.length > gateRowsShown ? `, ${gateRowsShown} listed, all GATE below` : ''}: a or Enter on the row opens it`}</Text>
              {gates.slice(0, gateRowsShown).map((g, i) => (
                <Text key={i} color="yellow" wrap="truncate-end">{`  ${g.cluster ?? `stage ${stageOf(stageGate!)}`}: ${g.title}`}</Text>
              ))}
            </Box>
          ) : null}
          <Text dimColor wrap="truncate-end">
            {headerLine(width, longestName(state))}
          </Text>
          <Box flexDirection="column" height={tableHeight}>
            {lines.slice(v.offset, v.offset + tableHeight).map((line, i) => (
              <Line key={`${line.kind}:${line.kind === 'stage' ? line.stage : line.cluster}`} line={line} selected={v.offset + i === v.selected} />
            ))}
          </Box>
          <Box height={2} overflow="hidden" flexDirection="column">
            <Text wrap="wrap">
              <Text dimColor>{lines.length > tableHeight ? `rows ${v.offset + 1}-${Math.min(lines.length, v.offset + tableHeight)} of ${lines.length}  ` : ''}</Text>
              {detail ? <Text color="red">{detail}</Text> : null}
            </Text>
          </Box>
        </>
      )}
      <Footer columns={columns} hints={hints} message={quitting || stopping ? stoppingText(stopping?.mode, applied) : message} />
    </Box>
  );
}

function stoppingText(mode: 'halt' | 'now' | undefined, applied: readonly string[]): string {
  if (mode === 'halt') return `halting${applied.length ? `: watching ${applied.join(', ')}` : ''}; q: leave now`;
  return 'stopping now: every session stops at its next safe point and is saved…';
}

/** The stage a stage gate is for (its key is `stage/NAME`). */
export const stageOf = (g: GateRequest): string => g.key.replace(/^stage\//, '');
