/**
 * The lab's clock as the tool's clock in tests that run the product in the same process as the lab:
 * ages, time-outs and poll intervals in the cluster's time, and every sleep a timer of the lab's own
 * clock. So the tool wakes at exactly the lab time it asked for, after every event of the world due
 * before it, however late a busy machine runs the wall-clock timers; and a test that holds the lab's
 * clock holds the tool's waits too, then moves both a step at a time (`steps()`).
 */
import { type Clock } from '../../src/engine/clock.js';
import { InterruptedError } from '../../src/errors.js';
import type { SimClock } from '../../src/lab/sim-clock.js';
import { until } from './wait.js';

export interface LabTimeClock extends Clock {
  /** How many of the tool's waits are under way (the tool is idle, waiting on lab time, when > 0). */
  sleeping(): number;
}

export function labTime(sim: SimClock): LabTimeClock {
  let sleeping = 0;
  return {
    now: () => sim.now(),
    sleeping: () => sleeping,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(new InterruptedError());
        sleeping += 1;
        const done = () => {
          sleeping -= 1;
          signal?.removeEventListener('abort', onAbort);
        };
        const id = sim.after(Math.max(0, ms), () => {
          done();
          resolve();
        });
        const onAbort = () => {
          sim.cancel(id);
          done();
          reject(new InterruptedError());
        };
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
  };
}

/** A clock that does not move with the wall (only `advance` moves it): a speed that is all but zero. */
export const HELD_SPEED = 1e-9;

/**
 * Moves a held lab a step at a time, each step once the tool is waiting on lab time again (its
 * reads of the last step done, its state recorded): what the tool reads at each step is the world at
 * exactly that lab time, on a quiet machine or a busy one.
 */
export function steps(sim: SimClock, clock: LabTimeClock, ended: () => boolean = () => false) {
  return {
    /**
     * Until the tool waits on lab time, or has ended (and what it did before is drawn: a turn of the
     * event loop).
     */
    async idle(): Promise<void> {
      await until('the tool to wait on lab time', () => clock.sleeping() > 0 || ended(), 60_000);
      await new Promise((r) => setImmediate(r));
    },
    async advance(ms: number): Promise<void> {
      await this.idle();
      sim.advance(ms);
      // The tool wakes, reads, and waits again.
      await new Promise((r) => setImmediate(r));
      await this.idle();
    },
  };
}
