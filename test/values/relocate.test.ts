/** Keys a new version moved (values/relocate.ts): the site's value goes where the new version reads it. */
import { describe, expect, it } from 'vitest';
import { diffValues } from '../../src/values/diff.js';
import { mergeValues } from '../../src/values/merge.js';
import { relocate } from '../../src/values/relocate.js';
import { parseValues } from '../../src/values/values-document.js';

const move = { from: 'chart.appConfig.clusterInfo.consoleBaseAddress', to: 'chart.vmo-manager.platform.baseUrl' };
const site = parseValues('chart:\n  appConfig:\n    clusterInfo:\n      consoleBaseAddress: "https://vmo.example"\n  snapshotController:\n    installCRDs: false\n');
const oldDefaults = parseValues('chart:\n  appConfig:\n    clusterInfo:\n      consoleBaseAddress: ""\n  snapshotController:\n    installCRDs: true\n');
/** 4.10.0: reads the address at both places (configure-console-base-address.md). */
const keepsOld = parseValues('chart:\n  appConfig:\n    clusterInfo:\n      consoleBaseAddress: ""\n  vmo-manager:\n    platform:\n      baseUrl: ""\n');
const dropsOld = parseValues('chart:\n  vmo-manager:\n    platform:\n      baseUrl: ""\n');
const js = (v: ReturnType<typeof parseValues>) => v.docs[0]!.toJS() as Record<string, unknown>;

describe('relocating moved keys before the diff', () => {
  it('copies the site value to the new key and keeps it at the old one while the new version still reads it there', () => {
    const r = relocate(site, [move], keepsOld);
    expect(r.moved).toEqual([move]);
    expect(js(r.values)).toMatchObject({ chart: { appConfig: { clusterInfo: { consoleBaseAddress: 'https://vmo.example' } }, 'vmo-manager': { platform: { baseUrl: 'https://vmo.example' } } } });
    expect(js(site)).not.toHaveProperty('chart.vmo-manager'); // the input is not changed
  });

  it('moves it (nothing left at the old key) when the new version no longer has that key', () => {
    const r = relocate(site, [move], dropsOld);
    expect(js(r.values).chart).not.toHaveProperty('appConfig'); // and the parents it emptied
  });

  it('moves nothing the site does not hold, and never overwrites a value already at the new key', () => {
    expect(relocate(parseValues('chart: {}\n'), [move], keepsOld).moved).toEqual([]);
    const both = parseValues('chart:\n  appConfig: { clusterInfo: { consoleBaseAddress: a } }\n  vmo-manager: { platform: { baseUrl: b } }\n');
    expect(relocate(both, [move], keepsOld).moved).toEqual([]);
  });

  it('with the old defaults moved too, the 3-way diff carries the site value to the new key, and the merge writes it there', () => {
    const deployed = relocate(site, [move], dropsOld).values;
    const old = relocate(oldDefaults, [move], dropsOld).values;
    const diff = diffValues({ deployed, oldDefaults: old, newDefaults: dropsOld });
    const entry = diff.entries.find((e) => e.path === 'chart.vmo-manager.platform.baseUrl');
    expect(entry).toMatchObject({ label: 'carried', deployed: 'https://vmo.example', oldDefault: '', newDefault: '' });
    // The removed key the site changed is a conflict of its own (customize says: dropped unless kept).
    expect(diff.entries.find((e) => e.path === 'chart.snapshotController')).toMatchObject({ label: 'conflict', deployed: { installCRDs: false }, oldDefault: { installCRDs: true } });
    const merged = mergeValues({ newDefaults: dropsOld, carry: [{ path: 'chart.vmo-manager.platform.baseUrl', value: 'https://vmo.example' }], deployed });
    expect(merged).toContain('baseUrl: "https://vmo.example"');
  });
});
