/**
 * What the plan takes from the runbook's version notes: the stepping stones of the orchestration
 * pack (the ladder stops there), and the profile variables each hop's new version introduces (named
 * in the plan, declared before the draft, asked at the draft gate). Pure.
 */
import type { ProfileRole } from '../../engine/params.js';
import type { VersionNote } from '../../values/version-notes-schema.js';
import { variablesFor } from '../../values/version-notes.js';
import type { PlannedHop } from '../plan/planned-hop.js';
import type { SteppingStone } from './ladder.js';

export function steppingStones(notes: readonly VersionNote[], pack: string): SteppingStone[] {
  return notes.flatMap((n) => ((n.pack ?? pack) === pack && n.requires ? [{ since: n.since, version: n.requires.version, reason: n.requires.reason, source: n.source }] : []));
}

/** Adds to each hop the variables its orchestration pack version introduces (declared on `role`, the profile holding it). */
export function withVariables(hops: PlannedHop[], notes: readonly VersionNote[], pack: string, role: ProfileRole): void {
  for (const hop of hops) {
    const vars = variablesFor(notes, pack, pack, hop.from, hop.to);
    if (vars.length === 0) continue;
    hop.variables = vars.map((v) => ({
      name: v.name,
      role,
      ...(v.displayName ? { displayName: v.displayName } : {}),
      description: v.description,
      sensitive: v.sensitive,
      format: v.format,
      since: v.since,
      source: v.source,
    }));
  }
}
