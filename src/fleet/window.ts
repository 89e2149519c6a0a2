/**
 * A stage's maintenance window (`stages[].window: { days: [Sat, Sun], start: "02:00", hours: 4,
 * timeZone: Europe/Berlin }`), and when a cluster may start in it: only inside it, and only when its
 * predicted duration fits in the time left (AKS planned maintenance and TALM's timeout work the same
 * way: a run that would overrun the window waits for the next). Pure.
 *
 * The window is the VM restart window of issue 27 (domain/impact/vm-limits.ts) under another
 * spelling: days it opens on, a start and an end in the zone's own clock. `hours` is wall time in the
 * zone: 02:00 for 4 hours is 02:00-06:00 local, which the night clocks spring forward lasts 3 hours
 * and the night they fall back 5. Past midnight it ends the next day.
 */
import { inWindow, nextOpening, parseRestartWindow, type RestartWindow } from '../domain/impact/vm-limits.js';

export interface StageWindowSpec {
  days: string[];
  start: string;
  hours: number;
  timeZone: string;
}

const MINUTE = 60_000;
const hhmm = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

/** The window, or what is wrong with it (a sentence saying how to write it). */
export function stageWindow(spec: StageWindowSpec): RestartWindow | string {
  const start = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(spec.start);
  if (!start) return `start "${spec.start}" is not a time of day: write it as HH:MM, 24-hour, e.g. "02:00" or "22:30"`;
  if (!(spec.hours > 0 && spec.hours < 24)) return `hours ${spec.hours} is not a window length: more than 0 and less than 24, e.g. 4 or 1.5`;
  const from = Number(start[1]) * 60 + Number(start[2]);
  const length = Math.round(spec.hours * 60);
  const to = from + length > 24 * 60 ? from + length - 24 * 60 : from + length;
  const parsed = parseRestartWindow(`${spec.days.join(',')} ${hhmm(from)}-${hhmm(to)} ${spec.timeZone}`);
  // The restart window's messages show its own one-line spelling; here the keys are separate.
  if (typeof parsed === 'string') return parsed.replace(/: write it as DAYS HH:MM-HH:MM ZONE.*$/, ': days are Mon, Tue, ... Sun, ranges such as Mon-Fri, or daily');
  return parsed;
}

/** When the opening `at` is in ends (the first minute outside it), or undefined when `at` is outside. */
export function closesAt(w: RestartWindow, at: number): number | undefined {
  if (!inWindow(w, at)) return undefined;
  let t = Math.floor(at / MINUTE) * MINUTE + MINUTE;
  for (let i = 0; i < 25 * 60; i++, t += MINUTE) if (!inWindow(w, t)) return t;
  return undefined;
}

export type WindowFit =
  /** Start now: inside the window with `need` left before it closes. */
  | { kind: 'now'; closesAt: number }
  /** Wait until `at` (an opening long enough); `why` says why not now. */
  | { kind: 'wait'; at: number; why: 'closed' | 'too-little-left' }
  /** No opening of the window is long enough for `need`. */
  | { kind: 'never'; longestMs: number };

/** The earliest start at or after `now` inside the window with `needMs` left in it. */
export function fitInWindow(w: RestartWindow, now: number, needMs: number): WindowFit {
  const closing = closesAt(w, now);
  if (closing !== undefined && closing - now >= needMs) return { kind: 'now', closesAt: closing };
  let from = closing ?? now;
  let longest = 0;
  // Two weeks of openings: every weekday's twice, and a DST change on the way.
  for (let i = 0; i < 15; i++) {
    const opens = nextOpening(w, from);
    if (opens === undefined) break;
    const closes = closesAt(w, opens) ?? opens;
    longest = Math.max(longest, closes - opens);
    if (closes - opens >= needMs) return { kind: 'wait', at: opens, why: closing === undefined ? 'closed' : 'too-little-left' };
    from = closes;
  }
  return { kind: 'never', longestMs: longest };
}
