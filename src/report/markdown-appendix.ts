/**
 * The report's appendix: the payload diffs per pack (image-tag-only changes folded to one line per
 * pack), every customization carried, and the live migrations the hop sections do not list.
 */
import { exampleChange, withoutImageHunks } from './image-tags.js';
import { cut, ruleResultWord, seconds, table } from './markdown-parts.js';
import type { ReportData, ReportPackDiff } from './model.js';

/** Live migrations listed in a hop's section; the rest are in the appendix. */
export const MIGRATIONS_SHOWN = 20;

const where = (d: ReportPackDiff) => `${d.hop ? `hop ${d.hop}, ` : ''}${d.profile} / ${d.pack} ${d.from} → ${d.to}`;

function diffs(r: ReportData): string[] {
  if (r.diffs.length === 0) return [];
  const out = ['### Payload diffs per pack', ''];
  const folded = r.diffs.filter((d) => d.imageTagsOnly || d.patch.length === 0);
  for (const d of folded) {
    const example = exampleChange(d.patch);
    out.push(d.patch.length === 0 ? `- ${where(d)}: values unchanged (tag only)` : `- ${where(d)}: image tags only, ${d.added + d.removed} line(s)${example ? ` (e.g. \`${cut(example, 120)}\`)` : ''}`);
  }
  if (folded.length) out.push('');
  for (const d of r.diffs.filter((x) => !x.imageTagsOnly && x.patch.length > 0)) {
    const { kept, folded: imageLines } = withoutImageHunks(d.patch);
    out.push(`#### ${where(d)} (+${d.added} −${d.removed})`, '');
    if (imageLines) out.push(`_${imageLines} image/tag line(s) folded._`, '');
    out.push('```diff', ...kept, ...(d.truncated ? ['… (diff truncated)'] : []), '```', '');
  }
  return out;
}

function customizations(r: ReportData): string[] {
  if (r.customizations.length === 0 && r.rules.length === 0) return [];
  const out = ['### Customizations carried forward', ''];
  out.push(...table(['Hop', 'Profile', 'Pack', 'Path', 'Label', 'Deployed', 'New default', 'Decision'], r.customizations.map((c) => [c.hop, c.profile, c.pack, `\`${c.path}\``, c.label, c.deployed, c.newDefault, c.decision])), '');
  if (r.rules.length) out.push('Rules (spec 9.2):', '', ...table(['Where', 'Rule', 'Result', 'Detail'], r.rules.map((x) => [x.stage, x.title, ruleResultWord[x.status] ?? x.status.toUpperCase(), x.message])), '');
  return out;
}

function migrations(r: ReportData): string[] {
  const byHop = new Map<number | null, ReportData['vms']>();
  for (const v of r.vms) if (v.fate === 'live-migrated') byHop.set(v.hop, [...(byHop.get(v.hop) ?? []), v]);
  const long = [...byHop].filter(([, vms]) => vms.length > MIGRATIONS_SHOWN);
  if (long.length === 0) return [];
  const out = ['### Live migrations', ''];
  for (const [hop, vms] of long) {
    out.push(`${hop === null ? 'Outside the hops' : `Hop ${hop}`} (${vms.length}${r.labTime ? ', durations in lab time' : ''}):`, '');
    out.push(...table(['VM', 'Took', 'From', 'To'], vms.map((v) => [v.name, seconds(v.migration?.durationSeconds), v.migration?.source, v.migration?.target])), '');
  }
  return out;
}

export function renderAppendix(r: ReportData): string[] {
  const sections = [...diffs(r), ...customizations(r), ...migrations(r)];
  return sections.length ? ['## Appendix', '', ...sections] : [];
}
