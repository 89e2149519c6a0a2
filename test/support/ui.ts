/**
 * One helper over ink-testing-library: named keys, ANSI stripped, and waiting for the frame to
 * change rather than sleeping.
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

export async function waitForFrame(lastFrame: () => string | undefined, test: (frame: string) => boolean, timeoutMs = 5000): Promise<string> {
  const start = Date.now();
  for (;;) {
    const frame = plain(lastFrame());
    if (test(frame)) return frame;
    if (Date.now() - start > timeoutMs) throw new Error(`frame never matched; last frame:\n${frame}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Writes keys one at a time, letting Ink process each. A component that just appeared attaches its
 * input handler in an effect after the frame is drawn, so the first key waits a moment too.
 */
export async function press(stdin: { write: (s: string) => void }, ...sequence: string[]): Promise<void> {
  await new Promise((r) => setTimeout(r, 30));
  for (const k of sequence) {
    stdin.write(k);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The frame as one line of words: borders removed, wrapping undone, for assertions on sentences. */
export function words(frame: string): string {
  return frame.replace(/[│║╔╗╚╝╭╮╰╯═─┌┐└┘]/g, ' ').replace(/\s+/g, ' ');
}

/** The right-hand pane of the app (what follows the step list's border on each line). */
export function pane(frame: string): string {
  return frame
    .split('\n')
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

class SizedStdout extends EventEmitter {
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

class TestStdin extends EventEmitter {
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
