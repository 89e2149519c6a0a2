import { describe, expect, it } from 'vitest';
import { measureRestart, restartTimings } from '../../../src/steps/migrations/restart-timing.js';

const t = (s: string) => Date.parse(`2026-11-22T04:${s}Z`);
const wall = { simulated: { label: 'lab time', speed: () => 60, toWall: (x: number) => x / 60, fromWall: (x: number) => x * 60 } };

describe('restart downtime from the cluster’s timestamps', () => {
  it.each([
    // old VMI deleted → new VMI Running: the cluster's own record
    ['deletion to Running', { requestAt: t('00:00.400'), deletionSeen: '2026-11-22T04:00:00Z', runningTransition: '2026-11-22T04:01:03Z', seenRunningAt: t('01:05') }, { downFrom: 'vmi-deletion', runningFrom: 'phase-transition', downtimeSeconds: 63 }],
    // the wait did not catch the shutdown: the request stands for the start
    ['request to Running', { requestAt: t('00:10'), runningTransition: '2026-11-22T04:01:00Z', seenRunningAt: t('01:04') }, { downFrom: 'request', runningFrom: 'phase-transition', downtimeSeconds: 50 }],
    // a deletion stamp from before the request belongs to something else
    ['stale deletion ignored', { requestAt: t('00:10'), deletionSeen: '2026-11-22T03:59:00Z', runningTransition: '2026-11-22T04:00:40Z', seenRunningAt: t('00:41') }, { downFrom: 'request', downtimeSeconds: 30 }],
    // no Running transition listed: when it was seen running
    ['observed', { requestAt: t('00:00'), seenRunningAt: t('00:45') }, { downFrom: 'request', runningFrom: 'observed', downtimeSeconds: 45 }],
    // a Running transition older than the start is the old VMI's
    ['old transition ignored', { requestAt: t('00:30'), runningTransition: '2026-11-22T04:00:00Z', seenRunningAt: t('01:00') }, { runningFrom: 'observed', downtimeSeconds: 30 }],
    // not back: no end, no downtime
  ])('%s', (_name, observed, expected) => {
    expect(measureRestart({ vm: 'vms/a', ...observed }, {})).toMatchObject(expected);
  });

  it('a VM not back has a start and no end, so no downtime', () => {
    expect(measureRestart({ vm: 'vms/a', requestAt: t('00:00') }, {})).toEqual({ vm: 'vms/a', downAt: '2026-11-22T04:00:00.000Z', downFrom: 'request' });
  });

  it('against a simulated clock the instants are also given as wall times (the durations stay lab time)', () => {
    const m = measureRestart({ vm: 'vms/a', requestAt: 60_000, seenRunningAt: 120_000 }, wall);
    expect(m).toMatchObject({ downtimeSeconds: 60, wall: { downAt: new Date(1_000).toISOString(), runningAt: new Date(2_000).toISOString() } });
    expect(measureRestart({ vm: 'vms/a', requestAt: 60_000, seenRunningAt: 120_000 }, {}).wall).toBeUndefined();
  });

  it('reads every timing a recovery step journaled, by VM', () => {
    const notes = { 'timing/vms/b': { vm: 'vms/b' }, 'skipped/vms/c': {}, 'timing/vms/a': { vm: 'vms/a' }, 'before/vms/a': {} };
    expect(restartTimings(notes).map((x) => x.vm)).toEqual(['vms/a', 'vms/b']);
  });
});
