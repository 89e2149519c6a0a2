/**
 * The run's notifications, wired from one place: a `gate` message when a gate starts waiting for
 * the operator (the TUI's gates; plain mode never waits, it stops), the end of the run (`done`,
 * `failed`, `stopped`), and the TUI's bell for a gate after a long stretch without a key. Nothing
 * is sent in a rehearsal unless asked.
 */
import type { RunOutcome } from '../engine/runner.js';
import type { SessionState } from '../engine/state.js';
import type { ConfirmQueue } from '../screens/confirm-queue.js';
import { notifies, type NotifyConfig } from './config.js';
import type { GateAttentionProps } from './GateAttention.js';
import { endMessage, gateMessage } from './message.js';
import { Notifier } from './notifier.js';

export interface RunNotifications {
  /** The run ended: tell the targets (returns at once). */
  ended(outcome: RunOutcome, exitCode: number): void;
  /** Waits for the deliveries still under way, bounded; call before the process ends. */
  flush(): Promise<void>;
  /** Props for the TUI's GateAttention, when the bell is on and stdout is a terminal. */
  attention?: GateAttentionProps;
}

export interface NotificationsOptions {
  config: NotifyConfig;
  rehearsal: boolean;
  queue: ConfirmQueue;
  state: () => SessionState;
  log: (message: string) => void;
  redact: (text: string) => string;
  interactive: boolean;
  stdout: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
}

export function startNotifications(o: NotificationsOptions): RunNotifications {
  const on = notifies(o.config, o.rehearsal);
  const notifier = on ? new Notifier(o.config, { log: o.log, redact: o.redact }) : undefined;
  const unsubscribe = notifier ? o.queue.subscribe((request) => request && notifier.send(gateMessage(o.state(), request))) : () => undefined;
  const bell = o.interactive && o.stdout.isTTY && o.config.bellAfterMs !== undefined && (!o.rehearsal || o.config.rehearsal);
  const state = o.state();
  return {
    ended(outcome, exitCode) {
      unsubscribe();
      if (!notifier) return;
      const error = outcome.status === 'done' ? undefined : 'toInfo' in outcome.error ? outcome.error.toInfo() : outcome.error;
      notifier.send(endMessage(o.state(), { status: outcome.status, exitCode, ...(error ? { message: error.message, ...(error.hint ? { hint: error.hint } : {}) } : {}) }));
    },
    flush: () => notifier?.flush() ?? Promise.resolve(),
    ...(bell
      ? {
          attention: {
            queue: o.queue,
            afterMs: o.config.bellAfterMs!,
            write: (s: string) => void o.stdout.write(s),
            env: o.env,
            clusterName: state.meta.cluster.name ?? state.meta.cluster.uid ?? 'the cluster',
          },
        }
      : {}),
  };
}
