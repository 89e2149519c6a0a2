/**
 * A choice asked before a session starts (which session to resume, which lab scenario), drawn
 * with Ink on the terminal and gone once answered. Esc is the operator's choice not to go on (a
 * stop: exit 3); Ctrl+C is an interruption (exit 130).
 */
import { render } from 'ink';
import { InterruptedError, StoppedError } from '../errors.js';
import { ChoiceList, type Choice } from './ChoiceList.js';

/** What nothing picked means: what did not happen, and how to go on. */
export interface NothingPicked {
  message: string;
  next: string;
}

export async function pick<V>(io: { stdout: NodeJS.WriteStream; stdin: NodeJS.ReadStream }, title: string, choices: Array<Choice<V>>, opts: { lines?: string[]; initial?: number; nothing: NothingPicked }): Promise<V> {
  let answer: { value: V } | undefined;
  let cancelledBy = 'escape' as 'escape' | 'ctrl-c';
  // Erased while Ink still owns the frame: after unmount, clear() no longer reaches it, and the
  // question stayed on screen above what came next (the lab's first frame).
  const done = () => {
    app.clear();
    app.unmount();
  };
  const app = render(
    <ChoiceList
      title={title}
      lines={opts.lines ?? []}
      choices={choices}
      initial={opts.initial ?? 0}
      onPick={(v) => {
        answer = { value: v };
        done();
      }}
      onCancel={(by) => {
        cancelledBy = by;
        done();
      }}
    />,
    { stdout: io.stdout, stdin: io.stdin, exitOnCtrlC: false, patchConsole: false },
  );
  await app.waitUntilExit();
  if (answer) return answer.value;
  const { message, next } = opts.nothing;
  throw cancelledBy === 'ctrl-c' ? new InterruptedError(message, next) : new StoppedError(message, { next }, 'stopped.pick');
}
