/**
 * Profile version labels for each hop (spec 9: "a new pack version set is published with a new
 * label"). A label is new (never one the profile already used) and strictly above the previous
 * one. The params may name them (`references[].labels`); otherwise the next minor above every
 * label seen: `1.4.0` → `1.5.0`.
 */
import { compareVersions, parseVersion, type Version } from '../versions/version.js';

export type LabelCheck = { ok: true } | { ok: false; reason: string; hint: string };

function highest(labels: Iterable<string>): Version | undefined {
  let best: Version | undefined;
  for (const l of labels) {
    const v = parseVersion(l);
    if (v && (!best || compareVersions(v, best) > 0)) best = v;
  }
  return best;
}

/** The next label above `previous` and every label in `used`. */
export function nextLabel(previous: string, used: ReadonlySet<string>): string {
  const base = highest([previous, ...used]);
  let major = base?.major ?? 1;
  let minor = base ? base.minor + 1 : 0;
  for (;;) {
    const candidate = `${major}.${minor}.0`;
    if (!used.has(candidate) && candidate !== previous) return candidate;
    minor++;
    if (minor > 10_000) {
      major++;
      minor = 0;
    }
  }
}

/** Checks a label the params chose for a profile. */
export function checkLabel(label: string, previous: string, used: ReadonlySet<string>, profile: string): LabelCheck {
  const v0 = parseVersion(label);
  const p0 = parseVersion(previous);
  // A label above the previous one that exists already is a version made for another cluster that
  // shares the profile (a fleet names one label per hop): the draft step attaches it when it holds
  // this hop's content and refuses it otherwise, never rewrites it.
  if (used.has(label) && label !== previous && v0 && p0 && compareVersions(v0, p0) > 0) return { ok: true };
  if (used.has(label) || label === previous) {
    return { ok: false, reason: `The version label ${label} is already used by the profile ${profile}: a new pack set needs a new label.`, hint: `Choose an unused label above ${previous} in references[].labels, or leave it out to have one computed.` };
  }
  const v = parseVersion(label);
  const p = parseVersion(previous);
  if (v && p && compareVersions(v, p) <= 0) {
    return { ok: false, reason: `The version label ${label} for ${profile} is not above its previous label ${previous}.`, hint: 'Labels must increase from hop to hop; fix references[].labels or leave it out to have one computed.' };
  }
  return { ok: true };
}
