/** Durations for a change board: whole minutes past two minutes, a range said once ("about 18-25 min"). */
export function roughDuration(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  const min = Math.round(seconds / 60);
  if (min < 120) return `${min} min`;
  const h = Math.floor(min / 60);
  return `${h} h ${String(min % 60).padStart(2, '0')} min`;
}

export function rangeText(p50: number, p90: number): string {
  const a = roughDuration(p50);
  const b = roughDuration(Math.max(p50, p90));
  if (a === b) return `about ${a}`;
  const unit = (s: string) => s.replace(/^[\d\s]+/, '');
  // "18-25 min" when both ends share the unit
  if (unit(a) === unit(b) && !a.includes('h')) return `about ${a.replace(/\s.*$/, '')}-${b}`;
  return `about ${a} to ${b}`;
}
