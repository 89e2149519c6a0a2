/** The frozen target set, read from a fleet lab's Palette over real sockets: template-managed and vanished clusters are left out, with why. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterExists, readTargets, selects, stageClusters } from '../../src/fleet/target-set.js';
import type { FleetStageSpec } from '../../src/fleet/schema.js';
import { startFleetLab, type FleetLabHandle } from '../../src/lab/fleet/index.js';
import { PaletteClient } from '../../src/palette/client.js';
import { Redactor } from '../../src/session/redact.js';

describe('readTargets', () => {
  let lab: FleetLabHandle;
  beforeAll(async () => {
    lab = await startFleetLab({ clusters: 3, stateDir: mkdtempSync(join(tmpdir(), 'up-fleet-ts-')), templateManaged: ['store-002'], seed: 28 });
  });
  afterAll(async () => {
    await lab?.close();
  });

  it('names the template-managed cluster and the one Palette does not have, and nothing else', async () => {
    const palette = new PaletteClient({ baseUrl: lab.paletteUrl, projectUid: lab.projectUid, apiKey: lab.apiKey, clusterCollection: 'spectroclusters', timeoutMs: 10_000, redactor: new Redactor(), flavor: 'palette' });
    const clusters = [...lab.members.map((m) => ({ name: m.name, uid: m.uid })), { name: 'store-099', uid: 'a'.repeat(24) }];
    const { leftOut: out, tags } = await readTargets(palette, clusters);
    expect(out.map((l) => l.name)).toEqual(['store-002', 'store-099']);
    // Palette's tags are the cluster's metadata.labels; a key-only tag (spectro__tag) is its key alone.
    expect(Object.fromEntries(tags)).toEqual({ 'store-001': ['region=east', 'vmo'], 'store-002': ['region=west', 'vmo'], 'store-003': ['region=east', 'vmo'] });
    expect(await clusterExists(palette, lab.members[0]!.uid)).toBe(true);
    expect(await clusterExists(palette, 'a'.repeat(24))).toBe(false);
    expect(out[0]!.reason).toMatch(/^a cluster template \(uid [0-9a-f]{24}\) manages it: its profiles change only through the template's maintenance policy$/);
    expect(out[1]!.reason).toBe('Palette has no such cluster (gone before the plan was made)');
  });
});

describe('stageClusters', () => {
  const stage = (name: string, how: { clusters?: string[]; tags?: string[] }): FleetStageSpec => ({
    name,
    maxConcurrency: 1,
    failureThreshold: 1,
    approval: false,
    approve: [],
    restarts: 'ask',
    ...(how.clusters ? { clusters: how.clusters } : {}),
    ...(how.tags ? { selector: { tags: how.tags } } : {}),
  });
  const tags = new Map([
    ['a', ['region=east', 'edge']],
    ['b', ['region=west', 'edge']],
    ['c', ['region=east']],
    ['d', []],
  ]);
  it.each<[string, FleetStageSpec[], Record<string, string[]>]>([
    ['by name and by tag: a named cluster is not taken again', [stage('canary', { clusters: ['a'] }), stage('east', { tags: ['region=east'] })], { canary: ['a'], east: ['c'] }],
    ['every tag must hold; key-only tags match by key', [stage('s', { tags: ['region=east', 'edge'] })], { s: ['a'] }],
    ['an earlier selector takes first', [stage('edge', { tags: ['edge'] }), stage('east', { tags: ['region=east'] })], { edge: ['a', 'b'], east: ['c'] }],
    ['a named cluster later in the file is kept from an earlier selector', [stage('east', { tags: ['region=east'] }), stage('late', { clusters: ['c'] })], { east: ['a'], late: ['c'] }],
    ['no match: an empty stage', [stage('north', { tags: ['region=north'] })], { north: [] }],
  ])('%s', (_name, stages, want) => {
    expect(Object.fromEntries(stageClusters(stages, ['a', 'b', 'c', 'd'], tags))).toEqual(want);
  });

  it.each([
    [['region=east'], ['region=east', 'vmo'], true],
    [['vmo'], ['region=east', 'vmo'], true],
    [['region=east', 'vmo'], ['region=east'], false],
    [['region'], ['region=east'], false],
    [['region:east'], ['region=east'], true],
  ])('%j selects tags %j: %s', (wanted, have, want) => {
    expect(selects(wanted, have)).toBe(want);
  });
});
