/**
 * The Ink root: header, step list, the selected step's screen (inside its gate's box when one is
 * open), the recent command log, and key hints. It renders state and sends decisions; no I/O.
 *
 * It owns the only key handler and gives each key press to exactly one consumer (see
 * screens/keys/key-router.tsx): an overlay, the open gate, or the shown screen. A gate takes no key
 * until it has been on screen for the guard time, and a key decides at most one gate.
 */
import { Box, useApp, useInput, useStdout, type Key } from 'ink';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Choice, GateRequest } from '../engine/gate.js';
import type { VariableValues } from '../palette/variable-values.js';
import type { RunOutcome } from '../engine/runner.js';
import { currentStep, steps, type StepState } from '../engine/state.js';
import { StoppedError, toErrorInfo } from '../errors.js';
import type { ConfirmQueue } from './confirm-queue.js';
import { CommandLog } from './CommandLog.js';
import { ConfirmGate, gateViewport } from './ConfirmGate.js';
import { Footer, type Hint } from './Footer.js';
import { GateContext } from './GateContext.js';
import { GateWaits } from './GateWaits.js';
import { Guide } from './Guide.js';
import { Header } from './Header.js';
import { HelpOverlay } from './HelpOverlay.js';
import { gateKey, initialGateView, NOT_ARMED_YET, type GateView } from './keys/gate-model.js';
import { keyPress } from './keys/key-press.js';
import { KeyRouter, ScreenKeys } from './keys/key-router.js';
import { initialScroll, maxOffset, scrollKey, type ScrollState } from './keys/scroll-model.js';
import { appLayout, gatePinnedRows, gateTextRows, MIN_GATE_CONTENT, tooSmall } from './layout.js';
import { OutcomePanel } from './OutcomePanel.js';
import { OutcomeTimeline } from './OutcomeTimeline.js';
import { QuitConfirm } from './QuitConfirm.js';
import { bannerRows, ResumeBanner, type ResumeSummary } from './ResumeBanner.js';
import { screenFor } from './registry.js';
import { ScrollView } from './ScrollView.js';
import { StepList } from './StepList.js';
import { restartedVms } from './theme.js';
import { TooSmall } from './TooSmall.js';
import { DEFAULT_GATE_GUARD_MS, useGateGuard } from './use-gate-guard.js';
import { useRefState } from './use-ref-state.js';
import { useSessionState, useTerminalSize, type StateSource } from './use-session-state.js';

export interface AppController {
  source: StateSource;
  queue: ConfirmQueue;
  rehearsal: boolean;
  /** Shown first (the lab's guide); Enter closes it. */
  guide?: string[];
  /** The run; the app shows its end and exits on a key. */
  outcome: Promise<RunOutcome>;
  /**
   * Stops the run at once; the session is saved. `reason`: the operator's own stop (a confirmed
   * `q`: exit 3); without it, Ctrl+C (an interruption: exit 130).
   */
  stop(reason?: StoppedError): void;
  /** Where the report was written, once the run ended. */
  reportPath?: () => string | undefined;
  /** The lab runs in this process (`npm start`): the session cannot be resumed after quitting. */
  inProcessLab?: boolean;
  /** How long a gate is on screen before a key counts (runbook `settings.gateGuard`; tests pass 0). */
  gateGuardMs?: number;
  /** The clock the gate guard reads (tests move one by hand: "inside the guard time" must not depend on the machine's speed). */
  guardClock?: () => number;
  /** The command that continues this session, as it works when pasted (with --state-dir when needed). */
  resumeCommand?: string;
  /** The session's clock is the lab's simulated one. */
  labTime?: boolean;
  /** On resume: how the session stopped and what happened since (shown above the screen until a key). */
  resumed?: () => ResumeSummary | undefined;
  /** Where values typed hidden at a gate go (profile variables): the run's memory, never the journal. */
  variables?: Pick<VariableValues, 'set'>;
  /**
   * Shown inside the fleet screen (fleet-ui/): Esc and q go back to the fleet (Esc decides no
   * gate there), Ctrl+C and the end are the fleet's, not this session's.
   */
  embedded?: { leave(): void; fleet: string };
}

type Overlay = 'help' | 'quit' | 'guide';

/** `q`, then Quit, while a step runs: the step stops at once (as on Ctrl+C), but the stop is the operator's choice. */
function operatorQuit(): StoppedError {
  return new StoppedError('Stopped by the operator (q, then Quit) while a step ran; the session is saved.', { next: 'Resume the session to continue where it stopped: the step runs again, and what it had sent is settled by reading first.' }, 'stopped.quit');
}

/** The keys that page through the ended run's pane when it is longer than the screen (↑↓ stay the shown screen's). */
const pageKeys = new Set(['pageUp', 'pageDown', 'home', 'end', 'g', 'G']);

function useGate(queue: ConfirmQueue): GateRequest | undefined {
  const [gate, setGate] = useState(() => queue.current());
  useEffect(() => queue.subscribe(setGate), [queue]);
  return gate;
}

/**
 * A tick each second while the run goes on, so running steps' times move when nothing else is
 * drawn; every other redraw (a poll of the migration watch) reads the clock itself, so a step's time
 * never lags the screen it is on.
 */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [active]);
  return now;
}

function useOutcome(promise: Promise<RunOutcome>): RunOutcome | undefined {
  const [outcome, setOutcome] = useState<RunOutcome | undefined>();
  useEffect(() => {
    let live = true;
    promise.then(
      (o) => live && setOutcome(o),
      (err: unknown) => live && setOutcome({ status: 'failed', error: toErrorInfo(err) }),
    );
    return () => {
      live = false;
    };
  }, [promise]);
  return outcome;
}

const gateStepOf = (all: StepState[], gate: GateRequest | undefined) => (gate ? all.find((s) => s.status === 'awaitingApproval' && s.gate?.key === gate.key) : undefined);

export function App({ controller }: { controller: AppController }) {
  const { exit } = useApp();
  const { stdout } = useStdout();
  const { columns, rows } = useTerminalSize(stdout);
  const state = useSessionState(controller.source);
  const gate = useGate(controller.queue);
  const outcome = useOutcome(controller.outcome);
  const [selected, setSelected, selectedRef] = useRefState<string | undefined>(undefined);
  const [overlay, setOverlay, overlayRef] = useRefState<Overlay | undefined>(controller.guide ? 'guide' : undefined);
  const [overlayScroll, setOverlayScroll, overlayScrollRef] = useRefState<ScrollState>(initialScroll);
  const [overlayRows, setOverlayRows] = useState(0);
  // Once the run has ended: the pane (how it ended, the step's error, what to do) scrolls when it is longer than the screen.
  const [endScroll, setEndScroll, endScrollRef] = useRefState<ScrollState>(initialScroll);
  const [endRows, setEndRows] = useState(0);
  const [quitting, setQuitting] = useState(false);
  const [bannerOpen, setBannerOpen] = useState(true);
  // A screen's own keys while it shows a view of its own over its inline gate (the review's conflicts confirmation).
  const [screenHints, setScreenHints] = useState<Hint[] | undefined>(undefined);
  const [gateState, setGateState, gateStateRef] = useRefState<{ gate: GateRequest; view: GateView; rows: number } | undefined>(undefined);
  const decided = useRef(new WeakSet<GateRequest>());
  const screenKeys = useMemo(() => new ScreenKeys(), []);
  const now = useNow(!outcome);
  const guardMs = controller.gateGuardMs ?? DEFAULT_GATE_GUARD_MS;
  const resumeCommand = controller.resumeCommand ?? `upgrade-pilot resume ${state.meta.id}`;
  const inProcessLab = Boolean(controller.inProcessLab);

  // Quitting stops the run first (so the journal is closed cleanly), then leaves.
  useEffect(() => {
    if (quitting && outcome) exit();
  }, [quitting, outcome, exit]);

  const all = steps(state);
  const current = currentStep(state);
  const restarted = useMemo(() => restartedVms(state.mutations), [state.mutations]);
  const shown = (selected ? all.find((s) => s.id === selected) : undefined) ?? current ?? all[all.length - 1];
  // An inline gate belongs to the step's own screen (which shows it and answers it).
  const inline = gate?.inline ? gate : undefined;
  const boxed = gate && !gate.inline && !outcome ? gate : undefined;
  const gateStep = gateStepOf(all, gate);
  const following = !selected || selected === gateStep?.id;
  // A gate in its box takes the terminal's whole width: the step list makes way (one line says where the gate is).
  const layout = appLayout(columns, rows, Boolean(boxed) && following && !overlay);
  const small = tooSmall(columns, rows, boxed && following && !overlay ? boxed : undefined, controller.rehearsal);
  // A gate is drawn when it is on screen: followed, not under an overlay, the terminal big enough.
  const drawnGate = !small && !overlay && following ? (boxed ?? (inline && shown?.id === gateStep?.id ? inline : undefined)) : undefined;
  const guard = useGateGuard(drawnGate, guardMs, controller.guardClock);
  const armedNow = drawnGate ? guard.isArmed(drawnGate) : false;

  const gateView = boxed && gateState?.gate === boxed ? gateState : boxed ? { gate: boxed, view: initialGateView(boxed), rows: 0 } : undefined;
  const paneInner = layout.paneWidth - 2;
  // The resume banner sits above the screen until the first key, if the gate's options still fit under it.
  const summary = bannerOpen && !overlay && !small ? controller.resumed?.() : undefined;
  const banner = summary ? bannerRows(summary, paneInner - 4) : [];
  const gateFloor = boxed && following ? gatePinnedRows(boxed, paneInner - 4, controller.rehearsal) + MIN_GATE_CONTENT + layout.contextRows : 0;
  const bannerHeight = banner.length && layout.paneHeight - (banner.length + 2) >= Math.max(gateFloor, 3) ? banner.length + 2 : 0;
  const gateHeight = layout.paneHeight - bannerHeight - layout.contextRows;
  const viewport = boxed ? gateViewport(boxed, paneInner, gateHeight, controller.rehearsal) : 0;

  const endPage = layout.paneHeight - bannerHeight;
  const endOffset = Math.min(endScroll.offset, maxOffset({ total: endRows, page: endPage }));
  const endLonger = Boolean(outcome) && endRows > endPage;

  /**
   * Stops the run wherever it is; the session is saved. Ctrl+C (`how` unset) is an interruption
   * (exit 130); a confirmed `q` away from any gate (`quit`) is a stop the operator chose (exit 3).
   */
  const quit = (how?: 'quit') => {
    setQuitting(true);
    controller.stop(how === 'quit' ? operatorQuit() : undefined);
  };
  /**
   * A confirmed `q`: at a gate (boxed or inline) the gate is left unanswered and the run stops there
   * (exit 3, stopped at a gate; a resume asks it again); anywhere else the run is stopped.
   */
  const quitConfirmed = () => {
    const open = controller.queue.current();
    if (!open) return quit('quit');
    decided.current.add(open);
    setQuitting(true);
    controller.queue.leave(open.key);
  };

  /** Answers the open gate once, with the key that decided; nothing inside its guard time. */
  const answer = (g: GateRequest, choice: Choice, data: unknown, pressed: string): boolean => {
    if (decided.current.has(g) || !guard.isArmed(g)) return false;
    decided.current.add(g);
    controller.queue.answer(g.key, choice, data, pressed);
    return true;
  };
  const decideInline = (choice: Choice, data?: unknown, pressed?: string) => {
    if (inline && drawnGate === inline) answer(inline, choice, data, pressed ?? 'key');
  };

  const browse = (dir: '[' | ']') => {
    const visible = all.filter((s) => s.status !== 'pending');
    const at = visible.findIndex((s) => s.id === shown?.id);
    const next = visible[Math.min(visible.length - 1, Math.max(0, at + (dir === '[' ? -1 : 1)))];
    if (next) setSelected(next.id === current?.id ? undefined : next.id);
  };

  const overlayKey = (input: string, key: Key) => {
    const k = keyPress(input, key);
    const open = overlayRef.current;
    if (open === 'quit') {
      if (k.text === 'y' || k.text === 'q') quitConfirmed();
      else if (k.text === 'n' || k.name === 'escape') setOverlay(undefined);
      return;
    }
    // ? on the guide opens the help (help everywhere); on the help it closes it.
    if (k.text === '?' && open === 'guide') {
      setOverlay('help');
      setOverlayScroll(initialScroll);
      return;
    }
    if (k.name === 'escape' || k.name === 'enter' || k.text === '?' || k.text === 'q') {
      setOverlay(undefined);
      setOverlayScroll(initialScroll);
      return;
    }
    const scrolled = scrollKey(overlayScrollRef.current, k, { total: overlayRows, page: layout.paneHeight });
    if (scrolled.handled) setOverlayScroll(scrolled.state);
  };

  const boxedKey = (g: GateRequest, input: string, key: Key) => {
    const k = keyPress(input, key);
    if (!guard.isArmed(g) || decided.current.has(g)) return;
    const before = gateStateRef.current?.gate === g ? gateStateRef.current : { gate: g, view: initialGateView(g), rows: 0 };
    const step = gateKey(before.view, k, { request: g, rehearsal: controller.rehearsal, bounds: { total: before.rows, page: viewport } });
    setGateState({ ...before, view: step.view });
    const effect = step.effect;
    if (!effect) return;
    // `q` decides nothing: the question opens over the gate, which waits as it was.
    if (effect.kind === 'ask-quit') return setOverlay('quit');
    if (effect.secrets && guard.isArmed(g) && !decided.current.has(g)) for (const [name, value] of Object.entries(effect.secrets)) controller.variables?.set(name, value);
    answer(g, effect.choice, undefined, effect.pressed);
  };

  const embedded = controller.embedded;
  useInput((input, key) => {
    // In the fleet, Ctrl+C stops the fleet (its own handler), which stops this session with it.
    if (key.ctrl && input === 'c') return embedded ? undefined : quit();
    if (small) return; // nothing takes a key (a gate's options are not on screen)
    if (overlayRef.current) return overlayKey(input, key);
    setBannerOpen(false);
    if (screenKeys.capturing()) return screenKeys.deliver(input, key);
    // A gate taking typed text (a name to confirm, a hidden value) gets every key: `?` or `[` may be part of it.
    const typingAt = gateStateRef.current;
    if (boxed && typingAt?.gate === boxed && (typingAt.view.typing || typingAt.view.secret) && (!selectedRef.current || selectedRef.current === gateStep?.id)) return boxedKey(boxed, input, key);
    const k = keyPress(input, key);
    // Back to the fleet: the gate (if one waits) stays queued there, unanswered.
    if (embedded && (k.name === 'escape' || k.text === 'q')) return embedded.leave();
    if (k.text === '?') return setOverlay('help');
    if (k.text === '[' || k.text === ']') return browse(k.text);
    if (k.text === 'f' && selectedRef.current) return setSelected(undefined);
    if (outcome) {
      if (k.text === 'q' || k.name === 'escape') return exit();
      if (endRows > endPage && pageKeys.has(k.name === 'char' ? (k.text ?? '') : k.name)) {
        const scrolled = scrollKey(endScrollRef.current, k, { total: endRows, page: endPage });
        if (scrolled.handled) return setEndScroll(scrolled.state);
      }
      return screenKeys.deliver(input, key);
    }
    const followingNow = !selectedRef.current || selectedRef.current === gateStep?.id;
    if (boxed && followingNow) return boxedKey(boxed, input, key);
    // An inline gate is a review (it approves nothing): q only asks, and quitting leaves it unanswered.
    if (k.text === 'q') return setOverlay('quit');
    screenKeys.deliver(input, key);
  });

  const Screen = shown ? screenFor(shown.kind) : undefined;
  const screenActive = !overlay && (!boxed || !following) && !small;
  const hints: Hint[] = overlay === 'guide'
    ? [['Enter', 'close the guide'], ['↑↓', 'scroll']]
    : overlay === 'help'
      ? [['?/Esc', 'close'], ['↑↓', 'scroll']]
      : overlay === 'quit'
        ? [['y', 'quit'], ['n/Esc', 'stay']]
        : outcome
    ? [['q', 'exit'], ...(endLonger ? ([['PgDn PgUp g G', `scroll (rows ${endOffset + 1}-${Math.min(endRows, endOffset + endPage)} of ${endRows})`]] as Hint[]) : []), ['[ ]', 'steps'], ['?', 'help']]
    : boxed && following && (gateView?.view.typing || gateView?.view.secret)
      ? [['Enter', 'take it'], ['Esc', 'back to the options']]
      : boxed && following
      ? [[boxed.options.map((o) => o.key).join(' '), 'choose'], ['←→', 'move'], ['Enter', 'focused'], ['Esc', 'safe'], ['↑↓', 'scroll'], ['?', 'help']]
      : inline
        ? (screenHints ?? [...inline.options.map((o): Hint => [o.key, o.label.toLowerCase()]), ['?', 'help']])
        : [['?', 'help'], ['q', 'quit'], ['[ ]', 'steps'], ...(selected ? ([['f', 'follow']] as Hint[]) : [])];
  // In the fleet, Esc and q lead back to it, wherever the operator is.
  const shownHints: Hint[] = embedded && !overlay ? [['Esc', `back to fleet ${embedded.fleet}`], ...hints.filter(([k]) => k !== 'Esc' && k !== 'q')] : hints;

  if (small) return <TooSmall columns={columns} rows={rows} need={small} />;

  const screenProps = (s: StepState, active: boolean, height: number, inGate: boolean) => ({
    step: s,
    state,
    isActive: active,
    rehearsal: controller.rehearsal,
    width: paneInner - (inGate ? 4 : 0),
    height,
    gate: inline && s.status === 'awaitingApproval' && s.id === gateStep?.id ? inline : undefined,
    decide: decideInline,
    inGate,
    labTime: Boolean(controller.labTime),
    guard: { ms: guardMs, now: controller.guardClock },
    onHints: setScreenHints,
  });

  return (
    <KeyRouter keys={screenKeys}>
      <Box flexDirection="column" width={columns}>
        <Header meta={state.meta} columns={columns} />
        <Box height={layout.paneHeight}>
          {layout.listWidth ? (
            <Box width={layout.listWidth} flexDirection="column" paddingX={1} borderStyle="single" borderTop={false} borderBottom={false} borderLeft={false} flexShrink={0}>
              <StepList entries={state.entries} selectedId={shown?.id} width={layout.listWidth - 3} height={layout.paneHeight} now={Math.max(now, Date.now())} runStatus={state.run.status} restarted={restarted} />
            </Box>
          ) : null}
          <Box flexDirection="column" paddingX={1} width={layout.paneWidth} height={layout.paneHeight} overflow="hidden">
            {overlay === 'quit' ? (
              <Box flexShrink={0}>
                <QuitConfirm resumeCommand={resumeCommand} inProcessLab={inProcessLab} gate={gate?.title} />
              </Box>
            ) : overlay ? (
              <ScrollView height={layout.paneHeight} offset={Math.min(overlayScroll.offset, maxOffset({ total: overlayRows, page: layout.paneHeight }))} onMeasure={setOverlayRows}>
                {overlay === 'guide' && controller.guide ? <Guide lines={controller.guide} state={state} gate={gate} /> : <HelpOverlay resumeCommand={resumeCommand} inProcessLab={inProcessLab} />}
              </ScrollView>
            ) : (
              <>
                {bannerHeight ? <ResumeBanner rows={banner} /> : null}
                {outcome ? (
                  <ScrollView height={endPage} offset={endOffset} onMeasure={setEndRows}>
                    <OutcomePanel outcome={outcome} resumeCommand={resumeCommand} reportPath={controller.reportPath?.()} stepShowsError={Boolean(shown?.error)} inProcessLab={inProcessLab} />
                    <OutcomeTimeline state={state} width={paneInner} />
                    {Screen && shown ? <Screen {...screenProps(shown, screenActive, endPage, false)} /> : null}
                  </ScrollView>
                ) : (
                  <>
                {boxed && !following ? <GateWaits gate={boxed} /> : null}
                {boxed && following && gateView && layout.contextRows ? <GateContext all={all} step={gateStep} width={paneInner} /> : null}
                {boxed && following && gateView ? (
                  <ConfirmGate
                    key={boxed.key}
                    request={boxed}
                    view={gateView.view}
                    rehearsal={controller.rehearsal}
                    width={paneInner}
                    height={gateHeight}
                    armed={armedNow}
                    contentRows={gateView.rows}
                    onMeasure={(n) => setGateState({ ...(gateStateRef.current?.gate === boxed ? gateStateRef.current : gateView), rows: n })}
                  >
                    {Screen && gateStep ? <Screen {...screenProps(gateStep, false, Math.max(3, viewport - 1 - gateTextRows(boxed, paneInner - 4, controller.rehearsal)), true)} /> : null}
                  </ConfirmGate>
                ) : Screen && shown ? (
                  <Box flexShrink={0} flexDirection="column">
                    <Screen {...screenProps(shown, screenActive, layout.paneHeight - bannerHeight - (boxed ? 1 : 0), false)} />
                  </Box>
                ) : null}
                  </>
                )}
              </>
            )}
          </Box>
        </Box>
        <CommandLog lines={state.log.filter((l) => l.level !== 'info')} rows={layout.logRows} />
        <Footer columns={columns} hints={shownHints} message={quitting ? 'stopping; the session is saved…' : selected ? `viewing ${shown?.title ?? selected}` : drawnGate && !armedNow ? NOT_ARMED_YET : undefined} />
      </Box>
    </KeyRouter>
  );
}
