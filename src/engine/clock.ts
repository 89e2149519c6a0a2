/** Time, injected so tests and the lab can control it. */
import { InterruptedError } from '../errors.js';

export interface Clock {
  now(): number;
  /** Resolves after `ms`; rejects with InterruptedError when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Set when this clock is not the wall clock (the lab's accelerated time): how its time is labelled
   * on screen, how much faster than the wall it runs, and conversions between its times and
   * wall-clock times, so records of the cluster's times can be reported as wall times.
   */
  simulated?: { label: string; speed(): number; toWall(t: number): number; fromWall(wall: number): number };
}

/** A time of `clock` (e.g. a cluster timestamp) as wall-clock milliseconds. */
export const wallOf = (clock: Pick<Clock, 'simulated'>, t: number): number => (clock.simulated ? clock.simulated.toWall(t) : t);

/** A wall-clock time (e.g. a journal time) in `clock`'s time. */
export const clockTimeOf = (clock: Pick<Clock, 'simulated'>, wall: number): number => (clock.simulated ? clock.simulated.fromWall(wall) : wall);

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(new InterruptedError());
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(new InterruptedError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

export const isoNow = (clock: Clock): string => new Date(clock.now()).toISOString();
