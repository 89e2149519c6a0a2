/**
 * A choice asked before a session starts (which session to resume, which lab scenario), drawn
 * with Ink on the terminal and gone once answered. Resolves to the picked value, or undefined
 * when the operator cancels (Esc, Ctrl+C).
 */
import { render } from 'ink';
import { ChoiceList, type Choice } from '../screens/ChoiceList.js';

export async function pick<V>(io: { stdout: NodeJS.WriteStream; stdin: NodeJS.ReadStream }, title: string, choices: Array<Choice<V>>, opts: { lines?: string[]; initial?: number } = {}): Promise<V | undefined> {
  let answer: V | undefined;
  const app = render(
    <ChoiceList
      title={title}
      lines={opts.lines ?? []}
      choices={choices}
      initial={opts.initial ?? 0}
      onPick={(v) => {
        answer = v;
        app.unmount();
      }}
      onCancel={() => app.unmount()}
    />,
    { stdout: io.stdout, stdin: io.stdin, exitOnCtrlC: false, patchConsole: false },
  );
  await app.waitUntilExit();
  app.clear();
  return answer;
}
