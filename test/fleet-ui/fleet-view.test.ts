/** The fleet screen's selection and window, as tables of keys; and its columns at the two sizes that matter. */
import { describe, expect, it } from 'vitest';
import type { KeyPress } from '../../src/screens/keys/key-press.js';
import { columnWidths, headerLine } from '../../src/fleet-ui/fleet-rows.js';
import { fleetView, moveSelection, type FleetView } from '../../src/fleet-ui/fleet-view.js';
import type { FleetLine } from '../../src/fleet-ui/fleet-rows.js';

const lines: FleetLine[] = Array.from({ length: 17 }, (_, i) => ({ kind: 'cluster', cluster: `c${i}`, text: `c${i}`, status: 'pending' }));
const k = (name: KeyPress['name'], text?: string): KeyPress => (text ? { name, text } : { name });

describe('fleet view keys', () => {
  it.each<[string, KeyPress[], FleetView]>([
    ['down twice', [k('down'), k('char', 'j')], { selected: 3, offset: 0 }],
    ['up at the top stays', [k('up'), k('up'), k('char', 'k')], { selected: 0, offset: 0 }],
    ['PgDn pages the window and the selection', [k('pageDown')], { selected: 6, offset: 5 }],
    ['PgDn past the end stops at the last page', [k('pageDown'), k('pageDown'), k('pageDown'), k('pageDown')], { selected: 16, offset: 12 }],
    ['G then g', [k('char', 'G'), k('char', 'g')], { selected: 0, offset: 0 }],
    ['End', [k('end')], { selected: 16, offset: 12 }],
    ['down below the window scrolls it one', [k('down'), k('down'), k('down'), k('down')], { selected: 5, offset: 1 }],
  ])('%s', (_name, presses, expected) => {
    let v: FleetView = { selected: 1, offset: 0 };
    for (const p of presses) v = moveSelection(lines, v, p, 5) ?? v;
    expect(v).toEqual(expected);
  });

  it('other keys do not move it; a shrunk list keeps the selection inside', () => {
    expect(moveSelection(lines, { selected: 1, offset: 0 }, k('char', 'x'), 5)).toBeUndefined();
    expect(fleetView(lines.slice(0, 3), { selected: 9, offset: 7 }, 5)).toEqual({ selected: 2, offset: 0 });
  });

  it.each([
    [119, { name: 22, step: 56 }],
    [79, { name: 17, step: 21 }],
  ])('columns at %d', (width, expected) => {
    expect(columnWidths(width)).toEqual(expected);
    expect(headerLine(width).length).toBeLessThanOrEqual(width);
  });
});
