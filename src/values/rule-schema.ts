/**
 * A customization rule of spec 9.2, as written in the runbook: which pack, which setting (a values
 * path or a manifest name), what must hold, and why.
 */
import { z } from 'zod';
import { ProfileRole } from '../engine/params.js';
import { PathText } from './path-schema.js';

/**
 * - equals: deep equality, types included (`"true"` is not `true`);
 * - contains: a list holds the item (or every item of a list value), a map holds the key-values, a string holds the text;
 * - present / absent: set to something other than null or empty (`""`, `{}`, `[]`) / not;
 * - templateVariable: a Palette macro `{{ ... }}` or a profile variable `${...}` (for a list: every item);
 * - notLiteralCidr: no hard-coded CIDR anywhere in the value (macros and variables are fine).
 * A path with `*` must hold at every match, and fails when nothing matches (except `absent`).
 */
export const RuleAssertion = z.enum(['equals', 'contains', 'present', 'absent', 'templateVariable', 'notLiteralCidr']);
export type RuleAssertion = z.infer<typeof RuleAssertion>;

export const RuleSpecSchema = z
  .strictObject({
    id: z.string().regex(/^[a-z][a-z0-9-]*$/, 'expected a lower-case id'),
    title: z.string().min(1),
    profile: ProfileRole,
    /** Pack name in the profile (usually `${params.packs.<role>}`). */
    pack: z.string().min(1),
    /** Path in the pack's values: `a.b["key.with/dots"].c`; `*` matches any key at one level. */
    path: PathText.optional(),
    /** Name of a manifest of the pack. */
    manifest: z.string().min(1).optional(),
    assert: RuleAssertion,
    value: z.unknown().optional(),
    reason: z.string().min(1),
  })
  .refine((r) => (r.path === undefined) !== (r.manifest === undefined), { message: 'a rule names exactly one of `path` or `manifest`' })
  .refine((r) => !['equals', 'contains'].includes(r.assert) || r.value !== undefined, { message: '`equals` and `contains` need a `value`' })
  .refine((r) => r.manifest === undefined || r.assert === 'present' || r.assert === 'absent', { message: 'a manifest rule asserts `present` or `absent`' });
export type RuleSpec = z.output<typeof RuleSpecSchema>;
