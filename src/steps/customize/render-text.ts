/** Customizations as text for `upgrade-pilot diff`: per hop, profile and pack, what is carried and why. */
import type { RuleOutcome } from '../contracts.js';
import type { CustomizeOutput } from './types.js';

/** A rule's status as a word: the third one (grey) never blocks a draft. */
export const ruleStatusText: Record<RuleOutcome['status'], string> = { pass: 'PASS', fail: 'FAIL', notApplicable: 'N/A ' };

const show = (v: unknown) => (v === undefined ? '(absent)' : typeof v === 'string' ? v : JSON.stringify(v));
const decisionWords = { keepSite: 'keep site', takeNew: 'take new default', value: 'entered value', merged: "merge both sides' items" } as const;
const label: Record<string, string> = { carried: 'carried', candidate: 'kept (site)', newDefault: 'new default', conflict: 'CONFLICT', ruleFix: 'rule fix', ignored: 'ignored' };

export function renderCustomizationsText(out: CustomizeOutput): string[] {
  const lines: string[] = [];
  for (const hop of out.byHop) {
    lines.push(`Hop ${hop.index}: ${hop.from} → ${hop.to}`);
    for (const p of hop.profiles) {
      for (const pack of p.packs) {
        const c = pack.counts;
        lines.push(`  ${p.name} / ${pack.name} ${pack.from} → ${pack.tag}  (${pack.mode === 'threeWay' ? '3-way' : '2-way'}: ${c.carried + c.candidate} carried, ${c.newDefault} new defaults, ${c.conflict} conflicts, ${c.ruleFix} rule fixes, ${c.ignored} ignored)`);
        lines.push(`    new defaults: ${pack.sources.newDefaults}${pack.sources.oldDefaults ? `; old defaults: ${pack.sources.oldDefaults}` : ''}`);
        for (const e of pack.entries) {
          const decision = e.decision ? ` [${decisionWords[e.decision]}]` : '';
          lines.push(`    ${(label[e.label] ?? e.label).padEnd(12)} ${e.path}: ${show(e.deployed)} → ${show(e.result)}${decision}${e.note ? `  (${e.note})` : ''}`);
        }
        for (const m of pack.manifestChanges) lines.push(`    manifest     ${m}`);
      }
      for (const r of p.rules) lines.push(`  ${ruleStatusText[r.status]} rule ${r.title}: ${r.message}`);
    }
  }
  return lines;
}
