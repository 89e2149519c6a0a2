/**
 * The fleet's notifications, wired from one place: the session notifier (`--notify`,
 * `--notify-command`, the params' `notify:` of the fleet's defaults) told of each stage's start,
 * its approval waiting, its end, and the fleet's end. Each cluster's session keeps its own off
 * (cluster-run.ts strips the flags, the frozen params leave out `notify:`): a 200-cluster fleet
 * sends a few messages per stage, not a few per cluster.
 */
import type { NotifyConfig } from '../notify/config.js';
import { notifies } from '../notify/config.js';
import { Notifier } from '../notify/notifier.js';
import { fleetEndMessage, fleetEventMessage, type FleetEventLike } from './notify-message.js';
import type { FleetState } from './types.js';

export interface FleetNotifications {
  /** A coordinator event (the ones not notified are ignored). Returns at once. */
  event(e: FleetEventLike, state: FleetState): void;
  ended(state: FleetState, exitCode: number, report: string): void;
  flush(): Promise<void>;
}

export interface FleetNotificationsOptions {
  config: NotifyConfig;
  /** The command that continues the fleet (`upgrade-pilot fleet resume --fleet FILE ...`). */
  resume: string;
  interactive: boolean;
  log(message: string): void;
  redact(text: string): string;
}

export function startFleetNotifications(o: FleetNotificationsOptions): FleetNotifications {
  const notifier = notifies(o.config, false) ? new Notifier(o.config, { log: o.log, redact: o.redact }) : undefined;
  return {
    event(e, state) {
      const m = notifier && fleetEventMessage(e, state, { interactive: o.interactive, resume: o.resume });
      if (m) notifier!.send(m);
    },
    ended(state, exitCode, report) {
      notifier?.send(fleetEndMessage(state, exitCode, { resume: o.resume, report }));
    },
    flush: () => notifier?.flush() ?? Promise.resolve(),
  };
}
