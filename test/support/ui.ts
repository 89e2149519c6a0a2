/**
 * One helper over ink-testing-library: named keys, ANSI stripped, and waiting for the frame (or
 * for React to settle) rather than sleeping: a test goes on from a state, never from a time.
 */
import { EventEmitter } from 'node:events';
import { stripVTControlCharacters } from 'node:util';
import { render as inkRender } from 'ink';
import type { ReactElement } from 'react';

export const keys = {
  enter: '\r',
  escape: '\u001B',
  up: '\u001B[A',
  down: '\u001B[B',
  right: '\u001B[C',
  left: '\u001B[D',
  pageUp: '\u001B[5~',
  pageDown: '\u001B[6~',
  tab: '\t',
  backspace: '\u007F',
  ctrlC: '\u0003',
} as const;

export function plain(frame: string | undefined): string {
  return stripVTControlCharacters(frame ?? '');
}

/**
 * Lets React finish what the last update started. Ink draws a frame when React commits, but the
 * key handlers (`useInput`) and subscriptions of what was just drawn are attached in effects that
 * React runs later, in a following turn of the event loop (Ink renders in React's legacy mode,
 * where passive effects are scheduled with setImmediate). A key written before then reaches the
 * handler of the frame before. Each turn here runs after the work React scheduled in the turn
 * before it, so a few turns see that work done: turns, not milliseconds, which a busy machine
 * delays all alike. A lone Esc is also delivered here: Ink holds it for one turn, in case more of
 * an escape sequence follows.
 */
export async function settle(turns = 5): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise<void>((r) => setImmediate(r));
}

/**
 * Waits for a frame that passes `test` (the state the test needs, never a frame that may be
 * skipped), then lets React settle so the next key reaches what that frame shows. The time limit
 * only turns a hang into a failure with the last frame in it; it is generous for a busy machine.
 */
export async function waitForFrame(lastFrame: () => string | undefined, test: (frame: string) => boolean, timeoutMs = 60_000): Promise<string> {
  const start = Date.now();
  for (;;) {
    const frame = plain(lastFrame());
    if (test(frame)) {
      await settle();
      return frame;
    }
    if (Date.now() - start > timeoutMs) throw new Error(`frame never matched within ${timeoutMs} ms; last frame:\n${frame}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Writes keys one at a time, each once React has settled from the one before (see `settle`), and
 * settles after the last: whatever a key changes on screen synchronously is drawn when this
 * returns. What a key starts elsewhere (the runner answering a gate, a lab call) is waited for
 * with `waitForFrame`.
 */
export async function press(stdin: { write: (s: string) => void }, ...sequence: string[]): Promise<void> {
  for (const k of sequence) {
    await settle();
    stdin.write(k);
  }
  await settle();
}

/**
 * Presses keys and waits for the frame to change from the one before them (and to pass `test`,
 * when given), as Shopify cli-kit's `sendInputAndWaitForChange` does: the test goes on from the
 * frame the keys made, not from a time.
 */
export async function pressAndWait(ui: { stdin: { write: (s: string) => void }; lastFrame: () => string | undefined }, keysToPress: string[], test: (frame: string) => boolean = () => true, timeoutMs?: number): Promise<string> {
  const before = plain(ui.lastFrame());
  await press(ui.stdin, ...keysToPress);
  return waitForFrame(ui.lastFrame, (f) => f !== before && test(f), timeoutMs);
}

/** The frame as one line of words: borders removed, wrapping undone, for assertions on sentences. */
export function words(frame: string): string {
  return frame.replace(/[│║╔╗╚╝╭╮╰╯═─┌┐└┘]/g, ' ').replace(/\s+/g, ' ');
}

/**
 * The right-hand pane of the app (what follows the step list's border on each line); at a gate,
 * which takes the whole width (no step list), everything under the header.
 */
export function pane(frame: string): string {
  const lines = frame.split('\n');
  if (lines.some((l) => l.startsWith(' ╔'))) return lines.slice(1).join('\n');
  return lines
    .map((l) => {
      const i = l.indexOf('│ ');
      return i >= 0 ? l.slice(i + 2) : '';
    })
    .join('\n');
}

/**
 * ink-testing-library draws at 100 columns and no rows; this draws at a terminal size of our
 * choosing (Ink reads `columns` and `rows` from stdout), with the same lastFrame/stdin interface.
 */

/** A terminal's stdout of a size (a TTY, as Ink and the CLI's TUI check), keeping every frame written. */
export class SizedStdout extends EventEmitter {
  isTTY = true;
  frames: string[] = [];
  constructor(
    public columns: number,
    public rows: number,
  ) {
    super();
  }
  write = (frame: string) => {
    this.frames.push(frame);
  };
  lastFrame = () => this.frames.at(-1);
  resize(columns: number, rows: number) {
    this.columns = columns;
    this.rows = rows;
    this.emit('resize');
  }
}

/** A terminal's stdin the test types into. */
export class TestStdin extends EventEmitter {
  isTTY = true;
  private data: string | null = null;
  write = (data: string) => {
    this.data = data;
    this.emit('readable');
    this.emit('data', data);
  };
  read = () => {
    const d = this.data;
    this.data = null;
    return d;
  };
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}

export function renderAt(tree: ReactElement, size: { columns: number; rows: number }) {
  const stdout = new SizedStdout(size.columns, size.rows);
  const stdin = new TestStdin();
  const instance = inkRender(tree, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: new SizedStdout(size.columns, size.rows) as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  return { lastFrame: stdout.lastFrame, stdin, resize: (c: number, r: number) => stdout.resize(c, r), unmount: instance.unmount };
}
