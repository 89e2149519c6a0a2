import { commands, options, type CommandSpec, type OptionSpec } from './commands.js';

const pad = (s: string, n: number) => (s.length >= n ? `${s}  ` : s.padEnd(n));

export function generalHelp(version: string): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 4;
  return [
    `upgrade-pilot ${version}: the VM orchestration pack (KubeVirt) upgrade runbook, step by step`,
    '',
    'Usage: upgrade-pilot <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${pad(c.name, width)}${c.summary}`),
    '',
    'The API key comes from $UPGRADE_PILOT_API_KEY or --api-key-file, never from a flag value.',
    'Exit codes: 0 done/all green, 1 a step or check failed, 2 bad usage or input,',
    '            3 stopped at a gate awaiting approval, 4 environment unreachable or unauthorized, 130 interrupted.',
    '',
    'Run `upgrade-pilot <command> --help` for a command\'s options. Try it safely: npm start (the embedded lab).',
  ].join('\n');
}

export function commandHelp(command: CommandSpec): string {
  const rows: Array<[string, string]> = command.options.map((name) => {
    const o: OptionSpec = options[name];
    return [`--${name}${o.value ? ` ${o.value}` : ''}`, o.description];
  });
  if (command.positional) rows.unshift([`[${command.positional.name}]`, command.positional.description]);
  const width = Math.max(...rows.map(([l]) => l.length)) + 2;
  return [
    `Usage: ${command.usage}`,
    '',
    command.summary,
    ...command.details.map((d) => `  ${d}`),
    '',
    'Options:',
    ...rows.map(([l, d]) => `  ${pad(l, width)}${d}`),
  ].join('\n');
}
