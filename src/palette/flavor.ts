/**
 * Which profile API a session talks to. The spec's service and a real Palette differ in what a
 * change is (a new label on the same object, or a new object per version) and in what happens after
 * a publish (the cluster reconciles by itself, or waits until the version is applied to it). The
 * choice is made once per session, from the params or from the first profile read, and journaled.
 */
import type { PaletteDialect } from './types.js';

export type FlavorSetting = 'auto' | 'spec' | 'palette';
export type Flavor = 'spec' | 'palette';
export type Versioning = 'clone' | 'in-place';

export interface FlavorChoice {
  flavor: Flavor;
  /** Palette flavor: a new version object per hop (`clone`) or the deployed version edited. The spec flavor has no choice here. */
  versioning?: Versioning;
  /** `params`: named in the params file; `detected`: decided from a profile read (`auto`). */
  source: 'params' | 'detected';
  /** Why, in words: `the profile read has spec.draft/spec.published (real Palette)`. */
  evidence: string;
}

const evidenceOf: Record<PaletteDialect, string> = {
  spec: 'the profile read shows spec.template (the spec\'s service)',
  palette: 'the profile read shows spec.draft/spec.published (a real Palette)',
};

/** The choice for a setting; `auto` needs the dialect of a profile read. */
export function chooseFlavor(setting: FlavorSetting, versioning: Versioning, dialect: PaletteDialect | undefined): FlavorChoice | undefined {
  if (setting === 'spec') return { flavor: 'spec', source: 'params', evidence: 'palette.flavor: spec in the params file' };
  if (setting === 'palette') return { flavor: 'palette', versioning, source: 'params', evidence: 'palette.flavor: palette in the params file' };
  if (dialect === undefined) return undefined;
  return dialect === 'palette' ? { flavor: 'palette', versioning, source: 'detected', evidence: evidenceOf.palette } : { flavor: 'spec', source: 'detected', evidence: evidenceOf.spec };
}

/** One line naming the flavor: `real Palette, a new version per hop by clone`. */
export function flavorTitle(choice: Pick<FlavorChoice, 'flavor' | 'versioning'>): string {
  if (choice.flavor === 'spec') return "the spec's profile service: a published profile reaches its clusters by itself";
  return choice.versioning === 'in-place'
    ? 'real Palette, versions edited in place: published changes wait for an update to be applied to the cluster'
    : 'real Palette, a new version per hop by clone: the cluster moves only when the new version is applied to it';
}

/** A few words for a summary line: `a real Palette (new versions by clone)`. */
export function flavorShort(choice: Pick<FlavorChoice, 'flavor' | 'versioning'>): string {
  if (choice.flavor === 'spec') return "the spec's service";
  return choice.versioning === 'in-place' ? 'a real Palette (versions edited in place)' : 'a real Palette (new versions by clone)';
}
