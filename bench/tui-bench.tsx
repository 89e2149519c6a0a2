/**
 * TUI responsiveness.
 *
 *  - First frame: `upgrade-pilot lab` (the TUI over the default lab) started in a pseudo-terminal
 *    (`script`), timed from spawn until the terminal shows its first line ("upgrade-pilot · starting
 *    the embedded lab…") and until Ink's first frame of the TUI (the step list). The same for
 *    `node -e` writing one line, the floor of any node program here.
 *  - Key to frame: the migrations screen with 5,000 rows, rendered in-process by ink-testing-library
 *    (Ink's debug mode: every render is written at once, no frame throttle); a ↓ key is written to its
 *    stdin and the time runs until Ink writes the changed frame.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { render } from 'ink-testing-library';
import type { SessionState, StepState } from '../src/engine/state.js';
import { MigrationsScreen } from '../src/screens/MigrationsScreen.js';
import type { MigrationRow, MigrationsLive } from '../src/steps/migrations/monitor-types.js';

/** Every descendant of a process, deepest first (from /proc). */
function descendants(pid: number): number[] {
  let kids: number[] = [];
  try {
    kids = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
  return kids.flatMap((k) => [...descendants(k), k]);
}

function killAll(pids: number[], signal: NodeJS.Signals): void {
  for (const p of pids) {
    try {
      process.kill(p, signal);
    } catch {
      // already gone
    }
  }
}

export interface FirstFrame {
  /** When each marker first appeared, in the order given. */
  ms: number[];
  bytes: number;
}

/** Spawn `command` in a pseudo-terminal; resolve when the screen has shown every marker; then stop it. */
export function firstFrame(command: string, markers: string[], env: NodeJS.ProcessEnv, timeoutMs = 30_000): Promise<FirstFrame> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('script', ['-qfec', command, '/dev/null'], { env: { ...process.env, TERM: 'xterm-256color', COLUMNS: '120', LINES: '40', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let screen = '';
    let result: FirstFrame | undefined;
    // Killed outright once the frame is seen (its folders are the caller's, removed afterwards).
    // `script` itself is left to end by itself, so it reaps the program and its CPU time is counted.
    const stop = () => {
      killAll(descendants(child.pid!), 'SIGKILL');
      setTimeout(() => killAll([child.pid!], 'SIGKILL'), 3000).unref();
    };
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`no first frame within ${timeoutMs} ms; the screen so far:\n${stripVTControlCharacters(screen).slice(-1000)}`));
    }, timeoutMs);
    const seen: number[] = [];
    child.stdout.on('data', (d: Buffer) => {
      if (result) return;
      screen += d.toString();
      const text = stripVTControlCharacters(screen);
      markers.forEach((m, i) => {
        if (seen[i] === undefined && text.includes(m)) seen[i] = performance.now() - started;
      });
      if (markers.every((_, i) => seen[i] !== undefined)) {
        result = { ms: seen, bytes: screen.length };
        clearTimeout(timer);
        stop();
      }
    });
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      if (result) resolve(result);
      else reject(new Error(`the program ended before its first frame:\n${stripVTControlCharacters(screen).slice(-1000)}`));
    });
  });
}

/**
 * `tui`: the first line on screen (the splash `upgrade-pilot · starting the embedded lab…`, written
 * before anything heavy loads); `interactive`: the TUI's own first frame (Ink drawing the runbook's
 * steps: the shell drawn while the lab starts); `ready`: the lab started and the session's first
 * screen (the lab's guide, "Welcome to the upgrade-pilot lab."), keys acting on the session.
 */
export async function firstFrames(cli: string, root: string, runs: number): Promise<{ tui: number[]; interactive: number[]; ready: number[]; nodeFloor: number[] }> {
  const tui: number[] = [];
  const interactive: number[] = [];
  const ready: number[] = [];
  const nodeFloor: number[] = [];
  for (let i = 0; i <= runs; i++) {
    // Sessions and the lab's folder go under a folder of this run, removed after each start
    const dir = mkdtempSync(join(root, 'tui-'));
    const env = { XDG_STATE_HOME: dir, TMPDIR: dir };
    try {
      // With a scenario named: without one, `lab` on a terminal first asks which (a picker, not the TUI).
      const t = await firstFrame(`${JSON.stringify(process.execPath)} ${JSON.stringify(cli)} lab --scenario healthy`, ['upgrade-pilot', 'Preflight checks', 'Welcome to the upgrade-pilot lab'], env);
      const f = await firstFrame(`${JSON.stringify(process.execPath)} -e "process.stdout.write('ready\\\\n'); setTimeout(() => {}, 5000)"`, ['ready'], env);
      // The first start warms the disk cache: not counted
      if (i > 0) {
        tui.push(t.ms[0]!);
        interactive.push(t.ms[1]!);
        ready.push(t.ms[2]!);
        nodeFloor.push(f.ms[0]!);
      }
    } finally {
      await new Promise((r) => setTimeout(r, 300));
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return { tui, interactive, ready, nodeFloor };
}

const manyRows = (n: number): MigrationRow[] =>
  Array.from({ length: n }, (_, i) => ({
    key: `vms-${String(Math.floor(i / 100)).padStart(3, '0')}/kubevirt-workload-update-${i}`,
    vmi: `vms-${String(Math.floor(i / 100)).padStart(3, '0')}/vm-${String(i).padStart(5, '0')}`,
    source: `vmo-worker-${String(i % 497).padStart(3, '0')}`,
    target: `vmo-worker-${String((i + 1) % 497).padStart(3, '0')}`,
    phase: i % 7 === 0 ? 'Pending' : 'Running',
    ageMs: 60_000,
    runningMs: 60_000 - i,
  }));

function liveState(rows: MigrationRow[], poll: number): { step: StepState; state: SessionState } {
  const live: MigrationsLive = {
    headline: '',
    rows,
    counts: { Pending: rows.filter((r) => r.phase === 'Pending').length, Running: rows.filter((r) => r.phase === 'Running').length, Succeeded: 0, Failed: 0 },
    outdated: rows.length,
    staying: 12,
    history: Array.from({ length: 20 }, (_, i) => ({ atMs: i * 5000, outdated: rows.length + 200 - i * 10, inFlight: 20 })),
    kubevirt: { ref: 'kubevirt/kubevirt', found: true, phase: 'Deployed', observed: 'v1.4.0', target: 'v1.4.0', conditions: [], settled: true },
    stall: [],
    movable: rows.length,
    ended: false,
    elapsedMs: 65_000 + poll * 5000,
    sinceProgressMs: 5000,
    polls: 13 + poll,
    nextPollInMs: 5000,
  };
  const step: StepState = {
    id: 'hop1.migrations',
    localId: 'migrations',
    kind: 'migrations',
    title: 'Watch live migrations',
    with: {},
    status: 'running',
    durationMs: 0,
    attempts: 1,
    decisions: {},
    notes: {},
    live,
  };
  const state = {
    meta: { id: 'bench', schema: 1, createdAt: new Date(0).toISOString(), tool: 'bench', user: 'bench', host: 'localhost', mode: 'live', lab: true, runbook: { name: 'b', title: 'b', file: 'b', digest: 'b' }, cluster: {} },
    entries: [step],
    mutations: {},
    run: { status: 'running', updatedAt: '', resumes: 0 },
    log: [],
    seq: 1,
  } as SessionState;
  return { step, state };
}

export interface KeyToFrame {
  rows: number;
  /** First render of the screen with every row, ms. */
  mountMs: number;
  /** ↓ pressed → changed frame written, ms, one per key. */
  keyMs: number[];
  /** A new poll's 5,000 rows → frame written, ms, one per poll. */
  pollMs: number[];
}

export async function keyToFrame(rowCount = 5000, presses = 40, polls = 10): Promise<KeyToFrame> {
  const rows = manyRows(rowCount);
  const { step, state } = liveState(rows, 0);
  const width = 100;
  const height = 30;
  const t0 = performance.now();
  const ui = render(<MigrationsScreen step={step} state={state} isActive rehearsal={false} width={width} height={height} />);
  const mountMs = performance.now() - t0;
  const stdout = ui.stdout as unknown as { write: (frame: string) => void };
  const inner = stdout.write;
  let waiter: ((at: number) => void) | undefined;
  stdout.write = (frame: string) => {
    inner(frame);
    const w = waiter;
    waiter = undefined;
    w?.(performance.now());
  };
  const nextFrame = () => new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no frame within 5 s')), 5000);
    waiter = (at) => {
      clearTimeout(timer);
      resolve(at);
    };
  });
  // The screen's input handler attaches in an effect after the first frame
  await new Promise((r) => setTimeout(r, 50));
  const keyMs: number[] = [];
  for (let i = 0; i < presses; i++) {
    const before = ui.lastFrame();
    const frame = nextFrame();
    const pressed = performance.now();
    ui.stdin.write('\u001B[B');
    const at = await frame;
    if (ui.lastFrame() === before) throw new Error('the ↓ key did not change the frame');
    keyMs.push(at - pressed);
    await new Promise((r) => setTimeout(r, 5));
  }
  const pollMs: number[] = [];
  for (let i = 1; i <= polls; i++) {
    const next = liveState(manyRows(rowCount), i);
    const frame = nextFrame();
    const sent = performance.now();
    ui.rerender(<MigrationsScreen step={next.step} state={next.state} isActive rehearsal={false} width={width} height={height} />);
    pollMs.push((await frame) - sent);
    await new Promise((r) => setTimeout(r, 5));
  }
  const last = stripVTControlCharacters(ui.lastFrame() ?? '');
  ui.unmount();
  if (!new RegExp(`rows ${presses + 1}-\\d+ of ${rowCount}`).test(last)) throw new Error(`the table did not scroll as expected:\n${last}`);
  return { rows: rowCount, mountMs, keyMs, pollMs };
}
