/** Customizations as text for `upgrade-pilot diff`: per hop, profile and pack, what is carried and why. */
import type { RuleOutcome } from '../contracts.js';
import type { Chooser, CustomizeOutput, DraftAddition, FixOffer } from './types.js';

/** A rule's status as a word: only FAIL blocks a draft (WARN: the site did not have it before either). */
export const ruleStatusText: Record<RuleOutcome['status'], string> = { pass: 'PASS', fail: 'FAIL', notOnSite: 'WARN', notApplicable: 'N/A ' };

const show = (v: unknown) => (v === undefined ? '(absent)' : typeof v === 'string' ? v : JSON.stringify(v));
const decisionWords = { keepSite: 'keep site', takeNew: 'take new default', value: 'entered value', merged: "merge both sides' items" } as const;
const label: Record<string, string> = { carried: 'carried', candidate: 'kept (site)', newDefault: 'new default', conflict: 'CONFLICT', ruleFix: 'rule fix', ignored: 'ignored' };

/** Who chose something, in words: "flag --accept-fix x", "operator, key f". */
export function chooserText(c: Chooser | undefined): string {
  if (!c) return 'nobody';
  if (c.by === 'flag') return `flag ${c.flag}`;
  return c.key ? `operator, key ${c.key}` : 'operator';
}

/** What a fix sets, in words: draft settings (`path` = value), or this cluster's value of a profile variable. */
export function fixSettings(f: FixOffer, quote: (v: unknown) => string = show): string {
  return [...f.items.map((i) => `\`${i.path}\` = ${quote(i.value)}`), ...(f.variables ?? []).map((v) => `profile variable ${v.name} for this cluster = ${quote(v.value)}`)].join(', ');
}

export function additionLine(a: DraftAddition): string {
  const where = `${a.pack} \`${a.path}\``;
  return a.included ? `${where}: ${a.what} — in the draft, chosen by ${chooserText(a.chosenBy)}` : `${where}: ${a.what} — left out${a.rule ? ` (--accept-fix ${a.rule} adds it)` : ''}`;
}

/**
 * What the conflicts will become unless someone decides otherwise, as the review proposes them:
 * "2 keep the site value, 1 merges both sides' items, 1 is dropped (removed in the new version)".
 */
export function conflictProposals(out: CustomizeOutput): string {
  const conflicts = out.byHop.flatMap((h) => h.profiles.flatMap((p) => p.packs.flatMap((k) => k.entries.filter((e) => e.label === 'conflict'))));
  if (conflicts.length === 0) return 'no conflicts';
  const merged = conflicts.filter((e) => e.decision === 'merged').length;
  const dropped = conflicts.filter((e) => e.decision !== 'merged' && e.removed).length;
  const kept = conflicts.length - merged - dropped;
  const parts = [
    ...(kept ? [`${kept} keep${kept === 1 ? 's' : ''} the site value`] : []),
    ...(merged ? [`${merged} merge${merged === 1 ? 's' : ''} both sides' items`] : []),
    ...(dropped ? [`${dropped} ${dropped === 1 ? 'is' : 'are'} dropped (removed in the new version)`] : []),
  ];
  return `${conflicts.length} conflict(s): ${parts.join(', ')}, unless decided otherwise in the TUI`;
}

export function renderCustomizationsText(out: CustomizeOutput): string[] {
  const lines: string[] = out.variablesUnserved ? [out.variablesUnserved] : [];
  for (const hop of out.byHop) {
    lines.push(`Hop ${hop.index}: ${hop.from} → ${hop.to}`);
    for (const p of hop.profiles) {
      if (p.packs.length === 0) lines.push(`  ${p.name}: no new version in this hop; its rules are checked on what it runs`);
      for (const pack of p.packs) {
        const c = pack.counts;
        const same = pack.from === pack.tag;
        lines.push(
          `  ${p.name} / ${pack.name} ${same ? `${pack.tag} (tag unchanged)` : `${pack.from} → ${pack.tag}`}  (${pack.mode === 'threeWay' ? '3-way' : '2-way'}: ${c.carried + c.candidate} carried, ${c.newDefault} new defaults, ${c.conflict} conflicts, ${c.ruleFix} chosen fixes, ${c.ignored} ignored)`,
        );
        lines.push(`    new defaults: ${pack.sources.newDefaults}${pack.sources.oldDefaults ? `; old defaults: ${pack.sources.oldDefaults}` : ''}`);
        for (const e of pack.entries) {
          const decision = e.decision ? ` [${e.removed && e.decision === 'takeNew' ? 'dropped' : decisionWords[e.decision]}]` : '';
          const moved = e.movedFrom ? `  (moved from ${e.movedFrom})` : '';
          lines.push(`    ${(label[e.label] ?? e.label).padEnd(12)} ${e.path}: ${show(e.deployed)} → ${show(e.result)}${decision}${moved}${e.note ? `  (${e.note})` : ''}`);
        }
        for (const m of pack.manifestChanges) lines.push(`    manifest     ${m}`);
      }
      for (const r of p.rules) lines.push(`  ${ruleStatusText[r.status]} rule ${r.title}: ${r.message}`);
      for (const f of p.fixes) {
        lines.push(`  ${f.accepted ? 'FIX CHOSEN' : 'FIX OFFERED'} ${f.rule} on ${f.pack}: ${fixSettings(f)}; ${f.effect}${f.accepted ? ` (chosen by ${chooserText(f.chosenBy)})` : ` (left out; --accept-fix ${f.rule} adds it)`}`);
      }
      for (const a of p.additions.filter((x) => x.source !== 'ruleFix')) lines.push(`  ADDITION ${additionLine(a)}`);
    }
  }
  return lines;
}
