/**
 * Sends notifications off the run's path: `send` returns at once and never throws; each target
 * (a webhook, the command) gets its messages in order, each message bounded in time over all its
 * attempts; a target's failure is logged once, then only counted. At the end of the run `flush`
 * waits for what is in flight, at most one message's bound, and abandons the rest.
 */
import { runNotifyCommand } from './command.js';
import { shownUrl, type NotifyConfig } from './config.js';
import type { NotifyMessage } from './message.js';

/** What the notifier sends: a session's message, or a fleet's (src/fleet/notify.ts), each a small JSON object. */
export type Sendable = Pick<NotifyMessage, 'event' | 'text' | 'at'> | { event: string; text: string; at: string; session?: string; fleet?: string };
import { DeliveryError, postWebhook } from './webhook.js';
import { sentence } from '../text/sentence.js';
import { formatDuration } from '../text/duration.js';

export interface NotifierDeps {
  /** One line for the operator (the run's log). */
  log(message: string): void;
  /** Removes secrets from the message (the redactor knows the API key). */
  redact(text: string): string;
}

interface Target {
  name: string;
  deliver(body: string, message: Sendable, timeoutMs: number, signal: AbortSignal): Promise<void>;
  chain: Promise<void>;
  queued: number;
  failures: number;
  dropped: number;
}

/** Messages waiting per target; beyond it new ones are dropped (a dead target must not pile up work). */
const QUEUE_LIMIT = 20;
const RETRY_PAUSE_MS = 500;

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

export class Notifier {
  private readonly targets: Target[];
  private readonly abandon = new AbortController();

  constructor(
    private readonly config: NotifyConfig,
    private readonly deps: NotifierDeps,
  ) {
    const target = (name: string, deliver: Target['deliver']): Target => ({ name, deliver, chain: Promise.resolve(), queued: 0, failures: 0, dropped: 0 });
    this.targets = [
      ...config.webhooks.map((url) => target(`webhook ${shownUrl(url)}`, (body, _m, ms, signal) => postWebhook(url, body, ms, signal))),
      ...(config.command ? [target(`command ${config.command[0]}`, (body, m, ms, signal) => runNotifyCommand(config.command!, body, { event: m.event, ...('session' in m && m.session ? { session: m.session } : {}), ...('fleet' in m && m.fleet ? { fleet: m.fleet } : {}) }, ms, signal))] : []),
    ];
  }

  get size(): number {
    return this.targets.length;
  }

  send(message: Sendable): void {
    const body = this.deps.redact(JSON.stringify(message));
    for (const t of this.targets) {
      if (this.abandon.signal.aborted) return;
      if (t.queued >= QUEUE_LIMIT) {
        t.dropped += 1;
        continue;
      }
      t.queued += 1;
      t.chain = t.chain.then(() => this.deliver(t, body, message)).finally(() => (t.queued -= 1));
    }
  }

  /** Waits for the deliveries in flight, at most one message's bound; then abandons what is left. */
  async flush(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), this.config.totalMs)));
    const all = Promise.all(this.targets.map((t) => t.chain)).then(() => 'settled' as const);
    const result = await Promise.race([all, bound]);
    clearTimeout(timer);
    if (result === 'late') {
      const late = this.targets.filter((t) => t.queued > 0).map((t) => t.name);
      this.deps.log(`Notifications still being sent after ${formatDuration(this.config.totalMs)} were abandoned (${late.join(', ')}).`);
    }
    this.abandon.abort();
    await all;
    for (const t of this.targets) if (t.dropped) this.deps.log(`Notification ${t.name}: ${t.dropped} message(s) dropped while it was not answering.`);
  }

  private async deliver(t: Target, body: string, message: Sendable): Promise<void> {
    const { attemptMs, totalMs } = this.config;
    const started = Date.now();
    const signal = this.abandon.signal;
    for (let attempt = 1; ; attempt++) {
      if (signal.aborted) return;
      const left = totalMs - (Date.now() - started);
      try {
        await t.deliver(body, message, Math.min(attemptMs, left), signal);
        return;
      } catch (err) {
        const e = err instanceof DeliveryError ? err : new DeliveryError((err as Error).message, false);
        const again = e.transient && attempt < 2 && totalMs - (Date.now() - started) > RETRY_PAUSE_MS + 1_000;
        if (again) {
          await pause(RETRY_PAUSE_MS, signal);
          continue;
        }
        t.failures += 1;
        if (t.failures === 1 && !signal.aborted) this.deps.log(`Notification (${message.event}) to ${t.name} failed: ${sentence(e.message)} Further failures of this target are not logged.`);
        return;
      }
    }
  }
}
