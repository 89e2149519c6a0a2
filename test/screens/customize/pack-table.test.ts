import { describe, expect, it } from 'vitest';
import { countParts, packRows, versionsText } from '../../../src/screens/customize/pack-rows.js';
import { packRowLines, packTableLayout, ROW_LEAD } from '../../../src/screens/customize/pack-table.js';
import { healthy } from './fixtures.js';

const rows = packRows(healthy);

/** The rows as drawn (cursor and mark as spaces), their counts on the line or under it. */
function drawn(width: number): string[][] {
  const layout = packTableLayout(rows, width);
  return rows.map((r) => {
    const lines = packRowLines(r, layout);
    const counts = lines.counts.map((parts) => parts.map((p) => p.text).join(' · '));
    return layout.countsInline ? [`    ${lines.head}  ${counts[0]}`] : [`    ${lines.head}`, ...counts.map((c) => `${' '.repeat(ROW_LEAD)}${c}`)];
  });
}

describe('the pack rows at any width', () => {
  it.each([40, 49, 60, 81, 100, 140, 200])('at %i columns every row fits, its versions and its counts whole', (width) => {
    const all = drawn(width);
    all.forEach((lines, i) => {
      for (const l of lines) expect([...l.trimEnd()].length).toBeLessThanOrEqual(width);
      const text = lines.join(' ');
      expect(text).toContain(versionsText(rows[i]!));
      for (const p of countParts(rows[i]!.counts)) expect(text).toContain(p.text);
      // Conflicts come first in the row's counts.
      if (rows[i]!.counts.conflicts) expect(lines.join('\n')).toMatch(/(?:→ [\d.]+ +|\n +)conflicts \d/);
    });
  });

  it('gives way in the name first: one line each while the name keeps 20 characters, else the counts go under it', () => {
    expect(packTableLayout(rows, 200)).toMatchObject({ countsInline: true, nameWidth: 'virtual-machine-orchestrator'.length });
    const mid = packTableLayout(rows, 100);
    expect(mid.countsInline).toBe(true);
    expect(mid.nameWidth).toBeGreaterThanOrEqual(20);
    expect(drawn(100)[0]![0]).toContain('…');
    expect(packTableLayout(rows, 81).countsInline).toBe(false);
    expect(drawn(81)[0]!.map((l) => l.trimEnd())).toEqual(['    hop 1 · virtual-machine-orchestrator 4.4.10 → 4.5.4', '    conflicts 1 · new 45 · ignored 11']);
  });
});
