/**
 * A clock the test moves by hand. Sleeps end only when the test advances time past them, so a
 * test says "the step is waiting" and "now the wait is over" as states, not as sleeps that a busy
 * machine may not keep; and `now()` reads only what the test set, so "inside the guard time" is
 * exact.
 */
import type { Clock } from '../../src/engine/clock.js';
import { InterruptedError } from '../../src/errors.js';

interface Sleeper {
  until: number;
  resolve: () => void;
}

export class ManualClock implements Clock {
  private t: number;
  private readonly sleepers = new Set<Sleeper>();
  private readonly onSleep = new Set<() => void>();

  /** Starts at the wall clock's time, so what it stamps sits after what the wall clock stamped before. */
  constructor(start = Date.now()) {
    this.t = start;
  }

  now = (): number => this.t;

  sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(new InterruptedError());
      const sleeper: Sleeper = {
        until: this.t + ms,
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.sleepers.delete(sleeper);
        reject(new InterruptedError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.sleepers.add(sleeper);
      for (const wake of [...this.onSleep]) wake();
    });

  /** How many sleeps are waiting for time to pass. */
  get sleeping(): number {
    return this.sleepers.size;
  }

  /** Resolves once at least `count` sleeps are waiting (the code under test reached its wait). */
  waitForSleepers(count = 1): Promise<void> {
    if (this.sleepers.size >= count) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const wake = () => {
        if (this.sleepers.size < count) return;
        this.onSleep.delete(wake);
        resolve();
      };
      this.onSleep.add(wake);
    });
  }

  /** Moves time forward; every sleep due by then ends (in the order they are due). */
  advance(ms: number): void {
    this.t += ms;
    const due = [...this.sleepers].filter((s) => s.until <= this.t).sort((a, b) => a.until - b.until);
    for (const s of due) {
      this.sleepers.delete(s);
      s.resolve();
    }
  }

  /**
   * Drives `work` to its end: each time it waits on this clock, time jumps to that wait's end.
   * For code that sleeps in a loop (a poll, ticks) where the test cares about the result, not about
   * each wait.
   */
  async runUntilSettled<T>(work: Promise<T>): Promise<T> {
    let done = false;
    const settled = work.finally(() => {
      done = true;
    });
    while (!done) {
      const next = await Promise.race([this.waitForSleepers(1).then(() => 'sleeping' as const), settled.then(() => 'done' as const, () => 'done' as const)]);
      if (next === 'done') break;
      const soonest = Math.min(...[...this.sleepers].map((s) => s.until));
      this.advance(Math.max(0, soonest - this.t));
    }
    return work;
  }
}
