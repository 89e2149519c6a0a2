/**
 * One way to write a duration everywhere (every command's text, the TUI, the report, the fleet):
 * compact, each unit glued to its number, the largest unit first, the one below it padded to two
 * digits: `270ms`, `45s`, `3m05s`, `4h00m`, `13h36m`, `2d04h`. Days from 48 hours on (as kubectl's
 * ages turn to days), so a long span stays short. An exact duration (something measured) keeps the
 * seconds under an hour; a rough one (a prediction, a limit) is whole minutes from a minute on
 * (`11m`), and a range is written once: `11m-20m`, `13h36m-15h27m`.
 */

export type DurationPrecision = 'exact' | 'rough';

const two = (n: number) => String(n).padStart(2, '0');

/** Whole minutes (and hours, days) of a span already rounded to minutes. */
function minutesText(totalMinutes: number): string {
  if (totalMinutes < 60) return `${totalMinutes}m`;
  const hours = Math.floor(totalMinutes / 60);
  if (hours < 48) return `${hours}h${two(totalMinutes % 60)}m`;
  return `${Math.floor(hours / 24)}d${two(hours % 24)}h`;
}

export function formatDuration(ms: number, precision: DurationPrecision = 'exact'): string {
  const safe = Number.isFinite(ms) ? Math.max(0, ms) : 0;
  if (precision === 'rough') {
    const s = Math.max(1, Math.round(safe / 1000));
    return s < 60 ? `${s}s` : minutesText(Math.round(s / 60));
  }
  if (safe < 1000) return `${Math.round(safe)}ms`;
  const s = Math.round(safe / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${two(s % 60)}s`;
  return minutesText(Math.floor(s / 60));
}

/** A predicted duration given in seconds (the plan's unit), rough. */
export function roughDuration(seconds: number): string {
  return formatDuration(seconds * 1000, 'rough');
}

/** A median and a pessimistic duration (seconds) as one range, `11m-20m`; one figure when they round alike. */
export function durationRange(p50Seconds: number, p90Seconds: number): string {
  const a = roughDuration(p50Seconds);
  const b = roughDuration(Math.max(p50Seconds, p90Seconds));
  return a === b ? a : `${a}-${b}`;
}
