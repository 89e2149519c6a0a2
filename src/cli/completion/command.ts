/**
 * `upgrade-pilot completion bash|zsh|fish` prints the shell's completion script, and the hidden
 * `upgrade-pilot __complete sessions [--state-dir DIR]` answers the scripts' questions that only
 * the state on disk can answer (saved session ids). The latter runs on every Tab press: it loads
 * nothing but the session folder listing, and never prints an error into the operator's line.
 * It lives with the command line it completes (the command table, the option specs), in cli/.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import { bundledRunbook } from '../../engine/bundled-runbook.js';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { completionSpec } from './spec.js';
import { zshScript } from './zsh.js';
import type { StepRegistry } from '../../engine/step-kind.js';
import { ExitCode, InputError } from '../../errors.js';
import { resolveStateDir } from '../../session/paths.js';
import { Redactor } from '../../session/redact.js';
import { SessionStore } from '../../session/store.js';

const shells = { bash: bashScript, zsh: zshScript, fish: fishScript } as const;

export function runCompletionCommand(shell: string | undefined, registry: StepRegistry, write: (s: string) => void): ExitCode {
  const render = shell !== undefined && Object.hasOwn(shells, shell) ? shells[shell as keyof typeof shells] : undefined;
  if (!render) {
    throw new InputError('usage.shell', shell ? `No completion for the shell "${shell}".` : '`completion` needs the shell to write the script for.', {
      hint: `Run: upgrade-pilot completion ${Object.keys(shells).join('|')}`,
    });
  }
  const gates = registry.all().flatMap((k) => (k.gate ? [k.gate] : []));
  write(render(completionSpec(gates, 'upgrade-pilot', fixableRules())).trimEnd());
  return ExitCode.ok;
}

/** The bundled runbook's rules that say what value must hold (the ones a fix can be offered for). */
function fixableRules(): string[] {
  try {
    const doc = parse(readFileSync(bundledRunbook(), 'utf8')) as { rules?: Array<{ id?: unknown; assert?: unknown; packs?: Record<string, { assert?: unknown }> }> };
    const fixable = (a: unknown) => a === 'equals' || a === 'contains';
    return (doc.rules ?? []).filter((r) => typeof r.id === 'string' && (fixable(r.assert) || Object.values(r.packs ?? {}).some((p) => fixable(p.assert)))).map((r) => r.id as string);
  } catch {
    return [];
  }
}

/**
 * `__complete sessions|resumable [--state-dir DIR]`: saved session ids, newest first, one a line;
 * `resumable`, only those `resume` can continue (not done, readable, not of an ended embedded lab).
 */
export function runCompleteHelper(args: string[], env: NodeJS.ProcessEnv, write: (s: string) => void): ExitCode {
  try {
    const { values, positionals } = parseArgs({ args, options: { 'state-dir': { type: 'string' } }, allowPositionals: true, strict: false });
    const which = positionals[0];
    if (which !== 'sessions' && which !== 'resumable') return ExitCode.ok;
    const dir = typeof values['state-dir'] === 'string' ? values['state-dir'] : undefined;
    const store = new SessionStore(resolveStateDir(dir, env), new Redactor());
    const ids = which === 'resumable' ? store.resumable().map((s) => s.id) : store.ids().reverse();
    for (const id of ids) write(id);
  } catch {
    // An unreadable folder completes to nothing: the shell's line is no place for an error.
  }
  return ExitCode.ok;
}
