/** A stage's window: the spelling, and when a cluster of a given predicted duration may start (DST, midnight). */
import { describe, expect, it } from 'vitest';
import { fitInWindow, stageWindow, type StageWindowSpec } from '../../src/fleet/window.js';
import type { RestartWindow } from '../../src/domain/impact/vm-limits.js';

const h = 3_600_000;
const at = (iso: string) => Date.parse(iso);
const win = (spec: Partial<StageWindowSpec>): RestartWindow => {
  const w = stageWindow({ days: ['Sat', 'Sun'], start: '02:00', hours: 4, timeZone: 'Europe/Berlin', ...spec });
  if (typeof w === 'string') throw new Error(w);
  return w;
};
const iso = (ms: number) => new Date(ms).toISOString();

describe('stageWindow', () => {
  it.each<[Partial<StageWindowSpec>, RegExp]>([
    [{ start: '2am' }, /start "2am" is not a time of day: write it as HH:MM/],
    [{ start: '24:00' }, /start "24:00" is not a time of day/],
    [{ hours: 0 }, /hours 0 is not a window length: more than 0 and less than 24/],
    [{ hours: 24 }, /hours 24 is not a window length/],
    [{ days: ['Caturday'] }, /"Caturday" is not a day \(Mon, Tue, ... Sun, a range Mon-Fri, or daily\): days are Mon, Tue, ... Sun/],
    [{ timeZone: 'Mars/Olympus' }, /"Mars\/Olympus" is not a time zone: use an IANA name such as Europe\/Berlin/],
  ])('refuses %j: %s', (spec, message) => {
    expect(stageWindow({ days: ['Sat', 'Sun'], start: '02:00', hours: 4, timeZone: 'Europe/Berlin', ...spec })).toMatch(message);
  });

  it('spells itself as the restart window does: a range past midnight ends the next day', () => {
    expect(win({}).text).toBe('Sat,Sun 02:00-06:00 Europe/Berlin');
    expect(win({ days: ['Fri'], start: '22:00', hours: 4 }).text).toBe('Fri 22:00-02:00 Europe/Berlin');
    expect(win({ days: ['daily'], start: '20:00', hours: 4, timeZone: 'UTC' }).text).toBe('daily 20:00-24:00 UTC');
    expect(win({ start: '01:15', hours: 1.5 }).text).toBe('Sat,Sun 01:15-02:45 Europe/Berlin');
  });
});

describe('fitInWindow', () => {
  // 2026-11-28 is a Saturday; Berlin is UTC+1 in winter. 2027-03-28 (Sunday) clocks spring forward at
  // 02:00 to 03:00 (UTC+2); 2026-10-25 (Sunday) they fall back at 03:00 to 02:00.
  it.each<[string, RestartWindow, string, number, string]>([
    ['inside, with room', win({}), '2026-11-28T01:30:00Z', 2 * h, 'now, closes 2026-11-28T05:00:00.000Z'],
    ['inside, too little left: the next opening (Sunday)', win({}), '2026-11-28T04:00:00Z', 2 * h, 'wait 2026-11-29T01:00:00.000Z (too-little-left)'],
    ['closed on a weekday: Saturday 02:00 Berlin', win({}), '2026-11-25T12:00:00Z', 1 * h, 'wait 2026-11-28T01:00:00.000Z (closed)'],
    ['exactly as long as the window', win({}), '2026-11-28T01:00:00Z', 4 * h, 'now, closes 2026-11-28T05:00:00.000Z'],
    ['longer than any opening', win({}), '2026-11-28T01:00:00Z', 5 * h, 'never (longest 4h)'],
    ['past midnight, started the evening before', win({ days: ['Fri'], start: '22:00', hours: 4 }), '2026-11-27T23:30:00Z', 1 * h, 'now, closes 2026-11-28T01:00:00.000Z'],
    ['past midnight, after it on the listed day: next week', win({ days: ['Fri'], start: '22:00', hours: 4 }), '2026-11-28T02:00:00Z', 1 * h, 'wait 2026-12-04T21:00:00.000Z (closed)'],
    ['spring forward: 02:00-06:00 local lasts 3 hours', win({ days: ['Sun'] }), '2027-03-27T12:00:00Z', 3 * h, 'wait 2027-03-28T01:00:00.000Z (closed)'],
    ['spring forward: 4 hours do not fit that night, the next Sunday', win({ days: ['Sun'] }), '2027-03-27T12:00:00Z', 3.5 * h, 'wait 2027-04-04T00:00:00.000Z (closed)'],
    ['fall back: 02:00-06:00 local lasts 5 hours', win({ days: ['Sun'] }), '2026-10-24T12:00:00Z', 5 * h, 'wait 2026-10-25T00:00:00.000Z (closed)'],
    ['UTC to the end of the day', win({ days: ['daily'], start: '20:00', hours: 4, timeZone: 'UTC' }), '2026-11-25T21:00:00Z', 3 * h, 'now, closes 2026-11-26T00:00:00.000Z'],
  ])('%s', (_name, w, now, need, want) => {
    const fit = fitInWindow(w, at(now), need);
    const got = fit.kind === 'now' ? `now, closes ${iso(fit.closesAt)}` : fit.kind === 'wait' ? `wait ${iso(fit.at)} (${fit.why})` : `never (longest ${fit.longestMs / h}h)`;
    expect(got).toBe(want);
  });
});
