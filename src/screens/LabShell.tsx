/**
 * The TUI's first frame for `upgrade-pilot lab`, drawn before the lab starts: the header and the
 * runbook's steps as they will be, with what is happening in the pane. Starting the lab (a TLS
 * certificate, a seeded cluster) takes longer than everything else before the first frame, and
 * the operator should not wait for it to see the tool (BENCHMARKS.md, "first TUI frame"). The
 * session's App is drawn into the same Ink instance once the lab is up (SessionRequest.ink).
 * The runbook's outline it shows comes from the caller (run/lab-shell.ts).
 */
import { Box, render, Text, useInput, useStdout, type Instance } from 'ink';
import { useEffect, useState } from 'react';
import type { Entry, SessionMeta } from '../engine/state.js';
import { Footer } from './Footer.js';
import { Header } from './Header.js';
import { StepList } from './StepList.js';
import { colour } from './theme.js';
import { useTerminalSize } from './use-session-state.js';

export interface LabShell {
  /** The Ink instance the session's App is drawn into. */
  ink: Instance;
  /** True once the operator pressed q or Ctrl+C while the lab was starting. */
  /** How the operator asked to quit while the lab started (`q` or Ctrl+C), if they did. */
  quitRequested(): 'q' | 'ctrl-c' | undefined;
  /** Takes the frame off the screen (the lab did not start, or the operator left). */
  close(): void;
}

const LIST_WIDTH = 36;

export function LabShellFrame({ meta, entries, doing, onQuit }: { meta: SessionMeta; entries: Entry[]; doing: string; onQuit: (by: 'q' | 'ctrl-c') => void }) {
  const [stopping, setStopping] = useState(false);
  const { stdout } = useStdout();
  const { columns, rows } = useTerminalSize(stdout);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  useInput((input, key) => {
    if (input === 'q' || (key.ctrl && input === 'c')) {
      setStopping(true);
      onQuit(input === 'q' && !key.ctrl ? 'q' : 'ctrl-c');
    }
  });
  // The App's layout (src/screens/App.tsx), so its first frame replaces this one without a jump.
  const paneHeight = Math.max(8, rows - 6);
  const paneWidth = Math.max(30, columns - LIST_WIDTH - 3);
  return (
    <Box flexDirection="column" width={columns}>
      <Header meta={meta} columns={columns} />
      <Box>
        <Box width={LIST_WIDTH} flexDirection="column" paddingX={1} borderStyle="single" borderTop={false} borderBottom={false} borderLeft={false}>
          <StepList entries={entries} selectedId={undefined} width={LIST_WIDTH - 3} height={paneHeight} now={now} runStatus="running" />
        </Box>
        <Box flexDirection="column" paddingX={1} width={paneWidth} height={paneHeight}>
          <Text {...(colour('info') ? { color: colour('info') } : {})}>{stopping ? 'Stopping once the lab has started…' : `${doing}…`}</Text>
        </Box>
      </Box>
      <Footer hints={[['q', 'quit']]} />
    </Box>
  );
}

/** Draws the shell at once and returns; the caller starts the lab meanwhile. */
export function drawLabShell(io: { stdout: NodeJS.WriteStream; stdin: NodeJS.ReadStream }, outline: { title: string; entries: Entry[] }, opts: { scenario: string; rehearsal: boolean; flavor: 'spec' | 'palette' }): LabShell {
  const { title, entries } = outline;
  const meta: SessionMeta = {
    id: 'starting…',
    schema: 1,
    createdAt: new Date().toISOString(),
    tool: 'upgrade-pilot',
    user: '',
    host: '',
    mode: opts.rehearsal ? 'rehearsal' : 'live',
    lab: true,
    runbook: { name: '', title, file: '', digest: '' },
    cluster: { name: `the lab (${opts.scenario})` },
  };
  let quit: 'q' | 'ctrl-c' | undefined;
  const api = opts.flavor === 'palette' ? 'a simulated Palette (versions by clone, applied to the cluster)' : "a simulated profile API (the spec's service)";
  const doing = `Starting the embedded lab: ${api} and Kubernetes cluster on 127.0.0.1, scenario "${opts.scenario}"`;
  const ink = render(<LabShellFrame meta={meta} entries={entries} doing={doing} onQuit={(by) => (quit ??= by)} />, {
    stdout: io.stdout,
    stdin: io.stdin,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  return {
    ink,
    quitRequested: () => quit,
    close: () => {
      ink.clear();
      ink.unmount();
    },
  };
}
