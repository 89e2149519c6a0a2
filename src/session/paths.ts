import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** `--state-dir`, else `$XDG_STATE_HOME/upgrade-pilot`, else `~/.local/state/upgrade-pilot`. */
export function resolveStateDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (flag) return resolve(flag);
  const xdg = env.XDG_STATE_HOME;
  if (xdg && xdg.startsWith('/')) return join(xdg, 'upgrade-pilot');
  return join(homedir(), '.local', 'state', 'upgrade-pilot');
}
