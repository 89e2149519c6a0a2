/**
 * `verify --since TIME`: from when a failure is this upgrade's doing. An RFC 3339 time
 * (`2026-03-11T14:00:00Z`, `2026-03-11T15:00:00+01:00`) or a duration before now (`2h`, `90m`,
 * `1d12h`, `7d`). Pure: parsing here, the clock and the session store in verify-since.ts.
 */
export type SinceArg = { kind: 'time'; at: number; text: string } | { kind: 'ago'; ms: number; text: string };

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const unitMs: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Undefined when `text` is neither; the caller says what is accepted. */
export function parseSince(text: string): SinceArg | undefined {
  const s = text.trim();
  if (RFC3339.test(s)) {
    const at = Date.parse(s.replace(' ', 'T'));
    return Number.isFinite(at) ? { kind: 'time', at, text: s } : undefined;
  }
  const re = /(\d+)(d|h|m|s)/gy;
  let total = 0;
  let matched = 0;
  for (const m of s.matchAll(re)) {
    total += Number(m[1]) * unitMs[m[2]!]!;
    matched += m[0].length;
  }
  return matched > 0 && matched === s.length && total > 0 ? { kind: 'ago', ms: total, text: s } : undefined;
}

export const SINCE_ACCEPTS = 'an RFC 3339 time (2026-03-11T14:00:00Z) or a duration before now (2h, 90m, 1d12h)';
