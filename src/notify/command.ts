/**
 * Delivers one message to a command: the program runs without a shell (nothing in the message is
 * ever interpolated into a command line), reads the JSON on its stdin, and gets the event and the
 * session in its environment. It runs in its own process group, which is killed whole at the time
 * limit (a hook that starts `curl` and hangs leaves nothing behind). A fleet's messages carry the
 * fleet's name (UPGRADE_PILOT_FLEET) instead of a session. The profile API key is not in
 * its environment.
 */
import { execa } from 'execa';
import { sanitizeText } from '../text/sanitize.js';
import { DeliveryError } from './webhook.js';

const KILL_GRACE_MS = 1_000;

function envWithoutKey(extra: Record<string, string>): NodeJS.ProcessEnv {
  const { UPGRADE_PILOT_API_KEY: _key, ...rest } = process.env;
  return { ...rest, ...extra };
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

export async function runNotifyCommand(command: string[], body: string, env: { event: string; session?: string; fleet?: string }, timeoutMs: number, signal: AbortSignal): Promise<void> {
  const [file, ...args] = command;
  if (!file) throw new DeliveryError('no command', false);
  const child = execa(file, args, {
    input: body,
    detached: true,
    extendEnv: false,
    env: envWithoutKey({ UPGRADE_PILOT_EVENT: env.event, ...(env.session ? { UPGRADE_PILOT_SESSION: env.session } : {}), ...(env.fleet ? { UPGRADE_PILOT_FLEET: env.fleet } : {}) }),
    stdout: 'ignore',
    stderr: 'pipe',
    maxBuffer: { stderr: 16_384 },
    reject: false,
  });
  let reason: string | undefined;
  const stop = (why: string) => {
    reason ??= why;
    killGroup(child.pid, 'SIGTERM');
    setTimeout(() => killGroup(child.pid, 'SIGKILL'), KILL_GRACE_MS).unref();
  };
  const timer = setTimeout(() => stop(`did not finish within ${Math.round(timeoutMs / 100) / 10}s (its process group was killed)`), timeoutMs);
  const onAbort = () => stop('abandoned at the end of the run (its process group was killed)');
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const result = await child;
    if (reason) throw new DeliveryError(reason, !signal.aborted);
    if (result.failed) {
      const why = result.exitCode !== undefined ? `exited with ${result.exitCode}` : (result.shortMessage ?? 'failed');
      const said = typeof result.stderr === 'string' && result.stderr.trim() ? `: ${sanitizeText(result.stderr.trim().split('\n')[0]!, { max: 200 })}` : '';
      throw new DeliveryError(`${why}${said}`, false);
    }
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}
