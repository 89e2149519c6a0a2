/**
 * The read-back after a draft PUT: does the profile's draft hold what was sent? The spec warns that
 * the API can answer a PUT without applying it (section 7); this comparison is how the tool notices
 * instead of publishing the old content. Values and manifests are compared as Palette stores them
 * (stored-content.ts): normalized whitespace or the same YAML data is the same content.
 */
import { sameStoredContent } from './stored-content.js';
import type { DraftBody, DraftCheck, ProfileDoc } from './types.js';

export function compareDraft(doc: ProfileDoc, body: DraftBody): DraftCheck {
  const differences: string[] = [];
  if (!doc.draftPacks) {
    const shown = doc.publishedVersion ?? doc.version;
    differences.push(doc.isPublished ? `no draft exists: the profile still shows published version ${shown}` : 'the API does not say whether the profile holds a draft');
    return { matches: false, differences };
  }
  if (doc.draftVersion !== body.spec.version) differences.push(`version: the draft is ${doc.draftVersion ?? '(none)'}, sent ${body.spec.version}`);
  const draft = new Map(doc.draftPacks.map((p) => [p.name, p]));
  const sentNames = new Set(body.spec.template.packs.map((p) => p.name));
  for (const sent of body.spec.template.packs) {
    const held = draft.get(sent.name);
    if (!held) {
      differences.push(`${sent.name}: missing from the draft`);
      continue;
    }
    if (held.tag !== sent.tag) differences.push(`${sent.name}: tag is ${held.tag}, sent ${sent.tag}`);
    if (!sameStoredContent(held.values, sent.values ?? '')) differences.push(`${sent.name}: values differ from what was sent`);
    for (const m of sent.manifests ?? []) {
      const heldManifest = held.manifests.find((x) => x.name === m.name);
      if (!heldManifest) differences.push(`${sent.name}: manifest ${m.name} is missing`);
      else if (heldManifest.content !== undefined && !sameStoredContent(heldManifest.content, m.content)) differences.push(`${sent.name}: manifest ${m.name} differs from what was sent`);
    }
    const extra = held.manifests.filter((x) => !(sent.manifests ?? []).some((m) => m.name === x.name));
    for (const x of extra) differences.push(`${sent.name}: the draft has manifest ${x.name}, which was not sent`);
  }
  for (const name of draft.keys()) if (!sentNames.has(name)) differences.push(`${name}: in the draft but not sent`);
  return { matches: differences.length === 0, differences };
}
