import { Text } from 'ink';

const BARS = '▁▂▃▄▅▆▇█';

/** Values as a one-line bar chart, scaled to the largest; a zero is the lowest bar, so the line never breaks. */
export function sparkline(values: readonly number[], width: number): string {
  const shown = values.slice(-Math.max(1, width));
  const max = Math.max(1, ...shown);
  return shown.map((v) => BARS[Math.min(BARS.length - 1, Math.round((v / max) * (BARS.length - 1)))]).join('');
}

/** "Outdated VMIs: 8 ▇▇▆▅▃ (from 12)": the count as a number first, the bars only add the trend. */
export function OutdatedTrend({ values, staying, width }: { values: readonly number[]; staying: number; width: number }) {
  const now = values.at(-1) ?? 0;
  const first = values[0] ?? now;
  const label = `Outdated VMIs: ${now}`;
  const extra = `${first !== now ? ` (from ${first})` : ''}${staying ? ` · ${staying} will need a restart` : ''}`;
  const room = Math.max(0, width - label.length - extra.length - 2);
  return (
    <Text>
      <Text bold>{label}</Text>
      {values.length > 1 && room > 3 ? ` ${sparkline(values, room)}` : ''}
      <Text dimColor>{extra}</Text>
    </Text>
  );
}
