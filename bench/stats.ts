/** Small helpers: repeated measurements, min/median/max, and tables for the terminal and Markdown. */

export interface Stats {
  min: number;
  median: number;
  max: number;
  n: number;
}

export function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  const median = s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  return { min: s[0] ?? NaN, median, max: s[s.length - 1] ?? NaN, n: s.length };
}

export const ms = (v: number) => (v >= 10_000 ? `${(v / 1000).toFixed(1)} s` : v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${v.toFixed(v < 10 ? 2 : 0)} ms`);
export const mb = (kb: number | undefined) => (kb === undefined || Number.isNaN(kb) ? 'n/a' : `${(kb / 1024).toFixed(0)} MB`);
export const range = (s: Stats, unit: (v: number) => string = ms) => `${unit(s.min)} / ${unit(s.median)} / ${unit(s.max)}`;

export function table(head: string[], rows: string[][]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.map(line)];
}

export interface Goal {
  name: string;
  target: string;
  measured: string;
  met: boolean;
}
