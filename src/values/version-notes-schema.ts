/**
 * What a pack's vendor says changes between its versions, as data in the runbook: keys that moved
 * to another place, keys a version removed, the version a cluster must reach first (a stepping
 * stone), and the profile variables a version introduces. Each note applies to a hop that crosses
 * `since` (from below it to it or above), and names its source.
 *
 *   - since: 4.10.0
 *     source: Palette docs, vm-management/vmo-pack/upgrade-vmo-pack.md
 *     requires: { version: 4.9.9, reason: ... }
 *     moved: [{ from: a.b.c, to: a.x.y }]
 *     removed: [{ path: a.b.d, reason: ... }]
 *     variables: [{ name: LOCAL_ADMIN_PASSWORD, description: ... }]
 */
import { z } from 'zod';
import { VersionText } from '../engine/params.js';
import { PathText } from './path-schema.js';
import { parsePath } from './path.js';

/** A path of map keys only (`a.b["c.d"]`): a place that exists once, whatever the values hold. */
export const KeyPathText = PathText.refine((text) => parsePath(text).segments.every((s) => s.kind === 'key') && parsePath(text).doc === undefined, {
  message: 'expected a path of keys only (no *, **, list positions or @N)',
});

/** Palette's variable names as they appear in `{{.spectro.var.NAME}}`. */
export const VariableName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected a variable name such as LOCAL_ADMIN_PASSWORD');

/** A profile variable a version introduces (declared as palette-sdk-go's `v1Variable`). */
export const VariableNoteSchema = z.strictObject({
  name: VariableName,
  displayName: z.string().min(1).optional(),
  /** What it is for, in words (shown where the value is asked). */
  description: z.string().min(1),
  /** Masked by Palette, typed hidden, never written anywhere by this tool. */
  sensitive: z.boolean().default(true),
  format: z.enum(['string', 'number', 'boolean', 'ipv4', 'ipv4cidr', 'ipv6', 'version', 'base64']).default('string'),
});
export type VariableNote = z.output<typeof VariableNoteSchema>;

export const VersionNoteSchema = z.strictObject({
  /** The pack the note is about; default: the site's orchestration pack (`packs.orchestration`). */
  pack: z.string().min(1).optional(),
  /** The version that brought these changes. */
  since: VersionText,
  /** Where the facts come from (shown with them). */
  source: z.string().min(1),
  /** A cluster must run this version (or a later one) before it may go to `since` or above. */
  requires: z.strictObject({ version: VersionText, reason: z.string().min(1) }).optional(),
  /** A site value at `from` is carried to `to` (and stays at `from` too while the new version still has that key). */
  moved: z.array(z.strictObject({ from: KeyPathText, to: KeyPathText })).default([]),
  /** Keys the version removed with no new place: a site value there is dropped unless the operator keeps it. */
  removed: z.array(z.strictObject({ path: KeyPathText, reason: z.string().min(1) })).default([]),
  variables: z.array(VariableNoteSchema).default([]),
});
export type VersionNote = z.output<typeof VersionNoteSchema>;
