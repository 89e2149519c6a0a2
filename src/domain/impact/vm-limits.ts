/**
 * A VM owner's own limits, as annotations on the VirtualMachine:
 *
 * - `upgrade-pilot.io/max-downtime`: the longest the VM may be down (`30s`, `5m`, `1h30m`).
 * - `upgrade-pilot.io/restart-window`: when it may be restarted: days, a time range and an IANA time
 *   zone, e.g. `Sat,Sun 02:00-06:00 Europe/Berlin`, `Mon-Fri 22:00-02:00 UTC` (a range past
 *   midnight ends the next day), `daily 01:00-03:00 America/New_York`.
 *
 * Pure: parsing with messages that say what is wrong and how to write it, and whether an instant is
 * inside a window / when the window next opens.
 */
import { parseDuration } from '../../engine/duration.js';

export const maxDowntimeAnnotation = 'upgrade-pilot.io/max-downtime';
export const restartWindowAnnotation = 'upgrade-pilot.io/restart-window';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const EXAMPLE = 'write it as DAYS HH:MM-HH:MM ZONE, e.g. "Sat,Sun 02:00-06:00 Europe/Berlin" or "Mon-Fri 22:00-02:00 UTC"';

export interface RestartWindow {
  text: string;
  /** Days the window starts on (0 = Sunday). */
  days: ReadonlySet<number>;
  startMinute: number;
  endMinute: number;
  zone: string;
}

export interface OwnLimits {
  maxDowntimeSeconds?: number;
  restartWindow?: RestartWindow;
  /** Annotations that could not be read, each with what to do. */
  problems: string[];
}

function parseDays(text: string): Set<number> | string {
  if (/^(daily|\*)$/i.test(text)) return new Set([0, 1, 2, 3, 4, 5, 6]);
  const out = new Set<number>();
  for (const part of text.split(',')) {
    const [a, b] = part.split('-');
    const day = (d: string | undefined) => DAYS.findIndex((x) => x.toLowerCase() === d?.slice(0, 3).toLowerCase() && d.length >= 3);
    const from = day(a);
    const to = b === undefined ? from : day(b);
    if (from < 0 || to < 0) return `"${part}" is not a day (Mon, Tue, ... Sun, a range Mon-Fri, or daily)`;
    for (let d = from; ; d = (d + 1) % 7) {
      out.add(d);
      if (d === to) break;
    }
  }
  return out;
}

function minuteOf(hhmm: string): number | undefined {
  const m = /^([01]\d|2[0-4]):([0-5]\d)$/.exec(hhmm);
  if (!m) return undefined;
  const v = Number(m[1]) * 60 + Number(m[2]);
  return v <= 24 * 60 ? v : undefined;
}

export function parseRestartWindow(text: string): RestartWindow | string {
  const parts = text.trim().split(/\s+/);
  if (parts.length !== 3) return `"${text}" is not a restart window: ${EXAMPLE}`;
  const [daysText, range, zone] = parts as [string, string, string];
  const days = parseDays(daysText);
  if (typeof days === 'string') return `${days}: ${EXAMPLE}`;
  const [a, b] = range.split('-');
  const startMinute = minuteOf(a ?? '');
  const endMinute = minuteOf(b ?? '');
  if (startMinute === undefined || endMinute === undefined || startMinute === endMinute) return `"${range}" is not a time range HH:MM-HH:MM (24-hour, start and end differ): ${EXAMPLE}`;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    return `"${zone}" is not a time zone: use an IANA name such as Europe/Berlin, America/New_York or UTC`;
  }
  return { text: text.trim(), days, startMinute, endMinute, zone };
}

export function ownLimitsOf(annotations: Readonly<Record<string, string>> | undefined): OwnLimits {
  const problems: string[] = [];
  const out: OwnLimits = { problems };
  const down = annotations?.[maxDowntimeAnnotation];
  if (down !== undefined) {
    const ms = parseDuration(down);
    if (ms === undefined) problems.push(`${maxDowntimeAnnotation}: "${down}" is not a duration: write it as 30s, 5m or 1h30m`);
    else out.maxDowntimeSeconds = ms / 1000;
  }
  const win = annotations?.[restartWindowAnnotation];
  if (win !== undefined) {
    const w = parseRestartWindow(win);
    if (typeof w === 'string') problems.push(`${restartWindowAnnotation}: ${w}`);
    else out.restartWindow = w;
  }
  return out;
}

/** One formatter per zone: building one costs far more than using it, and window searches ask minute by minute. */
const formatters = new Map<string, Intl.DateTimeFormat>();
const formatterOf = (zone: string) => {
  let f = formatters.get(zone);
  if (!f) formatters.set(zone, (f = new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })));
  return f;
};

/** Day of week and minute of day of an instant in a zone. */
function localOf(ms: number, zone: string): { day: number; minute: number } {
  const parts = formatterOf(zone).formatToParts(new Date(ms));
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return { day: DAYS.indexOf(get('weekday') as (typeof DAYS)[number]), minute: Number(get('hour')) * 60 + Number(get('minute')) };
}

export function inWindow(w: RestartWindow, ms: number): boolean {
  const { day, minute } = localOf(ms, w.zone);
  if (w.startMinute < w.endMinute) return w.days.has(day) && minute >= w.startMinute && minute < w.endMinute;
  // Past midnight: the evening of a listed day, or the morning after one
  return (w.days.has(day) && minute >= w.startMinute) || (w.days.has((day + 6) % 7) && minute < w.endMinute);
}

/** When the window next opens after `ms` (undefined if now is inside it). */
export function nextOpening(w: RestartWindow, ms: number): number | undefined {
  if (inWindow(w, ms)) return undefined;
  const minute = 60_000;
  let t = Math.ceil(ms / minute) * minute;
  for (let i = 0; i < 8 * 24 * 60; i++, t += minute) if (inWindow(w, t)) return t;
  return undefined;
}

/** `Sat 28 Nov 02:00 Europe/Berlin (01:00 UTC)`: when a window opens, in its zone and in UTC. */
export function openingText(w: RestartWindow, ms: number): string {
  const local = new Intl.DateTimeFormat('en-GB', { timeZone: w.zone, weekday: 'short', day: '2-digit', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(ms)).replace(',', '');
  const utc = new Date(ms).toISOString().slice(11, 16);
  return `${local} ${w.zone}${w.zone === 'UTC' ? '' : ` (${utc} UTC)`}`;
}
