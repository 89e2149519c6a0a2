import { describe, expect, it } from 'vitest';
import { ProfileStore } from '../../../src/lab/palette/store.js';
import { ADDON_UID, INFRA_UID, addonProfile, infraProfile } from './support.js';

describe('ProfileStore', () => {
  it('adds, gets and lists in insertion order; refuses a duplicate uid', () => {
    const store = new ProfileStore([addonProfile()]);
    store.add(infraProfile());
    expect(store.list().map((p) => p.uid)).toEqual([ADDON_UID, INFRA_UID]);
    expect(store.get(INFRA_UID)?.name).toBe('vmo-infra');
    expect(store.get('nope')).toBeUndefined();
    expect(store.has(ADDON_UID)).toBe(true);
    expect(() => store.add(addonProfile())).toThrow(/already/);
  });

  it('writes a draft without touching the published content', () => {
    const store = new ProfileStore([addonProfile()]);
    store.writeDraft(ADDON_UID, { version: '1.3.0', packs: [] });
    const p = store.get(ADDON_UID);
    expect(p?.draft).toEqual({ version: '1.3.0', packs: [] });
    expect(p?.published?.version).toBe('1.2.0');
    expect(() => store.writeDraft('nope', { version: '1.0.0', packs: [] })).toThrow(/no profile/);
  });

  it('publishes: draft becomes published, the label joins the history once, the draft is cleared', () => {
    const store = new ProfileStore([addonProfile()]);
    store.writeDraft(ADDON_UID, { version: '1.3.0', packs: [] });
    const p = store.publish(ADDON_UID);
    expect(p.published).toEqual({ version: '1.3.0', packs: [] });
    expect(p.draft).toBeUndefined();
    expect(p.history).toEqual(['1.1.0', '1.2.0', '1.3.0']);
    store.writeDraft(ADDON_UID, { version: '1.3.0', packs: [] });
    store.publish(ADDON_UID);
    expect(p.history).toEqual(['1.1.0', '1.2.0', '1.3.0']);
  });

  it('refuses to publish without a draft', () => {
    const store = new ProfileStore([addonProfile()]);
    expect(() => store.publish(ADDON_UID)).toThrow(/no draft/);
  });
});
