/**
 * A customization rule of spec 9.2, as written in the runbook: what it is about (a pack kind, or one
 * named pack), where the setting lives (a values path or a manifest name, per pack the rule knows
 * when its kind is played by different packs on different sites), what must hold, and why. A rule
 * judges the change (deployed → draft): see rule-judgment.ts.
 *
 *   kind: storage
 *   packs:
 *     csi-portworx-generic: { path: charts.portworx-generic.activateLicense }
 *     csi-rook-ceph-helm: { notApplicable: Rook-Ceph has no licence to activate }
 */
import { z } from 'zod';
import { PackKind, ProfileRole } from '../engine/params.js';
import { PathText } from './path-schema.js';

/**
 * - equals: deep equality, types included (`"true"` is not `true`);
 * - contains: a list holds the item (a map item: one holding those key-values; or every item of a
 *   list value), a map holds the key-values, a string holds the text;
 * - present / absent: set to something other than null or empty (`""`, `{}`, `[]`) / not;
 * - templateVariable: a Palette macro `{{ ... }}` or a profile variable `${...}` (for a list: every item);
 * - notLiteralCidr: no hard-coded CIDR anywhere in the value (macros and variables are fine).
 * A path with `*` must hold at every match, and fails when nothing matches (except `absent`).
 */
export const RuleAssertion = z.enum(['equals', 'contains', 'present', 'absent', 'templateVariable', 'notLiteralCidr']);
export type RuleAssertion = z.infer<typeof RuleAssertion>;

/** Where one pack keeps the rule's setting, or why it has none. */
export const PackSettingSchema = z
  .strictObject({
    path: PathText.optional(),
    manifest: z.string().min(1).optional(),
    /** The pack has no such setting (no licence, no such ports): the rule does not apply to it. */
    notApplicable: z.string().min(1).optional(),
    /** When this pack expresses the setting differently (a toleration rather than an annotation). */
    assert: RuleAssertion.optional(),
    value: z.unknown().optional(),
  })
  .refine((s) => [s.path, s.manifest, s.notApplicable].filter((x) => x !== undefined).length === 1, { message: 'a pack setting names exactly one of `path`, `manifest` or `notApplicable`' });
export type PackSetting = z.output<typeof PackSettingSchema>;

export const RuleSpecSchema = z
  .strictObject({
    id: z.string().regex(/^[a-z][a-z0-9-]*$/, 'expected a lower-case id'),
    title: z.string().min(1),
    profile: ProfileRole,
    /** The pack kind the rule is about; the params' `packs:` say which pack plays it on this site. */
    kind: PackKind.optional(),
    /** Or one named pack (usually `${params.packs.<kind>}`); null: the site runs no such pack. */
    pack: z.string().min(1).nullable().optional(),
    /** Path in the pack's values: `a.b["key.with/dots"].c`; `*` matches any key at one level. */
    path: PathText.optional(),
    /** Name of a manifest of the pack. */
    manifest: z.string().min(1).optional(),
    /** With `kind`: where each pack the rule knows keeps the setting (instead of one `path`/`manifest`). */
    packs: z.record(z.string().min(1), PackSettingSchema).optional(),
    assert: RuleAssertion,
    value: z.unknown().optional(),
    reason: z.string().min(1),
    /**
     * The rule is a guard on the change: it blocks a draft that loses what the site had. A site that
     * never had the setting is told so (amber) and not blocked, unless the rule is `required`.
     */
    required: z.boolean().optional(),
    /** What adding the setting changes on the cluster, in words (shown where the fix is offered). */
    effect: z.string().min(1).optional(),
  })
  .refine((r) => (r.kind === undefined) !== (r.pack === undefined), { message: 'a rule names exactly one of `kind` or `pack`' })
  .refine((r) => [r.path, r.manifest, r.packs].filter((x) => x !== undefined).length === 1, { message: 'a rule names exactly one of `path`, `manifest` or `packs`' })
  .refine((r) => r.packs === undefined || r.kind !== undefined, { message: '`packs` goes with `kind` (a rule about one named pack gives `path` or `manifest`)' })
  .refine((r) => !['equals', 'contains'].includes(r.assert) || r.value !== undefined, { message: '`equals` and `contains` need a `value`' })
  .refine((r) => Object.values(r.packs ?? {}).every((s) => !['equals', 'contains'].includes(s.assert ?? '') || s.value !== undefined), { message: 'a pack setting that asserts `equals` or `contains` needs its own `value`' })
  .refine((r) => (r.manifest === undefined && !Object.values(r.packs ?? {}).some((s) => s.manifest !== undefined)) || r.assert === 'present' || r.assert === 'absent', {
    message: 'a manifest rule asserts `present` or `absent`',
  });
export type RuleSpec = z.output<typeof RuleSpecSchema>;
