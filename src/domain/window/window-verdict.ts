/**
 * The predicted duration against the window booked for the change (the params' `window`): whether
 * it fits, fits only when things go well, or does not fit even in the typical case - said so, with
 * how far over, because "when slow" under-states a plan whose median is already three times the
 * window. Pure; the plan's text, its screen and the gates say the same words.
 */
import { durationRange, formatDuration, roughDuration } from '../../text/duration.js';

export type WindowFit = 'fits' | 'only-typical' | 'over';

export interface WindowVerdict {
  fit: WindowFit;
  /** "within the 4h00m window", "MORE than the 4h00m window when slow (p90 5h10m) ...", "MORE than ...: even the typical case is 3.4× the window". */
  text: string;
}

/** `3.4×`: one decimal below ten, whole numbers above. */
const times = (ratio: number) => `${ratio < 10 ? (Math.round(ratio * 10) / 10).toFixed(1) : Math.round(ratio)}×`;

export function windowVerdict(p50Seconds: number, p90Seconds: number, bookedMs: number, where = 'in the params file'): WindowVerdict {
  const booked = `the ${formatDuration(bookedMs, 'rough')} window ${where}`.replace(/ $/, '');
  const p50 = p50Seconds * 1000;
  const p90 = Math.max(p50Seconds, p90Seconds) * 1000;
  if (p90 <= bookedMs) return { fit: 'fits', text: `within ${booked}` };
  if (p50 <= bookedMs) {
    return { fit: 'only-typical', text: `MORE than ${booked} when slow: the typical case (p50 ${roughDuration(p50Seconds)}) fits, the pessimistic one (p90 ${roughDuration(p90 / 1000)}) does not` };
  }
  return { fit: 'over', text: `MORE than ${booked}: even the typical case (p50 ${roughDuration(p50Seconds)}) is ${times(p50 / bookedMs)} the window` };
}

/**
 * The plan's first line about time: every hop's estimate added up (restarts at the gates included),
 * the operator's own answers said, not predicted, and the verdict against the booked window.
 */
export function windowTotalText(hops: ReadonlyArray<{ eta?: { p50Seconds: number; p90Seconds: number } | undefined }>, restartsPerHop: number, bookedMs: number): string | undefined {
  if (!hops.length) return undefined;
  const p50 = hops.reduce((n, h) => n + (h.eta?.p50Seconds ?? 0), 0);
  const p90 = hops.reduce((n, h) => n + (h.eta?.p90Seconds ?? 0), 0);
  const gates = restartsPerHop * hops.length;
  const lead = hops.length === 1 ? 'The hop takes' : `The ${hops.length} hops take`;
  const restarts = gates ? `, its ${gates} VM restart(s) at the gates included; plus your time at ${gates === 1 ? 'that gate' : `those ${gates} gates`}` : '';
  const verdict = windowVerdict(p50, p90, bookedMs);
  const advice = verdict.fit === 'fits' ? '' : `; book a longer window${hops.length > 1 ? ' or split the hops over two' : ''}`;
  return `${lead} about ${durationRange(p50, p90)}${restarts}: ${verdict.text}${advice}.`;
}
