/**
 * `--help`, wrapped to the terminal's width (text/wrap.ts): paragraphs break between words, and
 * each option's or command's description hangs under its own column. Read from the command table
 * alone (commands.ts), so help never loads the option schemas or the lab.
 */
import { wrapWords } from '../text/wrap.js';
import { commands, options, type CommandSpec, type OptionSpec } from './commands.js';
import { forProgram } from './kubectl-plugin.js';

/** How help is written: the terminal's width, and the program as the operator typed it (`kubectl upgrade-pilot`). */
export interface HelpLayout {
  width: number;
  program: string;
}

const DEFAULT_LAYOUT: HelpLayout = { width: 80, program: 'upgrade-pilot' };

/** Below this many columns for descriptions, a description starts on the line under its name. */
const MIN_DESCRIPTION = 28;
/** A name column wider than this puts that one description on the next line instead. */
const MAX_NAME_COLUMN = 32;

/** Rows of `name  description`, descriptions in one column that wraps with a hanging indent. */
export function table(rows: ReadonlyArray<readonly [string, string]>, width: number, indent = 2): string[] {
  const widest = Math.max(0, ...rows.map(([name]) => name.length).filter((n) => n + 2 <= MAX_NAME_COLUMN));
  const column = indent + widest + 2;
  const under = width - column < MIN_DESCRIPTION;
  const pad = ' '.repeat(indent);
  // A name too wide for the column (or the terminal) goes on lines of its own.
  const nameLines = (name: string) => wrapWords(name, width, { first: pad, rest: `${pad}  ` });
  return rows.flatMap(([name, description]) => {
    if (under) return [...nameLines(name), ...wrapWords(description, width, { first: `${pad}    `, rest: `${pad}    ` })];
    const rest = ' '.repeat(column);
    if (indent + name.length + 2 > column) return [...nameLines(name), ...wrapWords(description, width, { first: rest, rest })];
    return wrapWords(description, width, { first: `${pad}${name}`.padEnd(column), rest });
  });
}

const paragraph = (text: string, width: number, indent = '') => wrapWords(text, width, { first: indent, rest: indent });

export function generalHelp(version: string, layout: HelpLayout = DEFAULT_LAYOUT): string {
  const width = layout.width;
  const say = (s: string) => forProgram(s, layout.program);
  return [
    ...paragraph(say(`upgrade-pilot ${version}: the VM orchestration pack (KubeVirt) upgrade runbook, step by step`), width),
    '',
    say('Usage: upgrade-pilot <command> [options]'),
    '',
    'Commands:',
    ...table(
      commands.map((c) => [c.name, c.summary] as const),
      width,
    ),
    '',
    ...paragraph('The API key comes from $UPGRADE_PILOT_API_KEY or --api-key-file, never from a flag value.', width),
    'Exit codes:',
    ...table(EXIT_CODES, width),
    '',
    ...paragraph(say("Run `upgrade-pilot <command> --help` for a command's options. Try it safely: npm start (the embedded lab)."), width),
  ].join('\n');
}

/** The exit codes as the README's table says them. */
export const EXIT_CODES: ReadonlyArray<readonly [string, string]> = [
  ['0', 'done, or every check green'],
  ['1', 'a step failed, or a verification check is red'],
  ['2', 'bad usage or bad input (a flag, a file, a value)'],
  ['3', 'stopped at a gate awaiting approval, or stopped or declined by the operator; the session is saved'],
  ['4', 'the environment is unreachable or refuses access (API, cluster, credentials)'],
  ['130', 'interrupted by a signal (Ctrl+C, SIGTERM); the session is saved'],
];

export function commandHelp(command: CommandSpec, layout: HelpLayout = DEFAULT_LAYOUT): string {
  const width = layout.width;
  const say = (s: string) => forProgram(s, layout.program);
  const rows: Array<[string, string]> = command.options.map((name) => {
    const o: OptionSpec = options[name];
    return [`--${name}${o.value ? ` ${o.value}` : ''}`, say(o.description)];
  });
  if (command.positional) rows.unshift([`[${command.positional.name}]`, say(command.positional.description)]);
  return [
    ...wrapWords(say(`Usage: ${command.usage}`), width, { first: '', rest: '       ' }),
    '',
    ...paragraph(say(command.summary), width),
    ...command.details.flatMap((d) => paragraph(say(d), width, '  ')),
    '',
    'Options:',
    ...table(rows, width),
    ...(command.lists ?? []).flatMap((list) => ['', `${list.title}:`, ...table(list.rows(), width)]),
  ].join('\n');
}
