/**
 * Turns argv into a validated command invocation. Every mistake is an InputError (exit 2) saying
 * what was wrong and what is accepted.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { z } from 'zod';
import { InputError } from '../errors.js';
import { NsName } from '../engine/params.js';
import { commands, findCommand, options, type CommandSpec, type OptionName, type OptionSpec } from './commands.js';
import { helpRequest } from './help-request.js';
import { hoistKubectlFlags } from './kubectl-plugin.js';

export const labScenarios = ['healthy', 'skip-minor', 'lost-customizations', 'degraded', 'large', 'rook-ceph', 'repave', 'pack-error'] as const;

/** Gates that `--approve` may name. VM restarts are deliberately not among them. */
export const approvableGates = ['draft', 'publish', 'apply', 'repave', 'cancel-migrations', 'drift'] as const;

const positiveInt = (flag: string) =>
  z
    .string()
    .regex(/^\d+$/, `--${flag} takes a whole number`)
    .transform(Number)
    .refine((n) => n > 0, `--${flag} must be above 0`);

const vmRef = (flag: string) =>
  z.string().refine((v) => NsName.safeParse(v).success, { error: (iss) => `--${flag} takes NAMESPACE/NAME of a VM, got "${String(iss.input)}"` });

const splitList = (values: string[] | undefined) => (values ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);

const OptionsSchema = z.object({
  runbook: z.string().min(1).optional(),
  params: z.string().min(1).optional(),
  kubeconfig: z.string().min(1).optional(),
  context: z.string().min(1).optional(),
  'dry-run': z.boolean().default(false),
  'non-interactive': z.boolean().default(false),
  json: z.boolean().default(false),
  approve: z
    .array(z.string())
    .optional()
    .transform((v, ctx) => {
      const gates = splitList(v);
      for (const g of gates) {
        if (g === 'restart' || g === 'restarts') {
          ctx.addIssue({ code: 'custom', message: 'VM restarts are approved per VM: use --approve-restart NS/NAME or --approve-all-restarts' });
        } else if (!(approvableGates as readonly string[]).includes(g)) {
          ctx.addIssue({ code: 'custom', message: `--approve does not know the gate "${g}" (accepted: ${approvableGates.join(', ')})` });
        }
      }
      return gates;
    }),
  'approve-restart': z.array(vmRef('approve-restart')).default([]),
  'approve-all-restarts': z.boolean().default(false),
  'skip-restart': z.array(vmRef('skip-restart')).default([]),
  notify: z.array(z.string().min(1, '--notify takes a webhook URL')).default([]),
  'notify-command': z.string().min(1, '--notify-command takes a command').optional(),
  'notify-rehearsal': z.boolean().default(false),
  'notify-allow-http': z.boolean().default(false),
  junit: z.string().min(1, '--junit takes a file name').optional(),
  'state-dir': z.string().min(1).optional(),
  'api-key-file': z.string().min(1).optional(),
  'allow-insecure-http': z.boolean().default(false),
  scenario: z.enum(labScenarios, { error: (iss) => `--scenario must be one of ${labScenarios.join(', ')}, got "${String(iss.input)}"` }).optional(),
  serve: z.boolean().default(false),
  speed: z
    .string()
    .regex(/^\d+(\.\d+)?$/, '--speed takes a number such as 60')
    .transform(Number)
    .refine((n) => n > 0 && n <= 100_000, '--speed must be between 0 and 100000')
    .optional(),
  flavor: z.enum(['spec', 'palette'], { error: (iss) => `--flavor must be spec or palette, got "${String(iss.input)}"` }).optional(),
  dialect: z.enum(['spec', 'palette'], { error: (iss) => `--dialect must be spec or palette, got "${String(iss.input)}"` }).optional(),
  vms: positiveInt('vms').optional(),
  nodes: positiveInt('nodes').optional(),
  pods: positiveInt('pods').optional(),
  help: z.boolean().default(false),
});

export type CliOptions = z.output<typeof OptionsSchema>;

/** The values an option accepts when its schema names them (an enum), for completion; else undefined. */
export function optionChoices(name: OptionName): readonly string[] | undefined {
  let schema: z.ZodType | undefined = (OptionsSchema.shape as Record<string, z.ZodType>)[name];
  while (schema instanceof z.ZodOptional || schema instanceof z.ZodDefault) schema = schema.unwrap() as z.ZodType;
  return schema instanceof z.ZodEnum ? (schema.options as string[]) : undefined;
}

export interface Invocation {
  command: CommandSpec;
  options: CliOptions;
  positional?: string;
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
    throw new InputError('usage.command', `Unknown command "${first}".`, { hint: `${hint} See: upgrade-pilot --help` });
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
  const maxPositionals = command.positional ? 1 : 0;
  if (parsed.positionals.length > maxPositionals) {
    const extra = parsed.positionals[maxPositionals]!;
    throw new InputError('usage.positional', `Unexpected argument "${extra}" for \`${command.name}\`.`, { hint: `Usage: ${command.usage}` });
  }
  const result = OptionsSchema.safeParse(parsed.values);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const flag = issue.path[0] !== undefined ? `--${String(issue.path[0])}` : 'an option';
    const message = issue.message.startsWith('--') || issue.message.startsWith('VM ') ? issue.message : `${flag}: ${issue.message}`;
    throw new InputError('usage.option', message, { hint: `See: upgrade-pilot ${command.name} --help` });
  }
  if (result.data.help) return { kind: 'help', command };
  const positional = parsed.positionals[0];
  return { kind: 'run', invocation: { command, options: result.data, ...(positional !== undefined ? { positional } : {}) } };
}

function usageError(command: CommandSpec, err: Error): InputError {
  const accepted = command.options.map((n) => `--${n}`).join(', ');
  const unknown = /Unknown option '([^']+)'/.exec(err.message);
  if (unknown) {
    return new InputError('usage.option', `Unknown option ${unknown[1]} for \`${command.name}\`.`, { hint: `Accepted: ${accepted}. See: upgrade-pilot ${command.name} --help` });
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
