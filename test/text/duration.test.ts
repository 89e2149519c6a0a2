/** The one duration format: every command, screen, report and fleet output writes durations with it. */
import { describe, expect, it } from 'vitest';
import { durationRange, formatDuration, roughDuration } from '../../src/text/duration.js';

const s = 1000;
const min = 60 * s;
const h = 60 * min;

describe('formatDuration (measured)', () => {
  it.each([
    [0, '0ms'],
    [270, '270ms'],
    [999.6, '1000ms'],
    [1000, '1s'],
    [45 * s, '45s'],
    [59.4 * s, '59s'],
    [60 * s, '1m00s'],
    [185 * s, '3m05s'],
    [59 * min + 59 * s, '59m59s'],
    [4 * h, '4h00m'],
    [13 * h + 36 * min + 20 * s, '13h36m'],
    [47 * h + 59 * min, '47h59m'],
    [48 * h, '2d00h'],
    [76 * h + 30 * min, '3d04h'],
    [-5, '0ms'],
    [Number.NaN, '0ms'],
  ])('%s ms is %s', (ms, want) => expect(formatDuration(ms)).toBe(want));
});

describe('roughDuration (predicted, in seconds)', () => {
  it.each([
    [0, '1s'],
    [21, '21s'],
    [59, '59s'],
    [60, '1m'],
    [89, '1m'],
    [90, '2m'],
    [11 * 60 + 20, '11m'],
    [3599, '1h00m'],
    [13 * 3600 + 36 * 60, '13h36m'],
    [50 * 3600, '2d02h'],
  ])('%s s is %s', (secs, want) => expect(roughDuration(secs)).toBe(want));
});

describe('durationRange', () => {
  it.each([
    [1080, 1500, '18m-25m'],
    [30, 45, '30s-45s'],
    [60, 60, '1m'],
    [60, 50, '1m'],
    [50, 200, '50s-3m'],
    [7200, 9000, '2h00m-2h30m'],
    [13 * 3600 + 36 * 60, 15 * 3600 + 27 * 60, '13h36m-15h27m'],
  ])('%s to %s s is %s', (a, b, want) => expect(durationRange(a, b)).toBe(want));
});
