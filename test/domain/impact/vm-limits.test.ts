/** A VM owner's limits: the annotations parsed with clear messages, windows judged in their time zone. */
import { describe, expect, it } from 'vitest';
import type { VmImpact } from '../../../src/domain/impact/vm-impact.js';
import { ownLimitFields } from '../../../src/domain/impact/own-limits.js';
import { inWindow, nextOpening, openingText, ownLimitsOf, parseRestartWindow, type RestartWindow } from '../../../src/domain/impact/vm-limits.js';
import { ownerVerdict } from '../../../src/steps/migrations/restart-owner.js';

const at = (iso: string) => Date.parse(iso);
const win = (text: string) => parseRestartWindow(text) as RestartWindow;

describe('parseRestartWindow', () => {
  it.each([
    ['Sat,Sun 02:00-06:00 Europe/Berlin', { days: [0, 6], startMinute: 120, endMinute: 360, zone: 'Europe/Berlin' }],
    ['Mon-Fri 22:00-02:00 UTC', { days: [1, 2, 3, 4, 5], startMinute: 1320, endMinute: 120, zone: 'UTC' }],
    ['Fri-Mon 00:00-24:00 UTC', { days: [0, 1, 5, 6], startMinute: 0, endMinute: 1440, zone: 'UTC' }],
    ['daily 01:00-03:00 America/New_York', { days: [0, 1, 2, 3, 4, 5, 6], startMinute: 60, endMinute: 180, zone: 'America/New_York' }],
  ])('%s', (text, want) => {
    const w = win(text);
    expect({ days: [...w.days].sort(), startMinute: w.startMinute, endMinute: w.endMinute, zone: w.zone }).toEqual(want);
  });

  it.each([
    ['Sat 02:00-06:00', /is not a restart window: write it as DAYS HH:MM-HH:MM ZONE/],
    ['Caturday 02:00-06:00 UTC', /"Caturday" is not a day/],
    ['Sat 2am-6am UTC', /"2am-6am" is not a time range HH:MM-HH:MM/],
    ['Sat 02:00-02:00 UTC', /start and end differ/],
    ['Sat 02:00-06:00 Mars/Olympus', /"Mars\/Olympus" is not a time zone: use an IANA name/],
  ])('refuses %s with what to write', (text, message) => expect(parseRestartWindow(text)).toMatch(message));

  it('max-downtime: a duration, or a message', () => {
    expect(ownLimitsOf({ 'upgrade-pilot.io/max-downtime': '90s' })).toEqual({ maxDowntimeSeconds: 90, problems: [] });
    expect(ownLimitsOf({ 'upgrade-pilot.io/max-downtime': 'short' }).problems).toEqual(['upgrade-pilot.io/max-downtime: "short" is not a duration: write it as 30s, 5m or 1h30m']);
  });
});

describe('windows in their time zone', () => {
  const berlin = win('Sat,Sun 02:00-06:00 Europe/Berlin');
  it.each([
    // 2026-11-28 is a Saturday; Berlin is UTC+1 in November
    ['2026-11-28T01:30:00Z', true],
    ['2026-11-28T00:30:00Z', false],
    ['2026-11-28T05:00:00Z', false],
    ['2026-11-27T01:30:00Z', false],
  ])('Berlin weekend window at %s: %s', (iso, inside) => expect(inWindow(berlin, at(iso))).toBe(inside));

  it('a window past midnight covers the morning after a listed day', () => {
    const nights = win('Fri 22:00-02:00 UTC');
    expect(inWindow(nights, at('2026-11-28T01:00:00Z'))).toBe(true);
    expect(inWindow(nights, at('2026-11-27T01:00:00Z'))).toBe(false);
  });

  it('says when the window next opens, in its zone and in UTC', () => {
    const opens = nextOpening(berlin, at('2026-11-27T16:05:00Z'))!;
    expect(new Date(opens).toISOString()).toBe('2026-11-28T01:00:00.000Z');
    expect(openingText(berlin, opens)).toBe('Sat 28 Nov 02:00 Europe/Berlin (01:00 UTC)');
    expect(nextOpening(berlin, at('2026-11-28T01:30:00Z'))).toBeUndefined();
  });
});

describe('the plan and the restart gate hold a VM to its owner limits', () => {
  const restart: VmImpact = { vm: 'vms/db', fate: 'restart', reason: '', predicted: { startSeconds: 0, durationSeconds: { p50: 60, p90: 60 }, downtimeSeconds: 60 } };
  const limits = ownLimitsOf({ 'upgrade-pilot.io/restart-window': 'Sat,Sun 02:00-06:00 Europe/Berlin', 'upgrade-pilot.io/max-downtime': '30s' });
  const friday = at('2026-11-27T16:00:00Z');

  it('lists the restart outside its window and the downtime beyond its max', () => {
    const f = ownLimitFields(restart, limits, friday, { rolloutSeconds: 300, totalSeconds: 900 });
    expect(f.ownLimits).toEqual({ maxDowntimeSeconds: 30, restartWindow: 'Sat,Sun 02:00-06:00 Europe/Berlin' });
    expect(f.limitsBroken).toEqual([
      'its restart costs about 1m of downtime, more than its max-downtime of 30s',
      'its restart would come at about 16:15 UTC, outside its restart window "Sat,Sun 02:00-06:00 Europe/Berlin" (it opens Sat 28 Nov 02:00 Europe/Berlin (01:00 UTC)): the restart gate says so, and plain mode restarts it only with --approve-restart vms/db',
    ]);
  });

  it('inside the window nothing is broken but the downtime', () => {
    const f = ownLimitFields(restart, ownLimitsOf({ 'upgrade-pilot.io/restart-window': 'Sat,Sun 02:00-06:00 Europe/Berlin' }), at('2026-11-28T01:05:00Z'), { rolloutSeconds: 60, totalSeconds: 120 });
    expect(f.limitsBroken).toBeUndefined();
  });

  it('the restart gate: outside, approved by name only, with when it opens; an unreadable window counts as outside', () => {
    const impact = { ...restart, ...ownLimitFields(restart, limits, friday, { rolloutSeconds: 300, totalSeconds: 900 }) };
    expect(ownerVerdict(impact, friday)).toEqual({
      outside: 'outside its restart window "Sat,Sun 02:00-06:00 Europe/Berlin"; the window opens Sat 28 Nov 02:00 Europe/Berlin (01:00 UTC)',
      downtime: 'Its owner allows at most 30s of downtime; a restart usually costs about 1m.',
    });
    expect(ownerVerdict(impact, at('2026-11-28T01:05:00Z'))?.outside).toBeUndefined();
    const broken = { ...restart, ...ownLimitFields(restart, ownLimitsOf({ 'upgrade-pilot.io/restart-window': 'weekends' }), friday, { rolloutSeconds: 0, totalSeconds: 0 }) };
    expect(ownerVerdict(broken, friday)?.outside).toMatch(/cannot be read/);
  });
});
