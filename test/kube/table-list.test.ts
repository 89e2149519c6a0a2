/**
 * Lists read as the server's table (kubectl.ts `listRaw` with `fromTable`, reader.ts
 * `vmiPhasesFromTable`): rows become items, pages are followed, and a table that lacks what is
 * needed makes the same page be read again as the whole list. The reads are stubbed here; the lab
 * serves real tables in read-proxy.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { Kubectl, type KubeTable } from '../../src/kube/kubectl.js';
import { vmiPhasesFromTable } from '../../src/kube/reader.js';

const columns = (...names: string[]) => names.map((name) => ({ name }));
const row = (name: string, phase: unknown, labels: Record<string, string> = {}) => ({
  cells: [name, '1d', phase],
  object: { kind: 'PartialObjectMetadata', metadata: { name, namespace: 'vms', creationTimestamp: '2026-11-01T00:00:00Z', labels } },
});

describe('vmiPhasesFromTable', () => {
  it.each<[string, KubeTable, unknown[] | undefined]>([
    ['rows with a phase', { columnDefinitions: columns('Name', 'Age', 'Phase'), rows: [row('a', 'Running', { x: 'y' })] }, [{ metadata: { name: 'a', namespace: 'vms', creationTimestamp: '2026-11-01T00:00:00Z', labels: { x: 'y' } }, status: { phase: 'Running' } }]],
    ['a row without a phase yet (null or empty)', { columnDefinitions: columns('Name', 'Age', 'Phase'), rows: [row('a', null), row('b', '')] }, [{ metadata: expect.objectContaining({ name: 'a' }), status: {} }, { metadata: expect.objectContaining({ name: 'b' }), status: {} }]],
    ['an empty list', { columnDefinitions: columns('Name', 'Age', 'Phase'), rows: [] }, []],
    ['no Phase column (another KubeVirt)', { columnDefinitions: columns('Name', 'Age', 'Status'), rows: [row('a', 'Running')] }, undefined],
    ['rows without their objects (includeObject not honoured)', { columnDefinitions: columns('Name', 'Age', 'Phase'), rows: [{ cells: ['a', '1d', 'Running'] }] }, undefined],
    ['rows without cells', { columnDefinitions: columns('Name', 'Age', 'Phase'), rows: [{ object: { metadata: { name: 'a' } } }] }, undefined],
  ])('%s', (_what, table, expected) => {
    expect(vmiPhasesFromTable(table)).toEqual(expected);
  });
});

/** A runner whose reads answer from a script, recording what was asked. */
class Scripted extends Kubectl {
  asked: Array<{ path: string; accept: string | undefined }> = [];
  constructor(private readonly answer: (path: string, accept: string | undefined) => unknown) {
    super({ requestTimeoutMs: 1000, processTimeoutMs: 1000, cacheDir: '/nonexistent', concurrency: 1, readProxy: true });
  }
  override async getRaw(path: string, _action: string, _signal?: AbortSignal, accept?: string): Promise<string> {
    this.asked.push({ path, accept });
    return JSON.stringify(this.answer(path, accept));
  }
}

const table = (rows: unknown[], next?: string) => ({ kind: 'Table', columnDefinitions: columns('Name', 'Age', 'Phase'), rows, metadata: next ? { continue: next } : {} });
const list = (items: unknown[], next?: string) => ({ kind: 'VirtualMachineInstanceList', items, metadata: next ? { continue: next } : {} });
const base = '/apis/kubevirt.io/v1/virtualmachineinstances';

describe('listRaw with fromTable', () => {
  it('asks for the table with the objects’ metadata, and follows its pages', async () => {
    const k = new Scripted((path) => (path.includes('continue=p2') ? table([row('b', 'Running')]) : table([row('a', 'Pending')], 'p2')));
    const items = await k.listRaw(base, { action: 'list', fromTable: vmiPhasesFromTable });
    expect(items.map((i) => (i as { metadata: { name: string } }).metadata.name)).toEqual(['a', 'b']);
    expect(k.asked.map((a) => a.path)).toEqual([`${base}?includeObject=Metadata`, `${base}?continue=p2&includeObject=Metadata`]);
    expect(k.asked.every((a) => a.accept?.startsWith('application/json;as=Table;v=v1;g=meta.k8s.io'))).toBe(true);
  });

  it('takes the list when the server answers with one (no table for this resource, or read as a process)', async () => {
    const k = new Scripted(() => list([{ metadata: { name: 'a' } }]));
    expect(await k.listRaw(base, { action: 'list', fromTable: vmiPhasesFromTable })).toEqual([{ metadata: { name: 'a' } }]);
  });

  it('reads the same page again as the list when the table lacks what is needed, and stays with lists', async () => {
    const k = new Scripted((path, accept) => {
      if (accept) return { kind: 'Table', columnDefinitions: columns('Name', 'Status'), rows: [row('a', 'x')], metadata: { continue: 'p2' } };
      return path.includes('continue=p2') ? list([{ metadata: { name: 'b' } }]) : list([{ metadata: { name: 'a' } }], 'p2');
    });
    const items = await k.listRaw(base, { action: 'list', fromTable: vmiPhasesFromTable });
    expect(items).toEqual([{ metadata: { name: 'a' } }, { metadata: { name: 'b' } }]);
    expect(k.asked.map((a) => [a.path, Boolean(a.accept)])).toEqual([
      [`${base}?includeObject=Metadata`, true],
      [base, false],
      [`${base}?continue=p2`, false],
    ]);
  });

  it('without a read proxy, asks for the list only (`kubectl get --raw` cannot ask for a table)', async () => {
    class Plain extends Kubectl {
      asked: string[] = [];
      override async getRaw(path: string, _a: string, _s?: AbortSignal, accept?: string): Promise<string> {
        this.asked.push(`${path} ${accept ?? ''}`.trim());
        return JSON.stringify(list([]));
      }
    }
    const k = new Plain({ requestTimeoutMs: 1000, processTimeoutMs: 1000, cacheDir: '/nonexistent', concurrency: 1 });
    await k.listRaw(base, { action: 'list', fromTable: vmiPhasesFromTable });
    expect(k.asked).toEqual([base]);
  });
});
