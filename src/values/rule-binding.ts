/**
 * Binding a rule to the site: which pack plays the rule's kind in a profile, and where that pack
 * keeps the setting. A rule whose kind the site does not run, or whose setting the site's pack does
 * not have, does not apply (and says why); it is never a failure. Pure.
 *
 * The pack of a kind is the one the params name (`packs.<kind>`). When the profile does not hold
 * that pack but holds exactly one pack the rule knows for the kind, that one plays it (a Rook-Ceph
 * site that kept the default `packs.storage` is still checked, and told so).
 */
import type { PackKind } from '../engine/params.js';
import type { RuleSpec } from './rule-schema.js';

/** A rule bound to one pack and one place: what `evaluateRule` checks. */
export type BoundRule = RuleSpec & { pack: string; packs?: undefined };

export type Binding = { applies: true; rule: BoundRule; note?: string } | { applies: false; pack?: string; reason: string };

export interface BindContext {
  /** The params' `packs:` (a kind's pack, or null when the site runs none). */
  kinds: Readonly<Record<PackKind, string | null>>;
  /** The packs the rule's profile holds. */
  held: readonly string[];
  /** `add-on` / `infrastructure`, for the reasons. */
  profileName: string;
}

function located(rule: RuleSpec, pack: string, note?: string): Binding {
  const { packs, ...rest } = rule;
  const setting = packs?.[pack];
  if (packs && !setting) {
    return { applies: false, pack, reason: `the rule does not know where ${pack} keeps this setting (it knows ${Object.keys(packs).join(', ')}); a runbook of your own can add it` };
  }
  if (setting?.notApplicable) return { applies: false, pack, reason: setting.notApplicable };
  const place = setting ? (setting.path !== undefined ? { path: setting.path } : { manifest: setting.manifest! }) : {};
  const own = setting?.assert ? { assert: setting.assert, value: setting.value } : {};
  return { applies: true, rule: { ...rest, ...place, ...own, pack } as BoundRule, ...(note ? { note } : {}) };
}

export function bindRule(rule: RuleSpec, ctx: BindContext): Binding {
  if (rule.kind === undefined) {
    if (rule.pack === null || rule.pack === undefined) return { applies: false, reason: 'the params name no pack for it' };
    if (!ctx.held.includes(rule.pack)) return { applies: false, pack: rule.pack, reason: `the ${ctx.profileName} profile holds no ${rule.pack} pack` };
    return located(rule, rule.pack);
  }
  const named = ctx.kinds[rule.kind];
  if (named === null) return { applies: false, reason: `the site runs no ${kindWords[rule.kind]} (packs.${rule.kind}: none)` };
  if (ctx.held.includes(named)) return located(rule, named);
  const known = Object.keys(rule.packs ?? {}).filter((p) => ctx.held.includes(p));
  if (known.length === 1) {
    const pack = known[0]!;
    return located(rule, pack, `packs.${rule.kind} names ${named}, which the ${ctx.profileName} profile does not hold; it holds ${pack}, checked instead (set packs.${rule.kind}: ${pack})`);
  }
  return { applies: false, reason: `the ${ctx.profileName} profile holds no ${kindWords[rule.kind]} (packs.${rule.kind}: ${named})` };
}

export const kindWords: Record<PackKind, string> = {
  orchestration: 'VM orchestration pack',
  loadBalancer: 'load balancer pack',
  ingress: 'ingress controller pack',
  monitoring: 'monitoring operator pack',
  network: 'network plugin pack',
  storage: 'storage pack',
};
