/**
 * The lab's clock is a discrete-event clock paced by the wall: lab time never passes a timer that has
 * not fired, a timer runs at its own due time, and what it schedules counts from that time, however
 * late the wall-clock timer behind it fired.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SimClock } from '../../src/lab/sim-clock.js';

const clocks: SimClock[] = [];
const clock = (speed: number, start = 1_000_000): SimClock => {
  const c = new SimClock(speed, start);
  clocks.push(c);
  return c;
};
afterEach(() => {
  for (const c of clocks.splice(0)) c.stop();
});

/** Holds the event loop, as another process on a busy core does. */
const hog = (ms: number) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    /* busy */
  }
};
const settle = (pred: () => boolean) =>
  new Promise<void>((resolve) => {
    const poll = () => (pred() ? resolve() : setTimeout(poll, 2));
    poll();
  });

describe('SimClock', () => {
  it('advance fires due timers in order, each at its own time, and what they schedule counts from it', () => {
    const c = clock(1e-9);
    const seen: Array<[string, number]> = [];
    const t0 = c.now();
    c.after(3000, () => seen.push(['b', c.now() - t0]));
    c.after(1000, () => {
      seen.push(['a', c.now() - t0]);
      c.after(500, () => seen.push(['a+500', c.now() - t0]));
    });
    c.after(1000, () => seen.push(['a2', c.now() - t0]));
    c.advance(10_000);
    // The clock's own pace (1e-9 of real time) may add a nanosecond between t0 and a scheduling.
    expect(seen.map(([name, at]) => [name, Math.round(at)])).toEqual([
      ['a', 1000],
      ['a2', 1000],
      ['a+500', 1500],
      ['b', 3000],
    ]);
    expect(c.now() - t0).toBeCloseTo(10_000, 3);
  });

  it('every repeats on its own grid; cancel stops a timer; pending counts the live ones', () => {
    const c = clock(1e-9);
    const t0 = c.now();
    const ticks: number[] = [];
    const id = c.every(1000, () => ticks.push(c.now() - t0));
    const gone = c.after(1500, () => ticks.push(-1));
    expect(c.pending()).toBe(2);
    c.cancel(gone);
    c.advance(3500);
    c.cancel(id);
    c.advance(5000);
    expect(ticks.map(Math.round)).toEqual([1000, 2000, 3000]);
    expect(c.pending()).toBe(0);
  });

  it('lab time never passes a pending timer, however late the wall-clock timer behind it fires', async () => {
    const c = clock(1000); // a lab second a wall millisecond
    const t0 = c.now();
    let firedAt: number | undefined;
    let next: number | undefined;
    c.after(50, () => {
      firedAt = c.now() - t0;
      c.after(20, () => (next = c.now() - t0));
    });
    hog(100); // 100 lab seconds of wall time go by with the timer due at 50 ms unfired
    expect(c.now() - t0).toBe(50);
    await settle(() => next !== undefined);
    expect(firedAt).toBe(50);
    expect(next).toBe(70);
    // With nothing pending, lab time catches up with the wall.
    expect(c.now() - t0).toBeGreaterThan(100_000);
  });

  it('never goes back, through jumps and speed changes', () => {
    const c = clock(60);
    let last = c.now();
    for (let i = 0; i < 50; i++) {
      if (i % 7 === 0) c.setSpeed(1 + (i % 3) * 100);
      if (i % 5 === 0) c.advance(i * 10);
      if (i % 3 === 0) c.after(i, () => undefined);
      const t = c.now();
      expect(t).toBeGreaterThanOrEqual(last);
      last = t;
    }
  });
});
