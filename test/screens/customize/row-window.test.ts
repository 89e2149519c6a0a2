import { describe, expect, it } from 'vitest';
import { rowWindow } from '../../../src/screens/customize/row-window.js';

describe('rowWindow: whole rows of different heights around the focus', () => {
  it.each([
    { heights: [], focus: 0, room: 5, want: { start: 0, end: 0, clipped: false } },
    { heights: [1, 1, 1], focus: 0, room: 5, want: { start: 0, end: 3, clipped: false } },
    { heights: [2, 2, 2, 2, 2], focus: 0, room: 5, want: { start: 0, end: 2, clipped: false } },
    // The focus keeps up to half the room of rows before it, then the rows after it.
    { heights: [2, 2, 2, 2, 2], focus: 3, room: 6, want: { start: 2, end: 5, clipped: false } },
    { heights: [1, 1, 1, 1, 1, 1, 1, 1], focus: 7, room: 4, want: { start: 4, end: 8, clipped: false } },
    // A row taller than the room is drawn alone, said to be clipped.
    { heights: [1, 16, 1], focus: 1, room: 10, want: { start: 1, end: 2, clipped: true } },
    { heights: [1, 10, 1], focus: 1, room: 10, want: { start: 1, end: 2, clipped: false } },
  ])('$heights focus $focus in $room', ({ heights, focus, room, want }) => {
    expect(rowWindow(heights, focus, room)).toEqual(want);
  });

  it('never draws more rows than the room (unless the focus alone is taller)', () => {
    const heights = [3, 1, 4, 1, 5, 9, 2, 6];
    for (let room = 1; room <= 20; room++) {
      for (let f = 0; f < heights.length; f++) {
        const w = rowWindow(heights, f, room);
        expect(w.start <= f && f < w.end).toBe(true);
        const used = heights.slice(w.start, w.end).reduce((n, h) => n + h, 0);
        if (!w.clipped) expect(used).toBeLessThanOrEqual(Math.max(room, heights[f]!));
      }
    }
  });
});
