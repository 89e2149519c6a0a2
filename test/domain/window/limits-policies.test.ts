/** KubeVirt's limits with its defaults where unset; which MigrationPolicy a VMI gets. */
import { describe, expect, it } from 'vitest';
import { parseQuantity } from '../../../src/domain/units/quantity.js';
import { migrationLimits } from '../../../src/domain/window/limits.js';
import { limitsFor, policyFor, policyView } from '../../../src/domain/window/policies.js';
import type { MigrationPolicyView } from '../../../src/domain/window/types.js';

describe('parseQuantity', () => {
  it.each([
    ['64Mi', 64 * 2 ** 20],
    ['1Gi', 2 ** 30],
    ['0', 0],
    ['0Mi', 0],
    ['500M', 5e8],
    ['1.5Gi', 1.5 * 2 ** 30],
    [42, 42],
    ['fast', undefined],
    ['-1Mi', undefined],
    [null, undefined],
  ])('%s', (input, bytes) => expect(parseQuantity(input)).toBe(bytes));
});

describe('migrationLimits', () => {
  it('KubeVirt defaults where nothing is set, and says none was set', () => {
    expect(migrationLimits({ spec: {} })).toEqual({
      parallelMigrationsPerCluster: 5,
      parallelOutboundMigrationsPerNode: 2,
      bandwidthPerMigration: 0,
      completionTimeoutPerGiB: 150,
      progressTimeout: 150,
      allowAutoConverge: false,
      allowPostCopy: false,
      workloadUpdateMethods: [],
      batchEvictionSize: 10,
      batchEvictionIntervalSeconds: 60,
      setFields: [],
    });
  });

  it('reads what the cluster sets, nulls as unset (a Go pointer)', () => {
    const l = migrationLimits({
      spec: {
        configuration: { migrations: { parallelMigrationsPerCluster: 10, parallelOutboundMigrationsPerNode: null, bandwidthPerMigration: '64Mi', completionTimeoutPerGiB: 800, allowAutoConverge: true } },
        workloadUpdateStrategy: { workloadUpdateMethods: ['LiveMigrate', 'Evict'], batchEvictionSize: 20, batchEvictionInterval: '2m30s' },
      },
    });
    expect(l).toMatchObject({ parallelMigrationsPerCluster: 10, parallelOutboundMigrationsPerNode: 2, bandwidthPerMigration: 64 * 2 ** 20, completionTimeoutPerGiB: 800, allowAutoConverge: true, batchEvictionSize: 20, batchEvictionIntervalSeconds: 150 });
    expect(l.workloadUpdateMethods).toEqual(['LiveMigrate', 'Evict']);
    expect(l.setFields).not.toContain('parallelOutboundMigrationsPerNode');
    expect(l.setFields).toContain('bandwidthPerMigration');
  });
});

describe('MigrationPolicy selection (kubevirt migrationpolicy.go: most labels, then most VMI labels)', () => {
  const p = (name: string, vmi: Record<string, string>, ns: Record<string, string> = {}, extra: Partial<MigrationPolicyView> = {}): MigrationPolicyView => ({ name, vmiSelector: vmi, namespaceSelector: ns, ...extra });
  const policies = [p('db', { app: 'db' }), p('db-prod', { app: 'db' }, { env: 'prod' }), p('tier', {}, { env: 'prod' }), p('both-vmi', { app: 'db', tier: 'gold' })];
  it.each([
    ['no label matches', { app: 'web' }, {}, undefined],
    ['one VMI label', { app: 'db' }, {}, 'db'],
    ['VMI and namespace labels beat one of them', { app: 'db' }, { env: 'prod' }, 'db-prod'],
    ['a tie in total goes to more VMI labels', { app: 'db', tier: 'gold' }, { env: 'prod' }, 'both-vmi'],
    ['namespace only', { app: 'web' }, { env: 'prod' }, 'tier'],
  ])('%s', (_n, vmi, ns, want) => expect(policyFor(policies, vmi, ns)?.name).toBe(want));

  it('reads selectors as maps or under matchLabels, and a policy overrides the cluster only where it says', () => {
    const view = policyView({ metadata: { name: 'x' }, spec: { allowPostCopy: true, bandwidthPerMigration: '217Ki', selectors: { namespaceSelector: { matchLabels: { a: 'b' } }, virtualMachineInstanceSelector: { os: '' } } } })!;
    expect(view).toMatchObject({ name: 'x', allowPostCopy: true, bandwidthPerMigration: 217 * 1024, namespaceSelector: { a: 'b' }, vmiSelector: { os: '' } });
    expect(limitsFor(migrationLimits({}), view)).toEqual({ policy: 'x', bandwidthPerMigration: 217 * 1024, completionTimeoutPerGiB: 150, allowAutoConverge: false, allowPostCopy: true });
  });
});
