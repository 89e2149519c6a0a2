/**
 * The command that continues a session, exactly as it works when pasted: `upgrade-pilot resume ID`,
 * with `--state-dir DIR` when the sessions are not where `resume` looks by default.
 */
import { resolveStateDir } from '../session/paths.js';

/** Quotes a shell word only when it needs it. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** ` --state-dir DIR` when the flag points elsewhere than the default for this environment, else ''. */
export function stateDirFlag(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  if (!flag) return '';
  const dir = resolveStateDir(flag, env);
  return dir === resolveStateDir(undefined, env) ? '' : ` --state-dir ${shellWord(dir)}`;
}

export function resumeCommand(sessionId: string, stateDir: string | undefined, env: NodeJS.ProcessEnv, extra: string[] = []): string {
  return [`upgrade-pilot resume ${shellWord(sessionId)}${stateDirFlag(stateDir, env)}`, ...extra].join(' ');
}
