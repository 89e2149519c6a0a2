/**
 * Time zones for the report's timeline: is a name an IANA zone, this machine's zone, a time's
 * offset from UTC in a zone and its wall-clock reading there. Intl only (no tz database of our own).
 */

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** This machine's zone (`TZ`, else the system's), `UTC` when Intl cannot say. */
export function machineTimeZone(): string {
  const zone = new Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && isTimeZone(zone) ? zone : 'UTC';
}

const parts = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = parts.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', timeZoneName: 'short' });
    parts.set(zone, f);
  }
  return f;
}

export interface ZonedTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** The zone's short name at that time (`CET`, `GMT+1`, `UTC`). */
  abbreviation: string;
}

/** The wall-clock reading of `ms` in `zone`. */
export function zonedTime(ms: number, zone: string): ZonedTime {
  const got: Record<string, string> = {};
  for (const p of formatter(zone).formatToParts(new Date(ms))) got[p.type] = p.value;
  return {
    year: Number(got.year),
    month: Number(got.month),
    day: Number(got.day),
    hour: Number(got.hour) % 24,
    minute: Number(got.minute),
    second: Number(got.second),
    abbreviation: got.timeZoneName ?? zone,
  };
}

/** How far `zone`'s clock is ahead of UTC at `ms`, in milliseconds (Europe/Berlin in winter: 3_600_000). */
export function zoneOffsetMs(ms: number, zone: string): number {
  const t = zonedTime(ms, zone);
  const asUtc = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}
