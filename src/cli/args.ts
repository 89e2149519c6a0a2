/**
 * Turns argv into a validated command invocation. Every mistake is an InputError (exit 2) saying
 * what was wrong and what is accepted.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { InputError } from '../errors.js';
import { approvableGates } from '../engine/approvable-gates.js';
export { approvableGates };
import { NS_NAME_PATTERN } from '../engine/ns-name.js';
import { CAPTURE_LIMIT_BYTES, CAPTURE_MIN_BYTES, formatBytes, parseBytes } from '../io/limits.js';
import { commands, findCommand, options, type CommandSpec, type OptionName, type OptionSpec } from './commands.js';
import { helpRequest } from './help-request.js';
import { hoistKubectlFlags } from './kubectl-plugin.js';
import { parseSince, SINCE_ACCEPTS } from '../steps/verify/since.js';
import { flavors, reportFormats, type CliOptions, type CommandCall } from '../commands/options.js';
import { serverPathProblem } from '../kube/server-path.js';
import { scenarioNames } from '../lab/scenario-catalog.js';
import { didYouMean } from '../text/did-you-mean.js';

/** The lab's scenarios (one list: the parser, `lab --help`, the picker and completion read it). */
export const labScenarios = scenarioNames;

/** What is wrong with one option's value: the message names the flag and what it accepts. */
class OptionIssue extends Error {}

type Values = Record<string, unknown>;
type Check<T> = (raw: unknown, flag: OptionName) => T;

/** A string option given an empty value (`--runbook=`) is refused like one given none. */
const text: Check<string | undefined> = (raw, flag) => {
  if (raw === undefined) return undefined;
  const value = String(raw);
  const o: OptionSpec = options[flag];
  if (value === '') throw new OptionIssue(`--${flag} needs a value${o.value ? ` (${o.value})` : ''}.`);
  return value;
};

const list = (raw: unknown): string[] => (raw === undefined ? [] : (raw as unknown[]).map(String));

const oneOf =
  <C extends readonly string[]>(choices: C): Check<C[number] | undefined> =>
  (raw, flag) => {
    if (raw === undefined) return undefined;
    if (!(choices as readonly unknown[]).includes(raw)) throw new OptionIssue(`--${flag} must be ${choices.length === 2 ? choices.join(' or ') : `one of ${choices.join(', ')}`}, got "${String(raw)}"${sentenceAfter(didYouMean(String(raw), choices))}`);
    return raw as C[number];
  };

const positiveInt: Check<number | undefined> = (raw, flag) => {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(String(raw))) throw new OptionIssue(`--${flag} takes a whole number`);
  const n = Number(raw);
  if (!(n > 0)) throw new OptionIssue(`--${flag} must be above 0`);
  return n;
};

const speed: Check<number | undefined> = (raw, flag) => {
  if (raw === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(String(raw))) throw new OptionIssue(`--${flag} takes a number such as 60`);
  const n = Number(raw);
  if (!(n > 0 && n <= 100_000)) throw new OptionIssue(`--${flag} must be between 0 and 100000`);
  return n;
};

/** `256MiB`, `64MB`, `1048576`: within what a capture can be (see src/io/limits.ts). */
const captureSize: Check<number | undefined> = (raw, flag) => {
  if (raw === undefined) return undefined;
  const n = parseBytes(String(raw));
  if (n === undefined) throw new OptionIssue(`--${flag} takes a size such as 256MiB or 64MB, got "${String(raw)}"`);
  if (n < CAPTURE_MIN_BYTES || n > CAPTURE_LIMIT_BYTES) throw new OptionIssue(`--${flag} must be between ${formatBytes(CAPTURE_MIN_BYTES)} and ${formatBytes(CAPTURE_LIMIT_BYTES)}, got ${String(raw)}`);
  return n;
};

const vmRefs: Check<string[]> = (raw, flag) =>
  list(raw).map((v) => {
    if (!NS_NAME_PATTERN.test(v)) throw new OptionIssue(`--${flag} takes NAMESPACE/NAME of a VM, got "${v}"`);
    return v;
  });

const splitList = (values: string[]) => values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);

const gates: Check<string[]> = (raw, flag) => {
  const named = splitList(list(raw));
  for (const g of named) {
    if (g === 'restart' || g === 'restarts') throw new OptionIssue('VM restarts are approved per VM: use --approve-restart NS/NAME or --approve-all-restarts');
    if (!(approvableGates as readonly string[]).includes(g)) throw new OptionIssue(`--${flag} does not know the gate "${g}" (accepted: ${approvableGates.join(', ')})${sentenceAfter(didYouMean(g, approvableGates))}`);
  }
  return named;
};

/** `--revoke`: a gate `--approve` names, `restarts` (every restart approval), or one VM's NS/NAME. */
const revocations: Check<string[]> = (raw, flag) =>
  splitList(list(raw)).map((v) => {
    if (v === 'restart' || v === 'restarts') return 'restarts';
    if ((approvableGates as readonly string[]).includes(v) || NS_NAME_PATTERN.test(v)) return v;
    throw new OptionIssue(`--${flag} takes a gate (${approvableGates.join(', ')}), restarts (every VM restart approval) or a VM's NAMESPACE/NAME, got "${v}"`);
  });

const ruleIds: Check<string[]> = (raw, flag) =>
  splitList(list(raw)).map((v) => {
    if (!/^[a-z][a-z0-9-]*$/.test(v)) throw new OptionIssue(`--${flag} takes the id of a runbook rule (such as storage-class-virt-annotation), got "${v}"`);
    return v;
  });

const nameRe = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `NAME=env:VAR` or `NAME=file:PATH`: where a value comes from. A value itself would show in `ps`. */
const variableSources: Check<CliOptions['variable']> = (raw, flag) =>
  list(raw).map((v) => {
    const eq = v.indexOf('=');
    const name = eq > 0 ? v.slice(0, eq) : '';
    const from = eq > 0 ? v.slice(eq + 1) : '';
    const usage = `--${flag} takes NAME=env:VAR or NAME=file:PATH (where the value comes from, never the value: a command line shows in the process list)`;
    if (!nameRe.test(name)) throw new OptionIssue(`${usage}; got "${name || v.split('=')[0]}" as the name`);
    if (from.startsWith('env:')) {
      const env = from.slice(4);
      if (!nameRe.test(env)) throw new OptionIssue(`${usage}; "${env}" is not an environment variable name`);
      return { name, from: { env } };
    }
    if (from.startsWith('file:') && from.length > 5) return { name, from: { file: from.slice(5) } };
    throw new OptionIssue(`${usage}; ${name} was given neither env: nor file:`);
  });

const notifyUrls: Check<string[]> = (raw, flag) =>
  list(raw).map((v) => {
    if (v === '') throw new OptionIssue(`--${flag} takes a webhook URL`);
    return v;
  });

const present: Check<boolean> = (raw) => raw === true;

/** A guess after a message that has no full stop of its own: the message ends its sentence first. */
const sentenceAfter = (guess: string) => (guess ? `.${guess}` : '');

/** Each option's check, in the order the first problem is reported. */
const checks: { [K in keyof CliOptions]-?: Check<CliOptions[K]> } = {
  runbook: text,
  params: text,
  kubeconfig: text,
  context: text,
  'dry-run': present,
  'non-interactive': present,
  json: present,
  approve: gates,
  'approve-restart': vmRefs,
  'approve-all-restarts': present,
  'skip-restart': vmRefs,
  'accept-fix': ruleIds,
  variable: variableSources,
  notify: notifyUrls,
  'notify-command': (raw, f) => {
    if (raw === '') throw new OptionIssue(`--${f} takes a command`);
    return text(raw, f);
  },
  'notify-rehearsal': present,
  'notify-allow-http': present,
  junit: (raw, f) => {
    if (raw === '') throw new OptionIssue(`--${f} takes a file name`);
    return text(raw, f);
  },
  since: (raw, f) => {
    const v = text(raw, f);
    if (v === undefined) return undefined;
    const since = parseSince(v);
    if (!since) throw new OptionIssue(`--${f} takes ${SINCE_ACCEPTS}, got "${v.slice(0, 60)}"`);
    return since;
  },
  'state-dir': text,
  fleet: text,
  'fleet-fail': (raw) => list(raw),
  'fleet-template': (raw) => list(raw),
  'fleet-variables': present,
  reason: text,
  revoke: revocations,
  now: present,
  'api-key-file': text,
  'allow-insecure-http': present,
  scenario: oneOf(labScenarios),
  serve: present,
  'server-path': (raw, f) => {
    const value = text(raw, f);
    const problem = value === undefined ? undefined : serverPathProblem(value);
    if (problem) throw new OptionIssue(`--${f} ${problem}, got "${value}"`);
    return value;
  },
  speed,
  flavor: oneOf(flavors),
  dialect: oneOf(flavors),
  vms: positiveInt,
  nodes: positiveInt,
  pods: positiveInt,
  out: text,
  format: oneOf(reportFormats),
  timeline: present,
  'max-size': captureSize,
  replay: text,
  help: present,
};

/** The options' values as parseArgs gave them, checked and with their defaults; the first problem throws. */
function validateOptions(values: Values): CliOptions {
  const out: Record<string, unknown> = {};
  for (const [name, check] of Object.entries(checks) as Array<[OptionName, Check<unknown>]>) {
    const value = check(values[name], name);
    if (value !== undefined) out[name] = value;
  }
  return out as unknown as CliOptions;
}

/** The values an option accepts when it names them, for completion; else undefined. */
const choices: Partial<Record<OptionName, readonly string[]>> = { scenario: labScenarios, flavor: flavors, dialect: flavors, format: reportFormats };
export function optionChoices(name: OptionName): readonly string[] | undefined {
  return choices[name];
}

export interface Invocation extends CommandCall {
  command: CommandSpec;
}

export type Parsed = { kind: 'help'; command?: CommandSpec } | { kind: 'version' } | { kind: 'run'; invocation: Invocation };

/** Flags whose value is a secret never belong on a command line (they would show in `ps`). */
const secretFlags = ['--api-key', '--apikey', '--key', '--token'];

export function parseCommandLine(argv: string[]): Parsed {
  const hoisted = hoistKubectlFlags(argv);
  const asked = helpRequest(hoisted);
  if (asked) return asked;
  const [first, ...rest] = hoisted as [string, ...string[]];
  const command = findCommand(first);
  if (!command) {
    const hint = first.startsWith('-') ? 'Options come after the command.' : `Commands: ${commands.map((c) => c.name).join(', ')}.`;
    const names = commands.map((c) => c.name);
    throw new InputError('usage.command', `Unknown command "${first}".${first.startsWith('-') ? '' : didYouMean(first, names)}`, { hint: `${hint} See: upgrade-pilot --help` });
  }
  for (const arg of rest) {
    const flag = arg.split('=')[0]!;
    if (secretFlags.includes(flag)) {
      throw new InputError('usage.secret-flag', `${flag} is not accepted: a key on the command line shows in the process list.`, {
        hint: 'Set UPGRADE_PILOT_API_KEY in the environment, or pass --api-key-file FILE.',
      });
    }
  }
  const spec: NonNullable<ParseArgsConfig['options']> = {};
  for (const name of command.options) {
    const o: OptionSpec = options[name];
    spec[name] = { type: o.type, ...(o.multiple ? { multiple: true } : {}), ...(name === 'help' ? { short: 'h' } : {}) };
  }

  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args: rest, options: spec, allowPositionals: true, strict: true }) as typeof parsed;
  } catch (err) {
    throw usageError(command, err as Error);
  }
  const maxPositionals = command.positional ? (command.second ? 2 : 1) : 0;
  if (parsed.positionals.length > maxPositionals) {
    const extra = parsed.positionals[maxPositionals]!;
    throw new InputError('usage.positional', `Unexpected argument "${extra}" for \`${command.name}\`.`, { hint: `Usage: ${command.usage}` });
  }
  let checked: CliOptions;
  try {
    checked = validateOptions(parsed.values);
  } catch (err) {
    if (!(err instanceof OptionIssue)) throw err;
    throw new InputError('usage.option', err.message, { hint: `See: upgrade-pilot ${command.name} --help` });
  }
  if (checked.help) return { kind: 'help', command };
  // `stage` is a fleet stage's gate: on a single cluster it would approve nothing, silently.
  if (command.name !== 'fleet' && checked.approve.includes('stage')) {
    throw new InputError('usage.option', '--approve stage approves a fleet stage: it is for `upgrade-pilot fleet`.', { hint: `See: upgrade-pilot ${command.name} --help` });
  }
  const positional = parsed.positionals[0];
  const second = parsed.positionals[1];
  return { kind: 'run', invocation: { command, options: checked, ...(positional !== undefined ? { positional } : {}), ...(second !== undefined ? { second } : {}) } };
}

function usageError(command: CommandSpec, err: Error): InputError {
  const accepted = command.options.map((n) => `--${n}`).join(', ');
  const unknown = /Unknown option '([^']+)'/.exec(err.message);
  if (unknown) {
    const flag = unknown[1]!;
    const guess = didYouMean(flag.replace(/^-+/, '').split('=')[0]!, command.options, (o) => `--${o}`);
    return new InputError('usage.option', `Unknown option ${flag} for \`${command.name}\`.${guess}`, { hint: `Accepted: ${accepted}. See: upgrade-pilot ${command.name} --help` });
  }
  const needsValue = /Option '(?:-\w, )?--([\w-]+) <value>' argument missing/.exec(err.message);
  if (needsValue) {
    const o = options[needsValue[1] as OptionName];
    return new InputError('usage.option', `--${needsValue[1]} needs a value${o && 'value' in o ? ` (${o.value})` : ''}.`, { hint: `See: upgrade-pilot ${command.name} --help` });
  }
  const noValue = /Option '--([\w-]+)' does not take an argument/.exec(err.message);
  if (noValue) return new InputError('usage.option', `--${noValue[1]} is a switch and takes no value.`, { hint: `See: upgrade-pilot ${command.name} --help` });
  return new InputError('usage.option', err.message, { hint: `Accepted: ${accepted}.` });
}
