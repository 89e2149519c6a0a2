/**
 * The Ink root: header, step list, the selected step's screen (with its gate on top when one is
 * open), the recent command log, and key hints. It renders state and sends decisions; no I/O.
 */
import { Box, Text, useApp, useInput, useStdout } from 'ink';
import { useEffect, useMemo, useState } from 'react';
import type { Choice, GateRequest } from './engine/gate.js';
import type { RunOutcome } from './engine/runner.js';
import { currentStep, steps, type LogLine } from './engine/state.js';
import { toErrorInfo, type ErrorInfo } from './errors.js';
import type { ConfirmQueue } from './run/confirm-queue.js';
import { ConfirmGate } from './screens/ConfirmGate.js';
import { ErrorPanel } from './screens/ErrorPanel.js';
import { Footer, type Hint } from './screens/Footer.js';
import { Header } from './screens/Header.js';
import { HelpOverlay } from './screens/HelpOverlay.js';
import { QuitConfirm } from './screens/QuitConfirm.js';
import { ResumeHint } from './screens/ResumeHint.js';
import { screenFor } from './screens/registry.js';
import { StepList } from './screens/StepList.js';
import { colour } from './screens/theme.js';
import { useSessionState, useTerminalSize, type StateSource } from './screens/use-session-state.js';

export interface AppController {
  source: StateSource;
  queue: ConfirmQueue;
  rehearsal: boolean;
  /** Shown first (the lab's guide); Enter closes it. */
  guide?: string[];
  /** The run; the app shows its end and exits on a key. */
  outcome: Promise<RunOutcome>;
  /** Stops the run (quit, Ctrl+C); the session is saved. */
  stop(): void;
  /** Where the report was written, once the run ended. */
  reportPath?: () => string | undefined;
  /** The lab runs in this process (`npm start`): the session cannot be resumed after quitting. */
  inProcessLab?: boolean;
}

function useGate(queue: ConfirmQueue): GateRequest | undefined {
  const [gate, setGate] = useState(() => queue.current());
  useEffect(() => queue.subscribe(setGate), [queue]);
  return gate;
}

function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [active]);
  return now;
}

const LIST_WIDTH = 36;

export function App({ controller }: { controller: AppController }) {
  const { exit } = useApp();
  const { stdout } = useStdout();
  const { columns, rows } = useTerminalSize(stdout);
  const state = useSessionState(controller.source);
  const gate = useGate(controller.queue);
  const [outcome, setOutcome] = useState<RunOutcome | undefined>();
  const [selected, setSelected] = useState<string | undefined>();
  const [overlay, setOverlay] = useState<'help' | 'quit' | 'guide' | undefined>(controller.guide ? 'guide' : undefined);
  const [quitting, setQuitting] = useState(false);
  const now = useNow(!outcome);

  useEffect(() => {
    let live = true;
    controller.outcome.then(
      (o) => live && setOutcome(o),
      (err: unknown) => live && setOutcome({ status: 'failed', error: toErrorInfo(err) }),
    );
    return () => {
      live = false;
    };
  }, [controller.outcome]);

  // Quitting stops the run first (so the journal is closed cleanly), then leaves.
  useEffect(() => {
    if (quitting && outcome) exit();
  }, [quitting, outcome, exit]);

  const all = steps(state);
  const current = currentStep(state);
  const shown = (selected ? all.find((s) => s.id === selected) : undefined) ?? current ?? all[all.length - 1];

  const quit = () => {
    setQuitting(true);
    controller.stop();
  };

  useInput((input, key) => {
    if (key.ctrl && input === 'c') return quit();
    if (overlay === 'quit') return; // QuitConfirm takes the keys
    if (overlay === 'help' || overlay === 'guide') {
      if (key.escape || key.return || input === '?' || input === 'g') setOverlay(undefined);
      return;
    }
    if (outcome) {
      if (input === 'q' || key.return || key.escape) exit();
      else if (input === '[' || input === ']') browse(input);
      return;
    }
    if (input === '?') setOverlay('help');
    else if (input === 'q' && !boxed) setOverlay('quit');
    else if (input === '[' || input === ']') browse(input);
    else if (input === 'f') setSelected(undefined);
  });

  const browse = (dir: '[' | ']') => {
    const visible = all.filter((s) => s.status !== 'pending');
    const at = visible.findIndex((s) => s.id === shown?.id);
    const next = visible[Math.min(visible.length - 1, Math.max(0, at + (dir === '[' ? -1 : 1)))];
    if (next) setSelected(next.id === current?.id ? undefined : next.id);
  };

  const decide = (choice: Choice, data?: unknown) => {
    if (gate) controller.queue.answer(gate.key, choice, data);
  };
  // An inline gate belongs to the step's own screen (which shows and answers it).
  const inline = gate?.inline ? gate : undefined;
  const boxed = gate && !gate.inline ? gate : undefined;

  const paneHeight = Math.max(8, rows - 6);
  const paneWidth = Math.max(30, columns - LIST_WIDTH - 3);
  const Screen = shown ? screenFor(shown.kind) : undefined;
  const screenActive = !boxed && !overlay && !outcome;
  const actions = useMemo(() => state.log.filter((l) => l.level !== 'info').slice(-2), [state.log]);

  const hints: Hint[] = outcome
    ? [['q/Enter', 'exit'], ['[ ]', 'browse steps']]
    : boxed
      ? [['↑↓', 'move'], ['Enter', 'choose'], ['Esc', 'safe option'], ['?', 'help']]
      : inline
        ? [...inline.options.map((o): Hint => [o.key, o.label.toLowerCase()]), ['?', 'help']]
      : [['?', 'help'], ['q', 'quit'], ['[ ]', 'browse steps'], ...(selected ? ([['f', 'follow']] as Hint[]) : [])];

  return (
    <Box flexDirection="column" width={columns}>
      <Header meta={state.meta} columns={columns} />
      <Box>
        <Box width={LIST_WIDTH} flexDirection="column" paddingX={1} borderStyle="single" borderTop={false} borderBottom={false} borderLeft={false}>
          <StepList entries={state.entries} selectedId={shown?.id} width={LIST_WIDTH - 3} height={paneHeight} now={now} runStatus={state.run.status} />
        </Box>
        <Box flexDirection="column" paddingX={1} width={paneWidth} height={paneHeight} overflow="hidden">
          {/* Children keep their natural height: Ink's default flexShrink would squeeze them into overlapping lines. */}
          {overlay === 'guide' && controller.guide ? (
            <Box flexShrink={0}>
              <Guide lines={controller.guide} />
            </Box>
          ) : null}
          {overlay === 'help' ? (
            <Box flexShrink={0}>
              <HelpOverlay sessionId={state.meta.id} inProcessLab={Boolean(controller.inProcessLab)} />
            </Box>
          ) : null}
          {overlay === 'quit' ? (
            <Box flexShrink={0}>
              <QuitConfirm sessionId={state.meta.id} inProcessLab={Boolean(controller.inProcessLab)} onQuit={quit} onStay={() => setOverlay(undefined)} />
            </Box>
          ) : null}
          {outcome ? (
            <Box flexShrink={0}>
              <OutcomePanel outcome={outcome} sessionId={state.meta.id} reportPath={controller.reportPath?.()} stepShowsError={Boolean(shown?.error)} inProcessLab={Boolean(controller.inProcessLab)} />
            </Box>
          ) : null}
          {boxed && !overlay ? (
            <Box flexShrink={0}>
              <ConfirmGate key={boxed.key} request={boxed} onDecide={decide} rehearsal={controller.rehearsal} />
            </Box>
          ) : null}
          {Screen && shown && !overlay ? (
            <Box flexShrink={0} flexDirection="column">
              <Screen
                step={shown}
                state={state}
                isActive={screenActive}
                rehearsal={controller.rehearsal}
                width={paneWidth - 2}
                height={paneHeight}
                gate={inline && shown.status === 'awaitingApproval' ? inline : undefined}
                decide={decide}
              />
            </Box>
          ) : null}
        </Box>
      </Box>
      <CommandLog lines={actions} />
      <Footer hints={hints} message={quitting ? 'stopping; the session is saved…' : selected ? `viewing ${selected}` : undefined} />
    </Box>
  );
}

/** The lab's first screen: one paragraph per line, wrapped by the terminal's width. */
function Guide({ lines }: { lines: string[] }) {
  const c = colour('info');
  return (
    <Box flexDirection="column" borderStyle="round" {...(c ? { borderColor: c } : {})} paddingX={1} gap={1}>
      {lines.map((l, i) => (
        <Text key={i} wrap="wrap" bold={i === 0}>
          {l}
        </Text>
      ))}
      <Text bold>Press Enter to begin.</Text>
    </Box>
  );
}

function CommandLog({ lines }: { lines: LogLine[] }) {
  if (lines.length === 0) return <Text> </Text>;
  return (
    <Box flexDirection="column" paddingX={1}>
      {lines.map((l, i) => (
        <Text key={i} dimColor wrap="truncate-end">
          {l.at.slice(11, 19)} {l.level === 'action' ? '→' : l.level === 'warn' ? '⚠' : '✖'} {l.message}
        </Text>
      ))}
    </Box>
  );
}

function OutcomePanel({ outcome, sessionId, reportPath, stepShowsError, inProcessLab }: { outcome: RunOutcome; sessionId: string; reportPath: string | undefined; stepShowsError: boolean; inProcessLab: boolean }) {
  if (outcome.status === 'done') {
    const c = colour('pass');
    return (
      <Box flexDirection="column" borderStyle="round" {...(c ? { borderColor: c } : {})} paddingX={1}>
        <Text bold {...(c ? { color: c } : {})}>
          ✔ DONE: every step finished.
        </Text>
        {reportPath ? <Text>Report: {reportPath}</Text> : null}
        <Text dimColor>Press q or Enter to exit.</Text>
      </Box>
    );
  }
  const error: ErrorInfo = 'toInfo' in outcome.error ? outcome.error.toInfo() : outcome.error;
  if (outcome.status === 'failed' && stepShowsError) {
    // The failed step's own screen below shows what happened and what to do; say only how to go on.
    const red = colour('fail');
    return (
      <Box flexDirection="column">
        <Text bold {...(red ? { color: red } : {})}>
          ✖ STOPPED: a step failed (details below).
        </Text>
        <ResumeHint sessionId={sessionId} inProcessLab={inProcessLab} />
        <Text dimColor>q/Enter exit</Text>
      </Box>
    );
  }
  const title = outcome.status === 'awaitingApproval' ? 'Stopped at a gate' : outcome.status === 'interrupted' ? 'Stopped' : 'Step failed';
  return (
    <Box flexDirection="column">
      <ErrorPanel error={error} title={title} />
      <ResumeHint sessionId={sessionId} inProcessLab={inProcessLab} />
      {reportPath ? <Text>Report: {reportPath}</Text> : null}
      <Text dimColor>Press q or Enter to exit.</Text>
    </Box>
  );
}
