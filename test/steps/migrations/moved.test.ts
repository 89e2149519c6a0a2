import { describe, expect, it } from 'vitest';
import type { Vmim } from '../../../src/kube/schemas.js';
import { movedOutput, recordPoll, startLedger } from '../../../src/steps/migrations/moved.js';
import type { OutdatedVmi } from '../../../src/steps/migrations/monitor-types.js';

const since = Date.parse('2026-11-22T04:00:00.500Z');
const vmim = (name: string, vmi: string, phase: string, start?: string, end?: string, created = '2026-11-22T03:59:00Z'): Vmim => ({
  metadata: { name, namespace: 'vms', creationTimestamp: created },
  spec: { vmiName: vmi },
  status: { phase, migrationState: { ...(start ? { startTimestamp: start } : {}), ...(end ? { endTimestamp: end } : {}), sourceNode: 'n1', targetNode: 'n2' } },
});
const outdated = (vmi: string, migratable: boolean, willMove = true): OutdatedVmi => ({ vmi, node: 'n1', migratable, willMove });

describe('what moved during a hop', () => {
  it('counts migrations that succeeded since the hop began, with their duration, the latest per VM', () => {
    const ledger = startLedger(since);
    recordPoll(
      ledger,
      [
        vmim('old', 'web-1', 'Succeeded', '2026-11-22T03:50:00Z', '2026-11-22T03:51:00Z'),
        vmim('m1', 'web-1', 'Succeeded', '2026-11-22T04:00:10Z', '2026-11-22T04:00:31Z'),
        vmim('m2', 'db-1', 'Failed', '2026-11-22T04:00:10Z', '2026-11-22T04:00:20Z'),
        vmim('m3', 'api-1', 'Running', '2026-11-22T04:00:10Z'),
        // ended in the hop's first second: the stamps are whole seconds, so it counts
        vmim('m4', 'api-2', 'Succeeded', '2026-11-22T03:59:40Z', '2026-11-22T04:00:00Z'),
      ],
      { outdated: [] },
      {},
    );
    recordPoll(ledger, [vmim('m5', 'web-1', 'Succeeded', '2026-11-22T04:02:00Z', '2026-11-22T04:02:05Z')], { outdated: [] }, {});
    const out = movedOutput(ledger, { outdated: [] }, {});
    expect(out.migrated.map((m) => [m.vm, m.migration, m.seconds])).toEqual([
      ['vms/api-2', 'vms/m4', 20],
      ['vms/web-1', 'vms/m5', 5],
    ]);
    expect(out.migrated[1]).toMatchObject({ endedAt: '2026-11-22T04:02:05.000Z', source: 'n1', target: 'n2' });
    expect(out.totals).toEqual({ migrated: 2, evicted: 0 });
    expect(out.labTime).toBeUndefined();
  });

  it('an outdated VM that cannot live-migrate and then is no longer outdated was evicted; one still outdated was not', () => {
    const ledger = startLedger(since);
    recordPoll(ledger, [], { outdated: [outdated('vms/batch-1', false), outdated('vms/batch-2', false), outdated('vms/cache-1', false, false), outdated('vms/web-1', true)] }, {});
    recordPoll(ledger, [vmim('m1', 'web-1', 'Succeeded', '2026-11-22T04:01:00Z', '2026-11-22T04:01:20Z')], { outdated: [outdated('vms/batch-2', false), outdated('vms/cache-1', false, false)] }, {});
    const out = movedOutput(ledger, { outdated: [outdated('vms/batch-2', false), outdated('vms/cache-1', false, false)] }, { simulated: { label: 'lab time', speed: () => 1, toWall: (t) => t, fromWall: (t) => t } });
    expect(out.evicted).toEqual(['vms/batch-1']);
    expect(out.migrated.map((m) => m.vm)).toEqual(['vms/web-1']);
    expect(out.labTime).toBe(true);
    expect(out.labSpeed).toBe(1);
  });

  it("the migration phase as the plan predicts it: the workload updater's first migration of the hop to the last one's end, failed ones included", () => {
    const ledger = startLedger(since);
    const update = (m: Vmim): Vmim => ({ ...m, metadata: { ...m.metadata, annotations: { 'kubevirt.io/workloadUpdateMigration': 'vms/x' } } });
    recordPoll(
      ledger,
      [
        // an evacuation and an earlier hop's update: not this phase
        vmim('evac', 'web-9', 'Succeeded', '2026-11-22T04:00:05Z', '2026-11-22T04:09:00Z', '2026-11-22T04:00:02Z'),
        update(vmim('older', 'web-8', 'Succeeded', '2026-11-22T03:58:00Z', '2026-11-22T03:58:30Z', '2026-11-22T03:57:50Z')),
        update(vmim('u1', 'web-1', 'Succeeded', '2026-11-22T04:03:10Z', '2026-11-22T04:03:40Z', '2026-11-22T04:03:00Z')),
        update(vmim('u2', 'db-1', 'Running', '2026-11-22T04:03:20Z', undefined, '2026-11-22T04:03:05Z')),
      ],
      { outdated: [] },
      {},
    );
    expect(movedOutput(ledger, { outdated: [] }, {}).phase).toEqual({ firstCreated: '2026-11-22T04:03:00.000Z', seconds: 40 });
    recordPoll(ledger, [update(vmim('u2', 'db-1', 'Failed', '2026-11-22T04:03:20Z', '2026-11-22T04:06:00Z', '2026-11-22T04:03:05Z'))], { outdated: [] }, {});
    expect(movedOutput(ledger, { outdated: [] }, {}).phase).toEqual({ firstCreated: '2026-11-22T04:03:00.000Z', seconds: 180 });
    expect(movedOutput(startLedger(since), { outdated: [] }, {}).phase).toBeUndefined();
  });
});
