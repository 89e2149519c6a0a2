/** The fleet screen's shared types: what the screen reads from the running fleet, and what it shows per cluster. */
import type { AppController } from '../screens/App.js';
import type { ConfirmQueue } from '../screens/confirm-queue.js';
import type { FleetState, StopRequest } from '../fleet/types.js';

/** A cluster's session as it runs, for its row (fleet-live.ts reads it from the session state). */
export interface ClusterLive {
  /** The step running (or waiting, or failed) now. */
  step?: string;
  /** `1/2`: the hop of that step and how many the cluster climbs. */
  hop?: string;
  vms?: { migrated: number; restarted: number; outstanding: number };
  /** The verification's verdict once it ran, else `ok` or `N red` from preflight's health facts, `-` before they are read. */
  health?: string;
  /** The title of the gate this cluster waits at, when one waits for a key. */
  gate?: string;
  /** Its change is applied and not yet settled (restarts included): a halt watches it to a safe point. */
  applied?: boolean;
  /** Its rollout is being watched now (reconcile, migrations): a stop now leaves it unwatched. */
  rolling?: boolean;
}

export interface FleetScreenController {
  /** The fleet journal's state now. */
  state(): FleetState;
  /** Told of every fleet event and every change in a cluster's session; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  /** The session a cluster runs now in this process (shown and answered on the screen), if any. */
  cluster(name: string): AppController | undefined;
  /** The stage gate (`stage`) when it waits for a key. */
  stageQueue: ConfirmQueue;
  /** Palette requests waiting for the fleet's shared rate limit now. */
  rateWaiting(): number;
  /** The last fleet events, one line each (newest last). */
  events(): string[];
  /** The fleet's exit code once it has ended (its report is written by then). */
  outcome: Promise<number>;
  /** The fleet report's Markdown file, once the fleet has ended and it is written. */
  reportPath?(): string | undefined;
  /**
   * `q`, confirmed: halts the fleet (no new cluster starts, applied clusters are watched to a safe
   * point); a second: stops it now (applied clusters left unwatched, said so). What it did.
   */
  halt(): 'halt' | 'now' | 'already';
  /** Ctrl+C: stops the fleet now, as a signal does (exit 130); a second exits at once. */
  interrupt(): void;
  /** The stop asked so far, if any. */
  stopping(): StopRequest | undefined;
  /** `upgrade-pilot fleet resume --fleet FILE ...`, as it works when pasted. */
  resumeCommand: string;
  gateGuardMs?: number;
  guardClock?: () => number;
}
