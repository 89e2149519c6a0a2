/**
 * Which of the runbook's version notes a pack change crosses, and what they say for it. Pure.
 */
import { compareVersions, parseVersion } from '../domain/versions/version.js';
import type { VariableNote, VersionNote } from './version-notes-schema.js';

/** A note applies to a change of its pack from below `since` to `since` or above. */
export function crosses(note: VersionNote, from: string, to: string): boolean {
  const since = parseVersion(note.since);
  const a = parseVersion(from);
  const b = parseVersion(to);
  if (!since || !a || !b) return false;
  return compareVersions(a, since) < 0 && compareVersions(b, since) >= 0;
}

/** The notes that apply to `pack` moving `from` → `to` (`orchestration`: the pack a note without `pack` is about). */
export function notesFor(notes: readonly VersionNote[], pack: string, orchestration: string, from: string, to: string): VersionNote[] {
  return notes.filter((n) => (n.pack ?? orchestration) === pack && crosses(n, from, to));
}

/** The profile variables a change introduces (each once, first note first). */
export function variablesFor(notes: readonly VersionNote[], pack: string, orchestration: string, from: string, to: string): Array<VariableNote & { since: string; source: string }> {
  const seen = new Set<string>();
  const out: Array<VariableNote & { since: string; source: string }> = [];
  for (const n of notesFor(notes, pack, orchestration, from, to)) {
    for (const v of n.variables) {
      if (seen.has(v.name)) continue;
      seen.add(v.name);
      out.push({ ...v, since: n.since, source: n.source });
    }
  }
  return out;
}
