/**
 * Column widths for a table that must fit its pane: each column wants its natural width (its
 * longest value, measured on a bounded sample so 5,000 rows cost what 200 do); when they do not
 * all fit, the wide ones give up room in proportion, never below their minimum.
 */
export interface ColumnNeed {
  natural: number;
  min: number;
}

export const SAMPLE = 200;

export function longestOf<R>(rows: readonly R[], value: (r: R) => string, title: string): number {
  let n = title.length;
  for (let i = 0; i < Math.min(rows.length, SAMPLE); i++) n = Math.max(n, value(rows[i]!).length);
  return n;
}

export function fitWidths(width: number, needs: ColumnNeed[], gap = 2): number[] {
  const room = Math.max(0, width - gap * (needs.length - 1));
  const widths = needs.map((c) => Math.max(c.min, c.natural));
  let over = widths.reduce((a, b) => a + b, 0) - room;
  while (over > 0) {
    const slack = widths.map((w, i) => w - needs[i]!.min);
    const total = slack.reduce((a, b) => a + b, 0);
    if (total <= 0) break;
    let cut = 0;
    widths.forEach((w, i) => {
      const share = Math.min(slack[i]!, Math.ceil((over * slack[i]!) / total));
      widths[i] = w - share;
      cut += share;
    });
    over -= cut;
  }
  return widths;
}
