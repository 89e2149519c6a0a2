import { describe, expect, it } from 'vitest';
import type { Vmim } from '../../../src/kube/schemas.js';
import { migrationsItem } from '../../../src/steps/preflight/cluster-state.js';

const m = (name: string, vmi: string, phase: string, created: string): Vmim => ({ metadata: { name, namespace: 'vms', creationTimestamp: created }, spec: { vmiName: vmi }, status: { phase } });

describe('preflight: migrations, each VMI judged by its latest', () => {
  it.each<[string, Vmim[], string, string]>([
    ['all succeeded', [m('a', 'db', 'Succeeded', '2026-03-01T00:00:00Z')], 'pass', '1 migration(s), all Succeeded.'],
    ['failures a later success superseded (last week’s drain) are history', [m('a', 'db', 'Failed', '2026-03-01T00:00:00Z'), m('b', 'db', 'Failed', '2026-03-01T00:20:00Z'), m('c', 'db', 'Succeeded', '2026-03-02T00:00:00Z')], 'pass', '3 migration(s), the 2 that failed superseded by a later success.'],
    ['a latest failure warns', [m('a', 'db', 'Succeeded', '2026-03-01T00:00:00Z'), m('b', 'db', 'Failed', '2026-03-02T00:00:00Z')], 'warn', '1 failed and 0 unfinished migration(s).'],
    ['one in flight warns', [m('a', 'web', 'Running', '2026-03-02T00:00:00Z')], 'warn', '0 failed and 1 unfinished migration(s).'],
  ])('%s', (_what, migrations, status, summary) => {
    const item = migrationsItem(migrations);
    expect(item.status).toBe(status);
    expect(item.summary).toBe(summary);
  });
});
