/** What the session's flavor adds to a plan (pure): the flavor, the way back per profile, and in place the kept labels. */
import { describe, expect, it } from 'vitest';
import type { ProfileDoc } from '../../../src/palette/types.js';
import { withFlavor } from '../../../src/steps/plan/flavor.js';
import type { PlanOutput } from '../../../src/steps/plan/types.js';

const doc = (uid: string, name: string, version: string): ProfileDoc => ({
  raw: {},
  dialect: 'palette',
  uid,
  name,
  version,
  publishedVersion: version,
  type: 'add-on',
  cloudType: 'all',
  isPublished: true,
  packs: [],
  versions: [version],
  versionRefs: [{ uid, version }],
  packServerRefs: [],
  annotations: {},
  labels: {},
});
const docs = { addon: doc('a1', 'core', '1.4.0'), infra: doc('i1', 'infra', '1.4.0') };

const plan = (): PlanOutput => ({
  status: 'planned',
  pack: 'vmo',
  deployed: '4.4.10',
  target: '4.5.4',
  impact: [],
  impactCounts: { 'live-migrate': 0, evict: 0, restart: 0, 'not-running': 0 },
  notes: ['first'],
  hops: [{ index: 1, from: '4.4.10', to: '4.5.4', profiles: [{ role: 'addon', uid: 'a1', name: 'core', fromVersion: '1.4.0', toVersion: '1.5.0', packs: [{ name: 'vmo', from: '4.4.10', to: '4.5.4' }] }] }],
  expectations: { profiles: [{ name: 'core', version: '1.5.0' }] },
});

describe('withFlavor', () => {
  it('palette, clone: the way back re-attaches the version the cluster runs now; labels stay new', () => {
    const out = withFlavor(plan(), { flavor: 'palette', versioning: 'clone', source: 'detected', evidence: 'read' }, docs, 'c1');
    expect(out.flavor).toBe('palette');
    expect(out.wayBack?.map((w) => `${w.role} ${w.name} ${w.version} ${w.uid}`)).toEqual(['infra infra 1.4.0 i1', 'addon core 1.4.0 a1']);
    expect(out.wayBack?.[1]?.how).toMatch(/^Palette keeps core 1\.4\.0 \(each hop clones a new version\): step back one hop at a time, as the way up went, .*1\.4\.0 last\. .*Palette advises against downgrading packs/);
    expect(out.hops[0]?.profiles[0]?.toVersion).toBe('1.5.0');
    expect(out.notes[0]).toBe('first');
    expect(out.notes.at(-1)).toMatch(/^Profile API: real Palette, a new version per hop by clone: .*Each hop: clone the deployed version/);
  });

  it('palette, in place: every hop keeps the deployed label, and so do the expectations', () => {
    const out = withFlavor(plan(), { flavor: 'palette', versioning: 'in-place', source: 'params', evidence: 'params' }, docs, 'c1');
    expect(out.hops[0]?.profiles[0]).toMatchObject({ fromVersion: '1.4.0', toVersion: '1.4.0' });
    expect(out.expectations?.profiles).toEqual([{ name: 'core', version: '1.4.0' }]);
    expect(out.wayBack?.[1]?.how).toMatch(/overwritten by the first publish/);
  });

  it('spec: nothing changes but the flavor and the way back (write the old packs again)', () => {
    const out = withFlavor(plan(), { flavor: 'spec', source: 'detected', evidence: 'read' }, docs, 'c1');
    expect(out.flavor).toBe('spec');
    expect(out.hops).toEqual(plan().hops);
    expect(out.wayBack?.[0]?.how).toMatch(/relabels the one profile object/);
  });
});
