/**
 * Where the time axis gets its labels: a round step for the span (5 s, 10 min, 2 h, ...) and the
 * ticks at round times of a zone's own clock, with the labels that zone's clock shows. Pure.
 */
import { zonedTime, zoneOffsetMs } from '../../text/time-zone.js';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

/** Round steps, each with the spelling Mermaid's `tickInterval` takes. */
const steps: Array<[number, string]> = [
  [1 * S, '1second'],
  [2 * S, '2second'],
  [5 * S, '5second'],
  [10 * S, '10second'],
  [15 * S, '15second'],
  [30 * S, '30second'],
  [1 * M, '1minute'],
  [2 * M, '2minute'],
  [5 * M, '5minute'],
  [10 * M, '10minute'],
  [15 * M, '15minute'],
  [30 * M, '30minute'],
  [1 * H, '1hour'],
  [2 * H, '2hour'],
  [3 * H, '3hour'],
  [6 * H, '6hour'],
  [12 * H, '12hour'],
  [1 * D, '1day'],
  [2 * D, '2day'],
  [7 * D, '7day'],
];

/** The smallest round step that puts at most `most` ticks on `lengthMs`. */
export function tickStep(lengthMs: number, most: number): { ms: number; mermaid: string } {
  const found = steps.find(([ms]) => lengthMs / ms <= most) ?? steps.at(-1)!;
  return { ms: found[0], mermaid: found[1] };
}

export interface Tick {
  at: number;
  label: string;
}

const two = (n: number) => String(n).padStart(2, '0');

/** A tick's label in the zone: `00:57:30` for steps under a minute, `00:57` under a day, else `12-02 00:00`. */
export function tickLabel(at: number, zone: string, stepMs: number): string {
  const t = zonedTime(at, zone);
  if (stepMs < M) return `${two(t.hour)}:${two(t.minute)}:${two(t.second)}`;
  if (stepMs < D) return `${two(t.hour)}:${two(t.minute)}`;
  return `${two(t.month)}-${two(t.day)} ${two(t.hour)}:${two(t.minute)}`;
}

/** The ticks between `from` and `to` at round times of `zone`'s clock (the zone's offset at `from`). */
export function ticks(from: number, to: number, stepMs: number, zone: string): Tick[] {
  const offset = zoneOffsetMs(from, zone);
  const out: Tick[] = [];
  for (let local = Math.ceil((from + offset) / stepMs) * stepMs; local - offset <= to && out.length < 500; local += stepMs) {
    out.push({ at: local - offset, label: tickLabel(local - offset, zone, stepMs) });
  }
  return out;
}

/** `UTC`, or `Europe/Berlin (CET, UTC+01:00)` at `at` (`short`: `Europe/Berlin +01:00`). */
export function zoneText(zone: string, at: number, short = false): string {
  if (zone === 'UTC' || zone === 'Etc/UTC') return 'UTC';
  const offset = zoneOffsetMs(at, zone) / M;
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const abbreviation = zonedTime(at, zone).abbreviation;
  const utc = `UTC${sign}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
  if (short) return `${zone} ${utc.slice(3)}`;
  return `${zone} (${abbreviation === utc || /^GMT/.test(abbreviation) ? utc : `${abbreviation}, ${utc}`})`;
}
