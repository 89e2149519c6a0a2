/**
 * One clock on every screen: times are the wall clock of this machine (HH:MM:SS, local), as the
 * step list's durations are. The lab's cluster runs on accelerated simulated time; what is
 * measured in it (migration ages, reconcile waits) is labelled "lab time" wherever it is shown.
 */

const two = (n: number) => String(n).padStart(2, '0');
import { formatDuration } from './duration.js';

/** `21:49:40` for an ISO time, in this machine's time zone. */
export function wallTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/** `2026-11-22` for an ISO time, in this machine's time zone. */
export function wallDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso.slice(0, 10) : `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

/** A duration measured on the session's clock, labelled when that clock is the lab's. */
export function clockDuration(ms: number, labTime: boolean): string {
  return labTime ? `${formatDuration(ms)} lab time` : formatDuration(ms);
}
