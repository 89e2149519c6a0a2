/**
 * How a fleet is told to stop (stop-control.ts): a halt, then a second ask stops now; the process's
 * signals owned by the fleet (the first stops now, cleanly; a second exits at once); a `fleet stop`
 * request file picked up by the running coordinator, and refused when none runs.
 */
import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FleetJournal, fleetPaths } from '../../src/fleet/journal.js';
import { FleetStop, ownSignals, requestStop, watchStopRequests } from '../../src/fleet/stop-control.js';
import { until } from '../support/wait.js';

const req = (mode: 'halt' | 'now', how: 'signal' | 'operator' = 'operator') => ({ mode, how, reason: `${mode} test`, by: 'ana@jump' }) as const;

describe('FleetStop', () => {
  it('a halt stops starting; a second ask stops now; after that nothing more', () => {
    const stop = new FleetStop();
    expect(stop.ask(req('halt'))).toBe('halt');
    expect([stop.halt.aborted, stop.signal.aborted]).toEqual([true, false]);
    expect(stop.ask(req('halt'))).toBe('now');
    expect(stop.signal.aborted).toBe(true);
    expect(stop.requested()).toMatchObject({ mode: 'now', how: 'operator', reason: 'halt test' });
    expect(stop.ask(req('now', 'signal'))).toBe('already');
  });

  it('a signal after a halt is the record (its exit code is 130)', () => {
    const stop = new FleetStop();
    stop.ask(req('halt'));
    stop.ask(req('now', 'signal'));
    expect(stop.requested()).toMatchObject({ mode: 'now', how: 'signal' });
  });
});

describe('ownSignals', () => {
  it('the first signal stops every cluster now, cleanly and said; only a second exits at once', () => {
    const proc = Object.assign(new EventEmitter(), { exit: (code: number) => exits.push(code) }) as unknown as NodeJS.Process;
    const exits: number[] = [];
    const said: string[] = [];
    const stop = new FleetStop();
    const undo = ownSignals(stop, 'ana@jump', (l) => said.push(l), proc);
    proc.emit('SIGTERM');
    expect(stop.signal.aborted).toBe(true);
    expect(stop.requested()).toEqual({ mode: 'now', how: 'signal', reason: 'SIGTERM', by: 'ana@jump' });
    expect(exits).toEqual([]);
    expect(said[0]).toMatch(/^SIGTERM: stopping every cluster at its next safe point/);
    proc.emit('SIGINT');
    expect(exits).toEqual([130]);
    undo();
    expect((proc as unknown as EventEmitter).listenerCount('SIGTERM')).toBe(0);
  });
});

describe('fleet stop', () => {
  it('refused when no coordinator runs the fleet', async () => {
    const paths = fleetPaths(mkdtempSync(join(tmpdir(), 'up-fleet-stop-')), 'edge');
    await expect(requestStop(paths, 'halt', 'ana@jump')).rejects.toThrow(/No coordinator runs fleet .*: there is nothing to stop/);
  });

  it('the running coordinator picks the request up and removes it', async () => {
    const paths = fleetPaths(mkdtempSync(join(tmpdir(), 'up-fleet-stop-')), 'edge');
    const journal = new FleetJournal(paths); // holds the lock, as a running coordinator does
    const stop = new FleetStop();
    const seen: string[] = [];
    const unwatch = watchStopRequests(paths, stop, (r, did) => seen.push(`${r.reason} ${did}`));
    try {
      await requestStop(paths, 'halt', 'bo@desk');
      expect(stop.halt.aborted).toBe(true);
      expect(stop.requested()).toEqual({ mode: 'halt', how: 'operator', reason: 'fleet stop', by: 'bo@desk' });
      await requestStop(paths, 'now', 'bo@desk');
      await until('the second request', () => seen.length === 2);
      expect(seen).toEqual(['fleet stop halt', 'fleet stop --now now']);
      expect(existsSync(join(paths.dir, 'stop-request.json'))).toBe(false);
    } finally {
      unwatch();
      journal.close();
    }
  });
});
