/**
 * Ages as kubectl shows them, for the lab's tables and for the product's "failed 7d ago".
 * The apiserver's AGE format (apimachinery `duration.HumanDuration`): two or three significant
 * figures, e.g. `45s`, `3m20s`, `47m`, `5h10m`, `3d4h`, `120d`, `2y14d`. Tables carry it as text,
 * so the lab must produce exactly what a real cluster would.
 */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  // The apiserver tolerates up to two seconds of clock skew before calling a time invalid.
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const days = Math.trunc(hours / 24) % 365;
    const years = Math.trunc(hours / 24 / 365);
    return days === 0 ? `${years}y` : `${years}y${days}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/** Age of a Kubernetes timestamp at `now`; `<unknown>` when there is none, as kubectl shows it. */
export function ageOf(timestamp: unknown, now: number): string {
  if (typeof timestamp !== 'string' || timestamp === '') return '<unknown>';
  const t = Date.parse(timestamp);
  return Number.isNaN(t) ? '<invalid>' : humanDuration(now - t);
}
