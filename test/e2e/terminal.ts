/**
 * A real pseudo-terminal for end-to-end TUI tests: tmux on a private socket runs a command in a
 * window of a given size; the test reads the screen, presses keys, and reads the exit code the
 * command ended with (written to a file by the shell that ran it).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NOT_ARMED_YET } from '../../src/screens/keys/gate-model.js';
import { CLI } from './support.js';

export interface Terminal {
  /** The screen now; `-J`: a line the terminal wrapped comes back whole. */
  screen(): string;
  send(...keys: string[]): void;
  /**
   * Waits for the screen to show `text` (its right-hand pane as one line of words, for a string),
   * or to pass a test; `what` names it in the failure.
   */
  waitFor(text: string | RegExp | ((screen: string) => boolean), timeoutMs?: number, what?: string): Promise<string>;
  /** Waits for the gate on screen to take keys (its guard time over: the key line no longer says so). */
  armed(): Promise<string>;
  /** Waits for the command to end; its exit code. */
  exitCode(timeoutMs?: number): Promise<number>;
  resize(columns: number, rows: number): void;
  close(): void;
}

/** The right-hand pane as one line of words (the step list, boxes and wrapping left out), for sentences. */
export const flat = (s: string) =>
  s
    .split('\n')
    .map((l) => (l.includes('│ ') ? l.slice(l.indexOf('│ ') + 2) : l))
    .join(' ')
    .replace(/[│║╔╗╚╝╭╮╰╯═─]/g, ' ')
    .replace(/\s+/g, ' ');

let sessions = 0;

/** `upgrade-pilot ARGS` (the bundled CLI) in a terminal of that size, without CI (so the TUI draws) and without colour. */
export function openTerminal(args: string[], size: { columns: number; rows: number }, env: Record<string, string> = {}): Terminal {
  const socket = `up-e2e-${process.pid}-${sessions}`;
  const name = `t${sessions++}`;
  const dir = mkdtempSync(join(tmpdir(), 'up-e2e-term-'));
  const exitFile = join(dir, 'exit');
  const tmux = (...a: string[]) => execFileSync('tmux', ['-L', socket, ...a], { encoding: 'utf8' });
  const quote = (w: string) => `'${w.replace(/'/g, `'\\''`)}'`;
  const vars = Object.entries(env).map(([k, v]) => `${k}=${quote(v)}`);
  const command = `env -u CI NO_COLOR=1 ${vars.join(' ')} ${quote(process.execPath)} ${quote(CLI)} ${args.map(quote).join(' ')}; echo $? > ${quote(exitFile)}; sleep 600`;
  tmux('new-session', '-d', '-s', name, '-x', String(size.columns), '-y', String(size.rows), command);
  const screen = () => tmux('capture-pane', '-p', '-J', '-t', name);
  const waitFor: Terminal['waitFor'] = async (text, timeoutMs = 60_000, what = String(text)) => {
    const holds = typeof text === 'function' ? text : typeof text === 'string' ? (s: string) => flat(s).includes(text) : (s: string) => text.test(s);
    const started = Date.now();
    for (;;) {
      const s = screen();
      if (holds(s)) return s;
      if (Date.now() - started > timeoutMs) throw new Error(`the screen never showed ${what}; it shows:\n${s}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return {
    screen,
    send: (...keys) => void tmux('send-keys', '-t', name, ...keys),
    waitFor,
    armed: () => waitFor((s) => !flat(s).includes(NOT_ARMED_YET), 60_000, `the keys to count (no "${NOT_ARMED_YET}")`),
    async exitCode(timeoutMs = 60_000) {
      const started = Date.now();
      while (!existsSync(exitFile) || readFileSync(exitFile, 'utf8').trim() === '') {
        if (Date.now() - started > timeoutMs) throw new Error(`the command did not end; the screen shows:\n${screen()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      return Number(readFileSync(exitFile, 'utf8').trim());
    },
    resize: (columns, rows) => void tmux('resize-window', '-t', name, '-x', String(columns), '-y', String(rows)),
    close() {
      try {
        tmux('kill-server');
      } catch {
        // already gone
      }
    },
  };
}
