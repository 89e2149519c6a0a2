/** The frozen target set, read from a fleet lab's Palette over real sockets: template-managed and vanished clusters are left out, with why. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leftOutClusters } from '../../src/fleet/target-set.js';
import { startFleetLab, type FleetLabHandle } from '../../src/lab/fleet/index.js';
import { PaletteClient } from '../../src/palette/client.js';
import { Redactor } from '../../src/session/redact.js';

describe('leftOutClusters', () => {
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
    const out = await leftOutClusters(palette, clusters);
    expect(out.map((l) => l.name)).toEqual(['store-002', 'store-099']);
    expect(out[0]!.reason).toMatch(/^a cluster template \(uid [0-9a-f]{24}\) manages it: its profiles change only through the template's maintenance policy$/);
    expect(out[1]!.reason).toBe('Palette has no such cluster (gone before the plan was made)');
  });
});
