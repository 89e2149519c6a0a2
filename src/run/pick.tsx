/**
 * A choice asked before a session starts (which session to resume, which lab scenario), drawn
 * with Ink on the terminal and gone once answered. Resolves to the picked value, or undefined
 * when the operator cancels (Esc, Ctrl+C).
 */
import { render } from 'ink';
import { ChoiceList, type Choice } from '../screens/ChoiceList.js';

export async function pick<V>(io: { stdout: NodeJS.WriteStream; stdin: NodeJS.ReadStream }, title: string, choices: Array<Choice<V>>, opts: { lines?: string[]; initial?: number } = {}): Promise<V | undefined> {
  let answer: V | undefined;
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
        answer = v;
        done();
      }}
      onCancel={() => done()}
    />,
    { stdout: io.stdout, stdin: io.stdin, exitOnCtrlC: false, patchConsole: false },
  );
  await app.waitUntilExit();
  return answer;
}
