/**
 * Simulated time for the lab's world: runs `speed` times faster than the wall clock, and tests can
 * jump it forward with `advance` to make reconciliation and migrations happen deterministically.
 */

interface Timer {
  id: number;
  due: number;
  fn: () => void;
  every?: number;
}

export class SimClock {
  private base: number;
  private realBase: number;
  private offset = 0;
  private timers: Timer[] = [];
  private nextId = 1;
  private handle: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private speed: number,
    start: number = Date.now(),
  ) {
    this.base = start;
    this.realBase = Date.now();
  }

  now(): number {
    return this.base + (Date.now() - this.realBase) * this.speed + this.offset;
  }

  getSpeed(): number {
    return this.speed;
  }

  setSpeed(speed: number): void {
    this.base = this.now() - this.offset;
    this.realBase = Date.now();
    this.speed = speed;
    this.schedule();
  }

  /** Jumps simulated time forward, firing every timer that comes due on the way, in order. */
  advance(ms: number): void {
    const target = this.now() + ms;
    for (;;) {
      const next = this.timers.reduce<Timer | undefined>((a, t) => (!a || t.due < a.due ? t : a), undefined);
      if (!next || next.due > target) break;
      this.offset += Math.max(0, next.due - this.now());
      this.fire(next);
    }
    this.offset += Math.max(0, target - this.now());
    this.schedule();
  }

  after(simMs: number, fn: () => void): number {
    return this.add({ id: this.nextId++, due: this.now() + simMs, fn });
  }

  every(simMs: number, fn: () => void): number {
    return this.add({ id: this.nextId++, due: this.now() + simMs, fn, every: simMs });
  }

  cancel(id: number): void {
    this.timers = this.timers.filter((t) => t.id !== id);
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    this.timers = [];
    if (this.handle) clearTimeout(this.handle);
  }

  private add(t: Timer): number {
    this.timers.push(t);
    this.schedule();
    return t.id;
  }

  private fire(t: Timer): void {
    if (t.every) t.due += t.every;
    else this.timers = this.timers.filter((x) => x !== t);
    t.fn();
  }

  /** One real timer for the earliest simulated deadline. */
  private schedule(): void {
    if (this.handle) clearTimeout(this.handle);
    this.handle = undefined;
    if (this.stopped || this.timers.length === 0) return;
    const next = Math.min(...this.timers.map((t) => t.due));
    const realDelay = Math.max(5, (next - this.now()) / this.speed);
    this.handle = setTimeout(() => {
      const now = this.now();
      for (const t of [...this.timers].sort((a, b) => a.due - b.due)) if (t.due <= now) this.fire(t);
      this.schedule();
    }, realDelay);
    this.handle.unref();
  }
}
