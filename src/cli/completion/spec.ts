/**
 * What shell completion offers, derived from the command-line contract (src/cli/commands.ts and
 * the option schemas in args.ts) and the step kinds' gates, never from a list of its own: a
 * command, option, scenario or gate added there appears in the scripts by itself. Pure.
 */
import { approvableGates, optionChoices } from '../args.js';
import { commands, options, type CommandSpec, type OptionName } from '../commands.js';

/** What the word after an option (or a command's positional) is completed with. */
export type ValueCompletion =
  | { kind: 'file' }
  | { kind: 'dir' }
  /** One of these words; `list`: several, comma-separated (`--approve draft,publish`). */
  | { kind: 'words'; words: readonly string[]; list?: boolean }
  /** Context names of the kubeconfig (asked of kubectl, honouring --kubeconfig). */
  | { kind: 'context' }
  /**
   * Saved session ids (asked of upgrade-pilot itself, honouring --state-dir wherever it is on the
   * line): every one (`report`), or only those a resume can continue (`resume`).
   */
  | { kind: 'session'; which: 'all' | 'resumable' }
  /** Free text (a number, NS/NAME): nothing to offer. */
  | { kind: 'free' };

export interface CompletionOption {
  /** Without the dashes. */
  name: string;
  short?: string;
  description: string;
  /** Undefined for a switch. */
  value?: ValueCompletion;
  repeatable: boolean;
}

export interface CompletionCommand {
  name: string;
  summary: string;
  options: CompletionOption[];
  positional?: { name: string; description: string; value: ValueCompletion };
}

export interface CompletionSpec {
  /** The program's name as typed. */
  program: string;
  commands: CompletionCommand[];
  /** Options before any command. */
  globals: CompletionOption[];
}

function valueOf(name: OptionName, gates: readonly string[], rules: readonly string[]): ValueCompletion | undefined {
  const o = options[name];
  if (o.type === 'boolean') return undefined;
  if (name === 'approve') return { kind: 'words', words: gates, list: true };
  if (name === 'accept-fix' && rules.length) return { kind: 'words', words: rules };
  const choices = optionChoices(name);
  if (choices) return { kind: 'words', words: choices };
  if (name === 'context') return { kind: 'context' };
  const value: string | undefined = 'value' in o ? o.value : undefined;
  if (value === 'FILE') return { kind: 'file' };
  if (value === 'DIR') return { kind: 'dir' };
  return { kind: 'free' };
}

function positionalOf(command: CommandSpec): CompletionCommand['positional'] {
  const p = command.positional;
  if (!p) return undefined;
  // A positional called `id` is a session id: `resume` offers only the sessions it can continue.
  const session: ValueCompletion = { kind: 'session', which: command.name === 'resume' ? 'resumable' : 'all' };
  const value: ValueCompletion = p.choices ? { kind: 'words', words: p.choices } : p.name === 'id' ? session : { kind: 'free' };
  return { name: p.name, description: p.description, value };
}

/**
 * `gates`: the step kinds' gate names (the registry's `gate`), added to those `--approve` accepts.
 * The parser refuses a gate it does not list, so a test keeps the two in step. `rules`: the bundled
 * runbook's rule ids whose fix `--accept-fix` may choose.
 */
export function completionSpec(gates: readonly string[] = [], program = 'upgrade-pilot', rules: readonly string[] = []): CompletionSpec {
  const allGates = [...new Set([...approvableGates, ...gates])];
  const option = (name: OptionName): CompletionOption => {
    const o = options[name];
    const value = valueOf(name, allGates, rules);
    return {
      name,
      ...(name === 'help' ? { short: 'h' } : {}),
      description: o.description,
      ...(value ? { value } : {}),
      repeatable: 'multiple' in o && o.multiple === true,
    };
  };
  const specs: CompletionCommand[] = commands.map((c) => {
    const positional = positionalOf(c);
    return { name: c.name, summary: c.summary, options: c.options.map(option), ...(positional ? { positional } : {}) };
  });
  const help: CompletionCommand = {
    name: 'help',
    summary: 'Show the help of a command',
    options: [],
    positional: { name: 'command', description: 'A command', value: { kind: 'words', words: commands.map((c) => c.name) } },
  };
  return {
    program,
    commands: [...specs, help],
    globals: [
      { name: 'help', short: 'h', description: 'Show help', repeatable: false },
      { name: 'version', short: 'V', description: 'Show the version', repeatable: false },
    ],
  };
}

/** Every option that takes a value, across the commands (the scripts skip their values when looking for the command). */
export function valueOptions(spec: CompletionSpec): CompletionOption[] {
  const seen = new Map<string, CompletionOption>();
  for (const c of spec.commands) for (const o of c.options) if (o.value && !seen.has(o.name)) seen.set(o.name, o);
  return [...seen.values()];
}
