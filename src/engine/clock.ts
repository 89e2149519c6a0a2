/** Time, injected so tests and the lab can control it. */
import { InterruptedError } from '../errors.js';

export interface Clock {
  now(): number;
  /** Resolves after `ms`; rejects with InterruptedError when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** A simulated clock (the lab's): how its time is labelled on screen, and how much faster than the wall it runs. */
  simulated?: { label: string; speed(): number };
}

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
