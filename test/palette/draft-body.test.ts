/** Building the draft PUT body and the guard that refuses unsafe ones (no HTTP: documents rendered by the lab). */
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { profileDocument } from '../../src/lab/palette/shapes.js';
import type { LabProfile, PaletteDialect } from '../../src/lab/palette/types.js';
import { compareDraft } from '../../src/palette/draft-check.js';
import { assertDraftShape, assertSafeDraft, buildDraftBody } from '../../src/palette/draft-body.js';
import { toProfileDoc } from '../../src/palette/normalize.js';
import { ProfileSchema } from '../../src/palette/schemas.js';
import type { DraftBody, ProfileDoc } from '../../src/palette/types.js';
import { ADDON_UID, addonProfile } from '../lab/palette/support.js';

type Json = Record<string, any>;

function docFrom(profile: LabProfile, dialect: PaletteDialect): ProfileDoc {
  const raw = JSON.parse(JSON.stringify(profileDocument(profile, dialect))) as Record<string, unknown>;
  const doc = toProfileDoc(raw, ProfileSchema.parse(raw));
  // Palette's GET gives manifest references; the client fills their content (tested over HTTP).
  for (const pack of [...(doc.draftPacks ?? []), ...(doc.publishedPacks ?? [])]) for (const m of pack.manifests) m.content ??= `content of ${m.name}`;
  return doc;
}

const NEW_VALUES = 'charts:\n  virtual-machine-orchestrator: {}\n';
const change = { version: '1.3.0', packs: [{ name: 'virtual-machine-orchestrator', tag: '4.7.1', values: NEW_VALUES }] };

function refusal(fn: () => unknown): InputError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return err as InputError;
  }
  throw new Error('expected a refusal');
}

describe.each(['spec', 'palette'] as const)('buildDraftBody, %s dialect', (dialect) => {
  const before = docFrom(addonProfile(), dialect);

  if (dialect === 'spec') {
    it('has the spec-4 shape and carries every unknown field back, without server-owned parts', () => {
      const body = buildDraftBody(before, change) as Json;
      expect(Object.keys(body).sort()).toEqual(['metadata', 'spec']);
      expect(body.metadata).toEqual({ name: 'vmo-core', uid: ADDON_UID, annotations: { owner: 'platform' }, labels: { site: 'lab' }, description: 'core add-ons', scope: 'project' });
      expect(body.spec).toMatchObject({ type: 'add-on', cloudType: 'all', version: '1.3.0', relatedObject: { kind: 'cluster', name: 'lab' }, hasUserMacros: false });
      expect(body.spec.template).toMatchObject({ cloudType: 'all', type: 'add-on', packServerRefs: [{ name: 'Palette Registry', uid: 'registry-0001' }] });
      for (const gone of ['packs', 'draft', 'published', 'versions']) expect(body.spec[gone]).toBeUndefined();
      assertSafeDraft(before, body);
    });
  } else {
    it("is exactly Palette's v1ClusterProfileUpdateEntity: metadata, spec.version, spec.template.{type, packs} (nothing a real Palette would drop unread)", () => {
      const body = buildDraftBody(before, change) as Json;
      expect(Object.keys(body).sort()).toEqual(['metadata', 'spec']);
      expect(body.metadata).toEqual({ name: 'vmo-core', uid: ADDON_UID, annotations: { owner: 'platform' }, labels: { site: 'lab' } });
      expect(Object.keys(body.spec).sort()).toEqual(['template', 'version']);
      expect(body.spec.version).toBe('1.3.0');
      expect(Object.keys(body.spec.template).sort()).toEqual(['packs', 'type']);
      expect(body.spec.template.type).toBe('add-on');
      const allowed = new Set(['name', 'tag', 'uid', 'registryUid', 'layer', 'type', 'values', 'manifests']);
      for (const pack of body.spec.template.packs as Json[]) expect(Object.keys(pack).filter((k) => !allowed.has(k))).toEqual([]);
      assertSafeDraft(before, body);
    });
  }

  it('changes only the named pack; a new tag drops the old version’s uid, other packs keep theirs', () => {
    const packs = (buildDraftBody(before, change) as Json).spec.template.packs as Json[];
    expect(packs.map((p) => `${p.name}@${p.tag}`)).toEqual(['lb-metallb-helm@0.14.9', 'virtual-machine-orchestrator@4.7.1', 'prometheus-operator@65.1.0']);
    expect(packs[1]).toEqual({ name: 'virtual-machine-orchestrator', tag: '4.7.1', registryUid: 'registry-0001', layer: 'addon', type: 'spectro', values: NEW_VALUES, manifests: [] });
    expect(packs[0]).toMatchObject({ uid: 'pack-metallb-0149', values: 'autoAssign: false\n' });
    expect(packs[0]?.packUid).toBeUndefined();
    expect(packs[2]?.manifests).toEqual([{ name: 'issuer-selfsigned', uid: 'manifest-issuer-0001', content: expect.any(String) }]);
  });

  it('uses a given uid (and registry) for the new pack version, keeps manifest uids when their content changes, appends new packs', () => {
    const body = buildDraftBody(before, {
      version: '1.3.0',
      packs: [
        { name: 'virtual-machine-orchestrator', tag: '4.7.1', uid: 'pack-vmo-471', registryUid: 'registry-0002' },
        { name: 'prometheus-operator', tag: '65.1.0', manifests: [{ name: 'issuer-selfsigned', content: 'new\n' }, { name: 'extra', content: 'x\n' }] },
        { name: 'brand-new', tag: '1.0.0', values: 'a: 1\n' },
      ],
    }) as Json;
    const packs = body.spec.template.packs as Json[];
    expect(packs[1]).toMatchObject({ uid: 'pack-vmo-471', registryUid: 'registry-0002', values: expect.stringContaining('SMM') });
    expect(packs[2]?.manifests).toEqual([
      { name: 'issuer-selfsigned', uid: 'manifest-issuer-0001', content: 'new\n' },
      { name: 'extra', content: 'x\n' },
    ]);
    expect(packs[3]).toEqual({ name: 'brand-new', tag: '1.0.0', values: 'a: 1\n', manifests: [] });
  });

  it('refuses a pack named twice in the changes', () => {
    const err = refusal(() => buildDraftBody(before, { version: '1.3.0', packs: [{ name: 'a', tag: '1' }, { name: 'a', tag: '2' }] }));
    expect(err.message).toContain('a is listed twice');
  });

  it('does not change the document it was given', () => {
    const copy = structuredClone(before.raw);
    buildDraftBody(before, change);
    expect(before.raw).toEqual(copy);
  });
});

describe('buildDraftBody without manifest content', () => {
  it('refuses rather than sending a PUT that would drop the manifest', () => {
    const raw = JSON.parse(JSON.stringify(profileDocument(addonProfile(), 'palette'))) as Record<string, unknown>;
    const doc = toProfileDoc(raw, ProfileSchema.parse(raw));
    const err = refusal(() => buildDraftBody(doc, change));
    expect(err.code).toBe('palette.manifest-content');
    expect(err.message).toContain('issuer-selfsigned');
  });
});

describe('assertSafeDraft', () => {
  const before = docFrom(addonProfile(), 'palette');
  const good = (): Json => buildDraftBody(before, change) as Json;

  it.each([
    ['packs under spec.packs', (b: Json) => (b.spec.packs = b.spec.template.packs), 'spec.packs'],
    ['spec.packs instead of spec.template.packs', (b: Json) => ((b.spec.packs = b.spec.template.packs), delete b.spec.template.packs), 'spec.packs'],
    ['a dropped pack', (b: Json) => b.spec.template.packs.splice(0, 1), 'drops pack lb-metallb-helm'],
    ['the current published label', (b: Json) => (b.spec.version = '1.2.0'), 'version 1.2.0 is already published'],
    ['an older published label', (b: Json) => (b.spec.version = '1.1.0'), 'version 1.1.0 is already published'],
    ['an invalid label', (b: Json) => (b.spec.version = '1.3'), 'not a version label'],
    ['a pack without a tag', (b: Json) => delete b.spec.template.packs[0].tag, 'packs[0] lacks a name or a tag'],
    ['another profile’s uid', (b: Json) => (b.metadata.uid = 'other'), 'metadata.uid other'],
    ['a pack listed twice', (b: Json) => b.spec.template.packs.push({ ...b.spec.template.packs[0] }), 'lists pack lb-metallb-helm more than once'],
  ])('refuses %s (exit 2, nothing sent)', (_name, mutate, reason) => {
    const body = good();
    mutate(body);
    const err = refusal(() => assertSafeDraft(before, body));
    expect(err.code).toBe('palette.unsafe-draft');
    expect(err.exitCode).toBe(2);
    expect(err.message).toContain(reason);
    expect(err.hint).toContain('Nothing was sent');
  });

  it('refuses the current label in the spec dialect, where only spec.version tells it', () => {
    const spec = docFrom(addonProfile(), 'spec');
    const body = buildDraftBody(spec, { ...change, version: '1.2.0' });
    expect(refusal(() => assertSafeDraft(spec, body)).message).toContain('1.2.0');
  });

  it('allows rewriting an unpublished draft under its own label (redoing an interrupted draft write)', () => {
    const profile = addonProfile();
    profile.draft = { version: '1.3.0', packs: profile.published!.packs };
    for (const dialect of ['spec', 'palette'] as const) {
      const doc = docFrom(profile, dialect);
      expect(() => assertSafeDraft(doc, buildDraftBody(doc, change))).not.toThrow();
    }
  });

  it('a profile read with a pack twice gives a body the guard refuses', () => {
    const profile = addonProfile();
    profile.published!.packs.push(structuredClone(profile.published!.packs[1]!));
    const doc = docFrom(profile, 'palette');
    expect(refusal(() => assertSafeDraft(doc, buildDraftBody(doc, change))).message).toContain('lists pack virtual-machine-orchestrator more than once');
  });

  describe('on a real Palette (the label is the version object’s own)', () => {
    it('accepts the object’s own label, and refuses any other (that would rename the version in place)', () => {
      expect(() => assertSafeDraft(before, buildDraftBody(before, { ...change, version: '1.2.0' }), 'own')).not.toThrow();
      const err = refusal(() => assertSafeDraft(before, buildDraftBody(before, change), 'own'));
      expect(err.message).toContain('it changes spec.version of version 1.2.0 to 1.3.0: on Palette that renames the deployed version in place');
      expect(err.hint).toContain('Nothing was sent');
    });

    it('still refuses spec.packs, dropped packs and duplicates', () => {
      const body = buildDraftBody(before, { ...change, version: '1.2.0' }) as Json;
      body.spec.template.packs.splice(0, 1);
      expect(refusal(() => assertSafeDraft(before, body, 'own')).message).toContain('drops pack lb-metallb-helm');
    });
  });

  it('assertDraftShape checks what needs no profile', () => {
    expect(() => assertDraftShape(good(), 'x')).not.toThrow();
    expect(refusal(() => assertDraftShape({ spec: { version: '1.3.0', packs: [] } }, 'PUT /v1/clusterprofiles/x')).where).toBe('PUT /v1/clusterprofiles/x');
    expect(refusal(() => assertDraftShape('nope', 'x')).message).toContain('no spec object');
  });
});

describe('compareDraft', () => {
  const before = docFrom(addonProfile(), 'spec');
  const body = buildDraftBody(before, change);

  const withDraft = (edit: (p: LabProfile) => void = () => undefined): ProfileDoc => {
    const p = addonProfile();
    p.draft = structuredClone({ version: '1.3.0', packs: p.published!.packs.map((x) => (x.name === 'virtual-machine-orchestrator' ? { ...x, tag: '4.7.1', values: NEW_VALUES } : x)) });
    edit(p);
    return docFrom(p, 'spec');
  };

  it('matches a draft that holds exactly what was sent', () => {
    expect(compareDraft(withDraft(), body)).toEqual({ matches: true, differences: [] });
  });

  it('reports a missing draft (the silent no-op)', () => {
    expect(compareDraft(before, body)).toEqual({ matches: false, differences: ['no draft exists: the profile still shows published version 1.2.0'] });
  });

  it('names each difference', () => {
    const doc = withDraft((p) => {
      p.draft!.version = '1.2.9';
      p.draft!.packs[1]!.tag = '4.6.3';
      p.draft!.packs[0]!.values = 'autoAssign: true\n';
      p.draft!.packs[2]!.manifests[0]!.content = 'changed';
      p.draft!.packs.push({ ...p.draft!.packs[0]!, name: 'stray' });
    });
    expect(compareDraft(doc, body).differences).toEqual([
      'version: the draft is 1.2.9, sent 1.3.0',
      'lb-metallb-helm: values differ from what was sent',
      'virtual-machine-orchestrator: tag is 4.6.3, sent 4.7.1',
      'prometheus-operator: manifest issuer-selfsigned differs from what was sent',
      'stray: in the draft but not sent',
    ]);
  });

  it('notices a pack or manifest the draft lacks', () => {
    const doc = withDraft((p) => {
      p.draft!.packs.splice(0, 1);
      p.draft!.packs[1]!.manifests = [];
    });
    expect(compareDraft(doc, body as DraftBody).differences).toEqual(['lb-metallb-helm: missing from the draft', 'prometheus-operator: manifest issuer-selfsigned is missing']);
  });
});

describe('compareDraft reads values and manifests back as Palette stores them', () => {
  const before = docFrom(addonProfile(), 'palette');
  const VALUES = 'charts:\n  virtual-machine-orchestrator:\n    enabled: true\n    gates: [SMM, Snapshot]\n    port: "8443"\n';
  const body = buildDraftBody(before, { version: '1.2.0', packs: [{ name: 'virtual-machine-orchestrator', tag: '4.6.3', values: VALUES }, { name: 'prometheus-operator', tag: '65.1.0', manifests: [{ name: 'issuer-selfsigned', content: 'kind: Issuer\nmetadata:\n  name: selfsigned\n' }] }] });
  const readBack = (values: string, manifest = 'kind: Issuer\nmetadata:\n  name: selfsigned\n'): ProfileDoc => {
    const p = addonProfile();
    p.draft = structuredClone({ version: '1.2.0', packs: p.published!.packs.map((x) => (x.name === 'virtual-machine-orchestrator' ? { ...x, values } : x.name === 'prometheus-operator' ? { ...x, manifests: [{ ...x.manifests[0]!, content: manifest }] } : x)) });
    return docFrom(p, 'spec');
  };

  it.each([
    ['CRLF line endings', VALUES.replace(/\n/g, '\r\n')],
    ['whitespace at the ends of lines', VALUES.replace(/\n/g, '  \n')],
    ['no final newline', VALUES.trimEnd()],
    ['keys in another order', 'charts:\n  virtual-machine-orchestrator:\n    port: "8443"\n    gates: [SMM, Snapshot]\n    enabled: true\n'],
    ['another YAML style for the same data', "charts: {virtual-machine-orchestrator: {enabled: true, gates: ['SMM', 'Snapshot'], port: '8443'}}\n"],
  ])('the same values with %s match', (_name, held) => {
    expect(compareDraft(readBack(held), body)).toEqual({ matches: true, differences: [] });
  });

  it.each([
    ['a changed value', VALUES.replace('enabled: true', 'enabled: false')],
    ['a number where a string was sent', VALUES.replace('"8443"', '8443')],
    ['a list in another order', VALUES.replace('[SMM, Snapshot]', '[Snapshot, SMM]')],
    ['a missing key', VALUES.replace('    enabled: true\n', '')],
  ])('%s is still a difference', (_name, held) => {
    expect(compareDraft(readBack(held), body).differences).toEqual(['virtual-machine-orchestrator: values differ from what was sent']);
  });

  it('a manifest normalized on the server matches; one with other content does not', () => {
    expect(compareDraft(readBack(VALUES, 'kind: Issuer\r\nmetadata:\r\n  name: selfsigned   \r\n'), body).matches).toBe(true);
    expect(compareDraft(readBack(VALUES, 'kind: Issuer\nmetadata:\n  name: other\n'), body).differences).toEqual(['prometheus-operator: manifest issuer-selfsigned differs from what was sent']);
  });
});
