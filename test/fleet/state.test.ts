/** The fleet journal folded into state, and the failure threshold. */
import { describe, expect, it } from 'vitest';
import { applyFleetEvents, failureLimit, foldFleet } from '../../src/fleet/state.js';
import type { FleetEvent } from '../../src/fleet/types.js';

const at = '2026-11-27T10:00:00.000Z';
const planned: FleetEvent = {
  type: 'fleet.planned',
  at,
  fleet: 'edge',
  file: '/f.yaml',
  digest: 'd',
  target: '4.6.3',
  by: 'op@host',
  stages: [{ name: 'canary', clusters: ['a'], maxConcurrency: 1, failureThreshold: 1, approval: true }],
  clusters: [{ name: 'a', uid: 'u-a', stage: 'canary', paramsFile: '/a.yaml' }],
  leftOut: [],
};

describe('foldFleet', () => {
  it('is undefined without a plan first', () => {
    expect(foldFleet([])).toBeUndefined();
    expect(foldFleet([{ type: 'stage.started', at, stage: 'canary' }])).toBeUndefined();
  });

  it.each<[string, FleetEvent[], string, number]>([
    ['planned', [], 'pending', 0],
    ['started', [{ type: 'cluster.started', at, cluster: 'a', session: 's1', attempt: 1, resumed: false }], 'running', 1],
    ['failed', [{ type: 'cluster.started', at, cluster: 'a', session: 's1', attempt: 1, resumed: false }, { type: 'cluster.ended', at, cluster: 'a', session: 's1', outcome: 'failed', exitCode: 1, message: 'm' }], 'failed', 1],
    ['stopped by the stage', [{ type: 'cluster.started', at, cluster: 'a', session: 's1', attempt: 1, resumed: false }, { type: 'cluster.ended', at, cluster: 'a', session: 's1', outcome: 'interrupted', exitCode: 130 }], 'stopped', 1],
    [
      'retried to done',
      [
        { type: 'cluster.started', at, cluster: 'a', session: 's1', attempt: 1, resumed: false },
        { type: 'cluster.ended', at, cluster: 'a', session: 's1', outcome: 'failed', exitCode: 1 },
        { type: 'cluster.started', at, cluster: 'a', session: 's1', attempt: 2, resumed: true },
        { type: 'cluster.ended', at, cluster: 'a', session: 's1', outcome: 'done', exitCode: 0 },
      ],
      'done',
      2,
    ],
    ['skipped', [{ type: 'cluster.skipped', at, cluster: 'a', reason: 'closed', by: 'op@host' }], 'skipped', 0],
    ['vanished from Palette after the plan', [{ type: 'cluster.vanished', at, cluster: 'a' }], 'vanished', 0],
  ])('a cluster %s', (_name, events, status, attempts) => {
    const s = foldFleet([planned, ...events])!;
    expect(s.clusters[0]).toMatchObject({ status, attempts });
  });

  it('keeps who approved a stage and how it ended', () => {
    const s = foldFleet([
      planned,
      { type: 'stage.approved', at, stage: 'canary', by: 'op@host', how: 'flag --approve stage' },
      { type: 'stage.started', at, stage: 'canary' },
      { type: 'stage.ended', at, stage: 'canary', outcome: 'failed', message: 'a failed' },
    ])!;
    expect(s.stages[0]).toMatchObject({ status: 'failed', approvedBy: 'op@host (flag --approve stage)', message: 'a failed' });
  });

  const soakStarted: FleetEvent = { type: 'stage.soak.started', at, stage: 'canary', until: '2026-11-27T11:00:00.000Z', untilWall: '2026-11-27T10:12:00.000Z' };
  const soak = { until: '2026-11-27T11:00:00.000Z', untilWall: '2026-11-27T10:12:00.000Z' };
  const unhealthy: FleetEvent = { type: 'cluster.unhealthy', at, cluster: 'a', stage: 'canary', evidence: ['node n: NotReady'] };
  it.each<[string, FleetEvent[], string, typeof soak | undefined, string[] | undefined]>([
    ['soaking', [soakStarted], 'soaking', soak, undefined],
    ['stopped in its soak (Ctrl+C): the resume soaks what is left', [soakStarted, { type: 'stage.ended', at, stage: 'canary', outcome: 'stopped' }], 'stopped', soak, undefined],
    ['resumed in its soak (after a crash or a stop)', [soakStarted, { type: 'stage.started', at, stage: 'canary' }], 'soaking', soak, undefined],
    ['failed by a cluster in its soak: the next soaks in full', [soakStarted, unhealthy, { type: 'stage.ended', at, stage: 'canary', outcome: 'failed' }], 'failed', undefined, ['node n: NotReady']],
    ['soaking again after that failure', [soakStarted, unhealthy, { type: 'stage.ended', at, stage: 'canary', outcome: 'failed' }, { type: 'stage.started', at, stage: 'canary' }, soakStarted], 'soaking', soak, undefined],
    ['soaked', [soakStarted, { type: 'stage.ended', at, stage: 'canary', outcome: 'done' }], 'done', undefined, undefined],
  ])('a stage %s', (_name, events, status, want, evidence) => {
    const s = foldFleet([planned, { type: 'stage.started', at, stage: 'canary' }, ...events])!;
    expect(s.stages[0]!.status).toBe(status);
    expect(s.stages[0]!.soak).toEqual(want);
    expect(s.clusters[0]!.unhealthy).toEqual(evidence);
  });
});

describe('failureLimit', () => {
  it.each([
    [1, 8, 1],
    [3, 8, 3],
    ['10%', 8, 1],
    ['25%', 8, 2],
    ['30%', 8, 3],
    ['100%', 8, 8],
    ['1%', 200, 2],
  ])('%s of %i clusters stops at %i failure(s)', (threshold, total, want) => {
    expect(failureLimit(threshold, total)).toBe(want);
  });
});

describe('applyFleetEvents: the coordinator’s state kept record by record', () => {
  const two: FleetEvent = {
    ...planned,
    stages: [{ name: 'canary', clusters: ['a', 'b'], maxConcurrency: 1, failureThreshold: 1, approval: false }],
    clusters: [
      { name: 'a', uid: 'u-a', stage: 'canary', paramsFile: '/a.yaml' },
      { name: 'b', uid: 'u-b', stage: 'canary', paramsFile: '/b.yaml' },
    ],
  } as FleetEvent;
  const records: FleetEvent[] = [
    two,
    { type: 'fleet.run', at, by: 'op@host', command: 'start', approvals: { gates: ['stage'], restarts: [], acceptFixes: [], revoked: [] }, added: [], revoked: [] } as unknown as FleetEvent,
    { type: 'stage.started', at, stage: 'canary' },
    { type: 'cluster.started', at, cluster: 'a', session: 's1', attempt: 1, resumed: false },
    { type: 'cluster.ended', at, cluster: 'a', session: 's1', outcome: 'done', exitCode: 0 },
    { type: 'stage.soak.started', at, stage: 'canary', until: at, untilWall: at },
    { type: 'cluster.unhealthy', at, cluster: 'a', stage: 'canary', evidence: ['node n1 NotReady'] },
    { type: 'stage.ended', at, stage: 'canary', outcome: 'failed', message: 'a turned unhealthy' },
    { type: 'fleet.stopped', at, reason: 'Ctrl+C', mode: 'now', how: 'signal' },
  ];

  it('gives what folding the whole journal gives, after every record', () => {
    let state = foldFleet(records.slice(0, 1))!;
    for (let i = 1; i < records.length; i++) {
      state = applyFleetEvents(state, [records[i]!]);
      expect(state).toEqual(foldFleet(records.slice(0, i + 1)));
    }
  });

  it('leaves the state before as it was, and shares what the record does not touch', () => {
    const before = foldFleet(records.slice(0, 4))!;
    const copy = structuredClone(before);
    const after = applyFleetEvents(before, [records[4]!]);
    expect(before).toEqual(copy);
    expect(after.clusters[0]).toMatchObject({ name: 'a', status: 'done' });
    expect(before.clusters[0]).toMatchObject({ name: 'a', status: 'running' });
    expect(after.clusters[1]).toBe(before.clusters[1]);
    expect(after.stages[0]).toBe(before.stages[0]);
  });
});
