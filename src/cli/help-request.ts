/**
 * Is the command line only asking for help or the version? Answered from the command table alone,
 * so `upgrade-pilot --help` starts as fast as Node itself allows: the option schemas (zod) load
 * only for a command that runs (BENCHMARKS.md, "--help"). `parseCommandLine` asks the same first.
 */
import { findCommand, type CommandSpec } from './commands.js';

export type HelpRequest = { kind: 'help'; command?: CommandSpec } | { kind: 'version' };

export function helpRequest(argv: readonly string[]): HelpRequest | undefined {
  const [first, second] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    const topic = first === 'help' && second ? findCommand(second) : undefined;
    return topic ? { kind: 'help', command: topic } : { kind: 'help' };
  }
  if (first === '--version' || first === '-V') return { kind: 'version' };
  // `<command> --help` alone; with other options too, the parser checks them first.
  const command = findCommand(first);
  if (command && argv.length === 2 && (second === '--help' || second === '-h')) return { kind: 'help', command };
  return undefined;
}
