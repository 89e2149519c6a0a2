/**
 * The fleet's notifications: a stage started, its approval waiting, a stage ended with its counts,
 * the fleet's end with its summary, delivered by the session notifier to a `--notify-command` that
 * records what it got (its stdin and its environment). Cluster start and end events send nothing.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFleetNotifications } from '../../src/fleet/notify.js';
import { fleetEndMessage, fleetEventMessage } from '../../src/fleet/notify-message.js';
import { foldFleet } from '../../src/fleet/state.js';
import type { FleetEvent, FleetState } from '../../src/fleet/types.js';
import { notifyConfig } from '../../src/notify/config.js';
import { planEvent } from './plan-fixture.js';

const at = '2026-11-27T10:00:00.000Z';
const planned = planEvent(
  at,
  [
    { name: 'canary', clusters: ['s1'], maxConcurrency: 1, failureThreshold: 1, approval: false },
    { name: 'wave-1', clusters: ['s2', 's3', 's4'], maxConcurrency: 2, failureThreshold: '50%', approval: true },
  ],
  [{ name: 's9', uid: 'u-s9', reason: 'template' }],
);
const state = (...more: FleetEvent[]): FleetState => foldFleet([planned, ...more])!;
const ended = (cluster: string, outcome: 'done' | 'failed'): FleetEvent => ({ type: 'cluster.ended', at, cluster, session: `sess-${cluster}`, outcome, exitCode: outcome === 'done' ? 0 : 1 });
const started = (cluster: string): FleetEvent => ({ type: 'cluster.started', at, cluster, session: `sess-${cluster}`, attempt: 1, resumed: false });
const how = { interactive: false, resume: 'upgrade-pilot fleet resume --fleet /ops/edge.yaml' };

describe('fleet notification messages', () => {
  it.each([
    [{ type: 'stage.started', stage: 'wave-1' }, state(), { event: 'stage.started', stage: 'wave-1', counts: { untouched: 3 } }, 'upgrade-pilot fleet edge (to 4.6.3): stage wave-1 started: 3 cluster(s), 2 at a time, stops at 2 failure(s).'],
    [
      { type: 'gate', gate: 'stage', stage: 'wave-1' },
      state(),
      { event: 'stage.approval', stage: 'wave-1' },
      'upgrade-pilot fleet edge (to 4.6.3): stage wave-1 (3 cluster(s)) waits for your approval before it starts. Approve it with: upgrade-pilot fleet resume --fleet /ops/edge.yaml --approve stage',
    ],
    [{ type: 'stage.ended', stage: 'canary', outcome: 'done' }, state(started('s1'), ended('s1', 'done')), { event: 'stage.ended', stage: 'canary', outcome: 'done', counts: { upgraded: 1 } }, 'upgrade-pilot fleet edge (to 4.6.3): stage canary done: 1 upgraded.'],
    [
      { type: 'stage.ended', stage: 'wave-1', outcome: 'failed', message: '2 failure(s) reached the threshold 2 (last: s3)\nmore' },
      state(started('s2'), ended('s2', 'failed'), started('s3'), ended('s3', 'failed')),
      { event: 'stage.ended', stage: 'wave-1', outcome: 'failed', counts: { failed: 2, untouched: 1 } },
      'upgrade-pilot fleet edge (to 4.6.3): stage wave-1 failed: 2 failed, 1 untouched. 2 failure(s) reached the threshold 2 (last: s3).',
    ],
  ])('%j', (event, s, fields, text) => {
    expect(fleetEventMessage(event, s, how, at)).toEqual({ fleet: 'edge', target: '4.6.3', at, ...fields, text });
  });

  it.each([{ type: 'cluster.started', stage: 'canary' }, { type: 'cluster.ended', stage: 'canary' }, { type: 'stage.started', stage: 'nope' }, { type: 'gate', gate: 'draft', stage: 'canary' }])('sends nothing for %j', (event) => {
    expect(fleetEventMessage(event, state(), how, at)).toBeUndefined();
  });

  it('in the TUI, a stage approval is answered in the terminal', () => {
    expect(fleetEventMessage({ type: 'gate', gate: 'stage', stage: 'wave-1' }, state(), { ...how, interactive: true }, at)!.text).toMatch(/waits for your approval before it starts\. Answer it in the terminal running the fleet\.$/);
  });

  it.each([
    [0, 'fleet.done', 'upgrade-pilot fleet edge (to 4.6.3) finished every stage: 1 upgraded, 3 untouched, 1 left out. Report: /r.md'],
    [1, 'fleet.failed', 'upgrade-pilot fleet edge (to 4.6.3) stopped at a failure: 1 upgraded, 3 untouched, 1 left out. Continue with: upgrade-pilot fleet resume --fleet /ops/edge.yaml (report: /r.md)'],
    [3, 'fleet.stopped', 'upgrade-pilot fleet edge (to 4.6.3) stopped: 1 upgraded, 3 untouched, 1 left out. Continue with: upgrade-pilot fleet resume --fleet /ops/edge.yaml (report: /r.md)'],
  ])('the end with exit %d: %s', (code, event, text) => {
    expect(fleetEndMessage(state(started('s1'), ended('s1', 'done')), code, { resume: how.resume, report: '/r.md' }, at)).toMatchObject({ event, exitCode: code, counts: { upgraded: 1, untouched: 3, 'left out': 1 }, text });
  });
});

describe('fleet notifications through --notify-command', () => {
  it('the command gets each stage message and the end, with the fleet in its environment, and nothing for a cluster', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'up-fleet-notify-'));
    const got = join(dir, 'got.ndjson');
    const recorder = join(dir, 'record.mjs');
    writeFileSync(
      recorder,
      `import { appendFileSync, readFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(got)}, JSON.stringify({ env: { event: process.env.UPGRADE_PILOT_EVENT, fleet: process.env.UPGRADE_PILOT_FLEET, session: process.env.UPGRADE_PILOT_SESSION ?? null }, body: JSON.parse(readFileSync(0, 'utf8')) }) + '\\n');\n`,
    );
    const config = notifyConfig({ 'notify-command': `${process.execPath} ${recorder}` }, { timeout: 10_000 } as never);
    const logged: string[] = [];
    const n = startFleetNotifications({ config, resume: how.resume, interactive: false, log: (m) => logged.push(m), redact: (t) => t.replace(/s3cr3t/g, '[redacted]') });
    n.event({ type: 'stage.started', stage: 'canary' }, state());
    n.event({ type: 'cluster.started', stage: 'canary' }, state(started('s1')));
    n.event({ type: 'stage.ended', stage: 'canary', outcome: 'done' }, state(started('s1'), ended('s1', 'done')));
    n.event({ type: 'gate', gate: 'stage', stage: 'wave-1' }, state(started('s1'), ended('s1', 'done')));
    n.ended(state(started('s1'), ended('s1', 'done')), 3, '/state/fleets/edge/report.md s3cr3t');
    await n.flush();
    expect(logged).toEqual([]);
    const lines = readFileSync(got, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { env: Record<string, string | null>; body: Record<string, unknown> });
    expect(lines.map((l) => l.env)).toEqual(['stage.started', 'stage.ended', 'stage.approval', 'fleet.stopped'].map((event) => ({ event, fleet: 'edge', session: null })));
    expect(lines.map((l) => [l.body.event, l.body.stage ?? null])).toEqual([['stage.started', 'canary'], ['stage.ended', 'canary'], ['stage.approval', 'wave-1'], ['fleet.stopped', null]]);
    expect(lines[1]!.body.counts).toEqual({ upgraded: 1 });
    expect(lines[3]!.body).toMatchObject({ exitCode: 3, counts: { upgraded: 1, untouched: 3, 'left out': 1 } });
    expect(JSON.stringify(lines)).not.toContain('s3cr3t');
  });
});
