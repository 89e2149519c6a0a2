import { z } from 'zod';

const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Parses `250ms`, `5s`, `30m`, `4h`, `1h30m` or a bare number of seconds into milliseconds. */
export function parseDuration(input: string | number): number | undefined {
  if (typeof input === 'number') return Number.isFinite(input) && input >= 0 ? input * 1000 : undefined;
  const text = input.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  for (const m of text.matchAll(re)) {
    total += Number(m[1]) * (units[m[2]!] ?? 0);
    matched += m[0].length;
  }
  return matched === text.length && matched > 0 ? total : undefined;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** A zod schema for durations written as `30s`, `5m`, `4h` or seconds; the output is milliseconds. */
export const Duration = z
  .union([z.string(), z.number()])
  .transform((v, ctx) => {
    const ms = parseDuration(v);
    if (ms === undefined) {
      ctx.addIssue({ code: 'custom', message: `expected a duration such as 30s, 5m or 4h, got ${JSON.stringify(v)}` });
      return z.NEVER;
    }
    return ms;
  });
