/**
 * How busy the machine was with work that is not this benchmark's: the CPU time of the whole
 * machine (/proc/stat) minus this process's own, its finished children's (reaped, so counted in
 * cutime/cstime) and its live children's (the lab servers), over a section. Reported as the
 * average number of cores others used: on a 2-core machine, 0.5 means a quarter of it was taken.
 */
import { readFileSync } from 'node:fs';

export interface CpuMark {
  at: number;
  /** Busy jiffies of the whole machine. */
  machine: number;
  /** Jiffies of this process, its reaped children and the live pids given. */
  ours: number;
}

const ticksPerSecond = 100; // USER_HZ on Linux

function machineBusy(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number) as number[];
  return user! + nice! + system! + irq! + softirq! + steal!;
}

/** utime + stime (+ cutime + cstime when `children`) of a process, in jiffies; 0 when it is gone. */
function processTicks(pid: number | 'self', children: boolean): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state): utime is field 14, stime 15, cutime 16, cstime 17
    const f = (n: number) => Number(fields[n - 3]);
    return f(14) + f(15) + (children ? f(16) + f(17) : 0);
  } catch {
    return 0;
  }
}

/** Undefined where /proc is not there (the figure is then not reported). */
export function cpuMark(livePids: readonly number[]): CpuMark | undefined {
  try {
    return { at: performance.now(), machine: machineBusy(), ours: processTicks('self', true) + livePids.reduce((n, p) => n + processTicks(p, true), 0) };
  } catch {
    return undefined;
  }
}

/**
 * Average cores used by others between two marks. A live child that ended in between is counted in
 * `ours` through cutime at the end but not at the start, so pass the same pids to both marks.
 */
export function othersCores(start: CpuMark | undefined, end: CpuMark | undefined): number | undefined {
  if (!start || !end || end.at <= start.at) return undefined;
  const others = end.machine - start.machine - (end.ours - start.ours);
  return Math.max(0, others / ticksPerSecond / ((end.at - start.at) / 1000));
}
