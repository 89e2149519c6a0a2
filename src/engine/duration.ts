/** Durations as the runbook and params write them (`30s`, `5m`, `4h`); screens write them with text/duration.ts. No zod here: the TUI's first frame uses the formatter (the schema is in duration-schema.ts). */
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

/**
 * The longest duration a Node timer can wait: beyond it `setTimeout` fires after 1 ms instead (a
 * "24 days" poll interval would become a busy loop), so longer durations are refused at load.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;
