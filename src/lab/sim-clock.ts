/**
 * Simulated time for the lab's world: a discrete-event clock paced `speed` times faster than the
 * wall clock. Tests can jump it forward with `advance`.
 *
 * The lab's outcomes must not depend on how busy the machine is. So lab time never passes an event
 * that has not happened yet: `now()` is the paced time, held at the earliest pending timer until
 * that timer has fired, and a timer fires at its own due time (whatever runs in it reads that time,
 * and what it schedules counts from it). A late wall-clock timer therefore delays the world, it never
 * reorders or compresses it: a migration that takes 40 lab-seconds takes 40 lab-seconds, and a
 * timeout measured against it in lab time fires after it, not before, on a quiet or a starved
 * machine alike. Timers due at the same time fire in the order they were set.
 */

interface Timer {
  id: number;
  due: number;
  fn: () => void;
  every?: number;
}

/** Earliest due first; among equals, the one set first. */
const before = (a: Timer, b: Timer): boolean => a.due < b.due || (a.due === b.due && a.id < b.id);

/** A binary min-heap of timers: a lab of thousands of VMs keeps thousands of them. */
class TimerHeap {
  private items: Timer[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): Timer | undefined {
    return this.items[0];
  }

  push(t: Timer): void {
    const a = this.items;
    a.push(t);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(a[i]!, a[p]!)) break;
      [a[i], a[p]] = [a[p]!, a[i]!];
      i = p;
    }
  }

  pop(): Timer | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && before(a[l]!, a[m]!)) m = l;
        if (r < a.length && before(a[r]!, a[m]!)) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m]!, a[i]!];
        i = m;
      }
    }
    return top;
  }

  clear(): void {
    this.items = [];
  }
}

export class SimClock {
  private base: number;
  private realBase: number;
  private offset = 0;
  private readonly heap = new TimerHeap();
  /** Ids of live timers; a cancelled timer stays in the heap until it reaches the top. */
  private readonly live = new Set<number>();
  private nextId = 1;
  private handle: NodeJS.Timeout | undefined;
  private stopped = false;
  /** The lab time of the timer being fired, while it runs. */
  private firing: number | undefined;
  /** The latest time `now()` answered: lab time never goes back. */
  private last: number;

  constructor(
    private speed: number,
    start: number = Date.now(),
  ) {
    this.base = start;
    this.realBase = Date.now();
    this.last = start;
  }

  now(): number {
    if (this.firing !== undefined) return this.firing;
    const next = this.earliest();
    const t = Math.max(this.last, next ? Math.min(this.paced(), next.due) : this.paced());
    this.last = t;
    return t;
  }

  getSpeed(): number {
    return this.speed;
  }

  setSpeed(speed: number): void {
    this.base = this.paced() - this.offset;
    this.realBase = Date.now();
    this.speed = speed;
    this.schedule();
  }

  /** Jumps simulated time forward, firing every timer that comes due on the way, in order. */
  advance(ms: number): void {
    const target = this.now() + ms;
    this.runUntil(target);
    this.offset += Math.max(0, target - this.paced());
    this.last = Math.max(this.last, target);
    this.schedule();
  }

  after(simMs: number, fn: () => void): number {
    return this.add({ id: this.nextId++, due: this.now() + simMs, fn });
  }

  every(simMs: number, fn: () => void): number {
    return this.add({ id: this.nextId++, due: this.now() + simMs, fn, every: simMs });
  }

  cancel(id: number): void {
    if (this.live.delete(id)) this.schedule();
  }

  stop(): void {
    this.stopped = true;
    this.heap.clear();
    this.live.clear();
    if (this.handle) clearTimeout(this.handle);
    this.handle = undefined;
  }

  /** Timers pending (for tests and the lab's own checks). */
  pending(): number {
    return this.live.size;
  }

  /** Where the wall clock alone would put lab time. */
  private paced(): number {
    return this.base + (Date.now() - this.realBase) * this.speed + this.offset;
  }

  /** The earliest live timer, dropping cancelled ones from the top of the heap. */
  private earliest(): Timer | undefined {
    for (let t = this.heap.peek(); t; t = this.heap.peek()) {
      if (this.live.has(t.id)) return t;
      this.heap.pop();
    }
    return undefined;
  }

  private add(t: Timer): number {
    if (this.stopped) return t.id;
    this.live.add(t.id);
    this.heap.push(t);
    this.schedule();
    return t.id;
  }

  /** Fires, in order, every timer due at or before `limit`, including those the fired ones set. */
  private runUntil(limit: number): void {
    for (let t = this.earliest(); t && t.due <= limit && !this.stopped; t = this.earliest()) {
      this.heap.pop();
      const at = Math.max(t.due, this.last);
      if (t.every) {
        t.due += t.every;
        this.heap.push(t);
      } else {
        this.live.delete(t.id);
      }
      this.last = at;
      this.firing = at;
      try {
        t.fn();
      } finally {
        this.firing = undefined;
      }
    }
  }

  /** One real timer for the earliest simulated deadline. */
  private schedule(): void {
    if (this.firing !== undefined) return; // the firing loop reschedules once it is done
    if (this.handle) clearTimeout(this.handle);
    this.handle = undefined;
    const next = this.stopped ? undefined : this.earliest();
    if (!next) return;
    // Bounded: Node takes at most 2^31-1 ms, and a held clock (a tiny speed) would ask for more.
    const realDelay = Math.min(2 ** 31 - 1, Math.max(1, (next.due - this.paced()) / this.speed));
    this.handle = setTimeout(() => {
      this.handle = undefined;
      this.runUntil(this.paced());
      this.schedule();
    }, realDelay);
    this.handle.unref();
  }
}
