/**
 * The `large` scenario's list through the real kubectl: 20,000 pods via `get --raw`, whole and
 * paged. The time is printed for the record; the bench measures it, this only guards correctness
 * and a gross regression.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type Lab } from './lab-fixture.js';
import { seedManyPods } from './seed.js';

const PODS = 20_000;

describe('20,000 pods through kubectl get --raw', () => {
  let lab: Lab;

  beforeAll(async () => {
    lab = await startLab({ seed: (store) => seedManyPods(store, PODS) });
  });
  afterAll(async () => {
    await lab.close();
  });

  it('passes the whole list through', async () => {
    const r = await lab.kubectl(['get', '--raw', '/api/v1/pods']);
    expect(r.code).toBe(0);
    const list = JSON.parse(r.stdout) as { kind: string; items: Array<{ metadata: { name: string } }> };
    expect(list.kind).toBe('PodList');
    expect(list.items).toHaveLength(PODS);
    expect(new Set(list.items.map((p) => p.metadata.name)).size).toBe(PODS);
    // How fast is a goal of `npm run bench` (kubectl get --raw /api/v1/pods at 20,000 pods); here, the figure.
    console.info(`kubectl get --raw /api/v1/pods with ${PODS} pods: ${r.ms} ms, ${(r.stdout.length / 1e6).toFixed(1)} MB`);
  });

  it('pages through it with limit and continue, server-side selectors applied', async () => {
    const selector = encodeURIComponent('status.phase!=Running');
    let path = `/api/v1/pods?limit=500&fieldSelector=${selector}`;
    let seen = 0;
    let pages = 0;
    while (pages < 10) {
      const r = await lab.kubectl(['get', '--raw', path]);
      const page = JSON.parse(r.stdout) as { items: unknown[]; metadata: { continue?: string } };
      seen += page.items.length;
      pages += 1;
      if (!page.metadata.continue) break;
      path = `/api/v1/pods?limit=500&fieldSelector=${selector}&continue=${encodeURIComponent(page.metadata.continue)}`;
    }
    expect(seen).toBe(PODS / 10);
    expect(pages).toBe(PODS / 10 / 500);
  });
});
