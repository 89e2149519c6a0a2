/**
 * upgrade-pilot as a kubectl plugin: npm installs the same bin a second time as
 * `kubectl-upgrade_pilot`, which kubectl runs for `kubectl upgrade-pilot …`. kubectl hands over every
 * word after the plugin's name untouched and adds nothing: `$KUBECONFIG` stays the operator's, read
 * by kubectl (and by upgrade-pilot's own kubeconfig checks) the way kubectl reads it, and
 * `--kubeconfig`/`--context` arrive as they were typed. kubectl accepts its flags anywhere, so
 * `kubectl upgrade-pilot --context prod verify` must work too: flags given before the command are
 * moved after it, where the command's options are parsed.
 */
import { basename } from 'node:path';

/** kubectl's own flags that upgrade-pilot's commands take with the same meaning. */
const kubectlFlags = new Set(['--kubeconfig', '--context']);

/** `--context X verify …` → `verify --context X …`; anything else is returned as it is. */
export function hoistKubectlFlags(argv: string[]): string[] {
  const leading: string[] = [];
  let i = 0;
  while (i < argv.length && kubectlFlags.has(argv[i]!.split('=')[0]!)) {
    const word = argv[i]!;
    if (word.includes('=')) {
      leading.push(word);
      i += 1;
    } else {
      if (i + 1 >= argv.length) break;
      leading.push(word, argv[i + 1]!);
      i += 2;
    }
  }
  // Nothing moved, or no command after the flags: the parser says what is missing.
  if (leading.length === 0 || i >= argv.length) return argv;
  return [argv[i]!, ...leading, ...argv.slice(i + 1)];
}

/** How the operator invoked the tool, from the executable's name: help and hints then speak the same way. */
export function programName(executable: string | undefined): string {
  return executable && basename(executable).startsWith('kubectl-') ? 'kubectl upgrade-pilot' : 'upgrade-pilot';
}

/** Help text written for `upgrade-pilot` as `program` would be typed. */
export function forProgram(text: string, program: string): string {
  return program === 'upgrade-pilot' ? text : text.replace(/(^|[\s`(])upgrade-pilot(?= )/gm, `$1${program}`);
}
