import { describe, expect, it } from 'vitest';
import { ResourceStore, kubeTimestamp } from '../../../src/lab/kube/store.js';
import { KubeStatusException } from '../../../src/lab/kube/status.js';
import { namespace, node, pod, vmi } from './seed.js';

const NOW = Date.parse('2025-03-04T05:06:07.890Z');
const newStore = (): ResourceStore => new ResourceStore({ now: () => NOW });

describe('ResourceStore', () => {
  it('fills uid, resourceVersion and creationTimestamp from the simulated clock', () => {
    const store = newStore();
    const created = store.upsert('pods', pod('ns', 'a'));
    expect(created.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.metadata.creationTimestamp).toBe('2025-03-04T05:06:07Z');
    expect(Number(created.metadata.resourceVersion)).toBeGreaterThan(0);
    expect(store.resourceVersion()).toBe(created.metadata.resourceVersion);
  });

  it('keeps given identity fields and the identity of a replaced object', () => {
    const store = newStore();
    const given = pod('ns', 'a');
    given.metadata.uid = 'fixed-uid';
    given.metadata.creationTimestamp = '2024-01-01T00:00:00Z';
    const first = store.upsert('pods', given);
    const replaced = store.upsert('pods', pod('ns', 'a', { phase: 'Failed' }));
    expect(first.metadata.uid).toBe('fixed-uid');
    expect(replaced.metadata.uid).toBe('fixed-uid');
    expect(replaced.metadata.creationTimestamp).toBe('2024-01-01T00:00:00Z');
    expect(replaced.status?.phase).toBe('Failed');
    expect(store.count('pods')).toBe(1);
  });

  it('hands out strictly increasing resourceVersions across resources and operations', () => {
    const store = newStore();
    const versions = [
      store.upsert('pods', pod('ns', 'a')).metadata.resourceVersion,
      store.upsert('nodes', node('n1')).metadata.resourceVersion,
      store.update('pods', 'ns', 'a', (o) => {
        o.metadata.labels = { changed: 'yes' };
      })?.metadata.resourceVersion,
    ].map(Number);
    store.remove('nodes', undefined, 'n1');
    versions.push(Number(store.resourceVersion()));
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
  });

  it('stores a copy and returns frozen objects, so stale JSON cannot happen silently', () => {
    const store = newStore();
    const input = pod('ns', 'a');
    store.upsert('pods', input);
    input.status!.phase = 'Mutated after upsert';
    const stored = store.get('pods', 'ns', 'a')!;
    expect(stored.status?.phase).toBe('Running');
    expect(() => {
      (stored.status as Record<string, unknown>).phase = 'x';
    }).toThrow(TypeError);
  });

  it('update changes the object, bumps its version and refreshes the cached JSON', () => {
    const store = newStore();
    store.upsert('pods', pod('ns', 'a'));
    const entry = store.entry('pods', 'ns', 'a')!;
    expect(JSON.parse(store.json(entry)).status.phase).toBe('Running');
    const before = entry.obj.metadata.resourceVersion;
    store.update('pods', 'ns', 'a', (o) => {
      (o.status as Record<string, unknown>).phase = 'Failed';
    });
    expect(JSON.parse(store.json(store.entry('pods', 'ns', 'a')!)).status.phase).toBe('Failed');
    expect(store.get('pods', 'ns', 'a')!.metadata.resourceVersion).not.toBe(before);
    expect(store.update('pods', 'ns', 'missing', () => undefined)).toBeUndefined();
  });

  it('refuses an update that renames the object', () => {
    const store = newStore();
    store.upsert('pods', pod('ns', 'a'));
    expect(() =>
      store.update('pods', 'ns', 'a', (o) => {
        o.metadata.name = 'b';
      }),
    ).toThrow(/must not change its name/);
    expect(store.get('pods', 'ns', 'a')).toBeDefined();
  });

  it('lists in etcd key order, filtered by namespace and selectors', () => {
    const store = newStore();
    store.upsert('pods', pod('b', 'z', { labels: { app: 'x' } }));
    store.upsert('pods', pod('a', 'y', { labels: { app: 'x' }, phase: 'Pending' }));
    store.upsert('pods', pod('a', 'x', { labels: { app: 'other' } }));
    const names = (opts = {}): string[] => store.list('pods', opts).map((p) => `${p.metadata.namespace}/${p.metadata.name}`);
    expect(names()).toEqual(['a/x', 'a/y', 'b/z']);
    expect(names({ namespace: 'a' })).toEqual(['a/x', 'a/y']);
    expect(names({ labelSelector: 'app=x' })).toEqual(['a/y', 'b/z']);
    expect(names({ fieldSelector: 'status.phase!=Running' })).toEqual(['a/y']);
    expect(names({ namespace: 'b', labelSelector: 'app=x', fieldSelector: 'metadata.name=z' })).toEqual(['b/z']);
    expect(() => store.list('pods', { labelSelector: 'app in ()' })).toThrow(KubeStatusException);
  });

  it('does not confuse namespaces that share a prefix', () => {
    const store = newStore();
    store.upsert('pods', pod('ns', 'a'));
    store.upsert('pods', pod('ns-2', 'b'));
    expect(store.list('pods', { namespace: 'ns' }).map((p) => p.metadata.name)).toEqual(['a']);
  });

  it('ignores the namespace for cluster-scoped types', () => {
    const store = newStore();
    store.upsert('nodes', node('n1'));
    expect(store.get('nodes', 'whatever', 'n1')?.metadata.name).toBe('n1');
    expect(store.list('nodes', { namespace: 'whatever' })).toHaveLength(1);
  });

  it('generates a name from generateName', () => {
    const store = newStore();
    const created = store.upsert('virtualmachineinstancemigrations', {
      apiVersion: 'kubevirt.io/v1',
      kind: 'VirtualMachineInstanceMigration',
      metadata: { name: '', generateName: 'kubevirt-workload-update-', namespace: 'vms' },
      spec: { vmiName: 'vm1' },
    });
    expect(created.metadata.name).toMatch(/^kubevirt-workload-update-[a-z0-9]{5}$/);
    expect(store.get('virtualmachineinstancemigrations', 'vms', created.metadata.name)).toBeDefined();
  });

  it('removes objects and reports what was removed', () => {
    const store = newStore();
    store.upsert('virtualmachineinstances', vmi('vms', 'a'));
    expect(store.remove('virtualmachineinstances', 'vms', 'a')?.metadata.name).toBe('a');
    expect(store.remove('virtualmachineinstances', 'vms', 'a')).toBeUndefined();
    expect(store.count('virtualmachineinstances')).toBe(0);
    expect(store.list('virtualmachineinstances')).toEqual([]);
  });

  it.each([
    ['an unknown resource', 'widgets', pod('ns', 'a'), /does not serve "widgets"/],
    ['a kind that does not match', 'nodes', pod('ns', 'a'), /expected v1 Node/],
    ['a namespaced object without namespace', 'pods', { ...pod('ns', 'a'), metadata: { name: 'a' } }, /namespace is required/],
    ['a cluster-scoped object with a namespace', 'namespaces', { ...namespace('x'), metadata: { name: 'x', namespace: 'y' } }, /cluster-scoped/],
    ['an object without name', 'pods', { ...pod('ns', 'a'), metadata: { name: '', namespace: 'ns' } }, /metadata.name/],
  ])('refuses %s', (_what, resource, obj, message) => {
    expect(() => newStore().upsert(resource, obj)).toThrow(message);
  });

  it('formats timestamps with whole seconds', () => {
    expect(kubeTimestamp(Date.parse('2025-01-02T03:04:05.999Z'))).toBe('2025-01-02T03:04:05Z');
  });

  // How fast is the bench's business (`kubectl get --raw /api/v1/pods` at 20,000 pods in `npm run bench`).
  it('lists 20,000 pods with a field selector: exactly the 2,000 that match, in the store\'s order', () => {
    const store = newStore();
    for (let i = 0; i < 20_000; i += 1) store.upsert('pods', pod(`ns-${i % 40}`, `p-${i}`, { phase: i % 10 === 0 ? 'Pending' : 'Running' }));
    const all = store.list('pods');
    const pending = store.list('pods', { fieldSelector: 'status.phase!=Running' });
    expect(pending).toHaveLength(2_000);
    expect(pending.every((p) => (p.status as { phase?: string }).phase === 'Pending')).toBe(true);
    expect(pending.map((p) => p.metadata.name)).toEqual(all.filter((p) => (p.status as { phase?: string }).phase === 'Pending').map((p) => p.metadata.name));
  });
});
