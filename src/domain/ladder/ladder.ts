/**
 * The upgrade ladder: from the deployed orchestration pack version to the target in hops of exactly
 * one minor version (spec 9.1.1: skipping a minor breaks every live migration, because the old and
 * new launchers cannot talk), with the stepping stones the vendor names (VMO 4.10 needs 4.9.9 or
 * later first) as stops of their own. Pure; refusals name the missing version and the reason.
 */
import { compareVersions, minorOf, parseVersion, type Version } from '../versions/version.js';

export interface Hop {
  from: string;
  to: string;
  /** Why this version is a stop of its own, when a stepping stone made it one. */
  reason?: string;
}

/**
 * A stepping stone (version notes `requires`): going to `since` or above needs `version` or a later
 * one first (VMO 4.10.0 needs 4.9.9 or later). `reason` and `source` say why and who says so.
 */
export interface SteppingStone {
  since: string;
  version: string;
  reason: string;
  source: string;
}

export type Ladder = { ok: true; hops: Hop[]; notes: string[] } | { ok: false; reason: string; hint: string };

const SKIP_REASON = 'skipping a minor version makes the automatic live migrations of running VMs fail: the old and new launchers are incompatible (spec 9.1.1)';

function refuse(reason: string, hint: string): Ladder {
  return { ok: false, reason, hint };
}

/**
 * `available`: versions that can be stepped through (params `hops`, or the versions of the reference
 * sources). `explicit`: true when they are the operator's own list of hops, used as given.
 */
export function buildLadder(deployedTag: string, targetTag: string, available: string[], explicit = false, stones: readonly SteppingStone[] = []): Ladder {
  const deployed = parseVersion(deployedTag);
  const target = parseVersion(targetTag);
  if (!deployed) return refuse(`The deployed pack tag "${deployedTag}" is not a version.`, 'Check the deployed profile; pack tags look like 4.6.3 or 1.4.2-spectro.1.');
  if (!target) return refuse(`The target "${targetTag}" is not a version.`, 'Set `target` in the params file to a pack tag such as 4.6.3.');
  const cmp = compareVersions(target, deployed);
  if (cmp === 0) return { ok: true, hops: [], notes: [`The pack is already at ${deployedTag}: nothing to publish.`] };
  if (cmp < 0) return refuse(`The target ${targetTag} is older than the deployed ${deployedTag}: downgrades are not supported.`, 'Set `target` to the deployed version or a newer one.');
  if (target.major !== deployed.major) {
    return refuse(`The target ${targetTag} is in another major version than the deployed ${deployedTag}.`, 'Crossing a major version is not covered by this runbook; follow the vendor upgrade notes.');
  }

  const steps: Version[] = [];
  for (const tag of available) {
    const v = parseVersion(tag);
    if (!v) return refuse(`The intermediate version "${tag}" is not a version.`, 'Fix the `hops` (or `references`) list in the params file.');
    steps.push(v);
  }

  let chain: Version[];
  if (explicit) {
    chain = [...steps, target];
    const seen = new Set<string>();
    let prev = deployed;
    for (const v of chain) {
      const key = `${v.major}.${v.minor}.${v.patch}-${v.suffix}`;
      if (seen.has(key)) return refuse(`The hop list repeats ${v.raw}.`, 'List each intermediate version once, in order.');
      seen.add(key);
      const c = compareVersions(v, prev);
      if (c <= 0) return refuse(`The hop list goes from ${prev.raw} to ${v.raw}, which is not an upgrade.`, 'List the intermediate versions in increasing order, between the deployed version and the target.');
      if (v.major !== prev.major) return refuse(`The hop ${prev.raw} → ${v.raw} crosses a major version.`, 'Crossing a major version is not covered by this runbook.');
      prev = v;
    }
  } else {
    // The highest available version of each minor between the deployed one and the target.
    chain = [];
    for (let minor = deployed.minor + 1; minor < target.minor; minor++) {
      const best = steps
        .filter((v) => v.major === target.major && v.minor === minor)
        .sort(compareVersions)
        .pop();
      if (!best) {
        return refuse(
          `No ${target.major}.${minor}.x version is available to step through from ${deployedTag} to ${targetTag}; ${SKIP_REASON}.`,
          `Add a reference profile (or a values folder entry) for a ${target.major}.${minor}.x version of the pack, then plan again.`,
        );
      }
      chain.push(best);
    }
    chain.push(target);
  }

  const stoned = withStones(deployed, chain, steps, explicit, stones);
  if ('reason' in stoned) return refuse(stoned.reason, stoned.hint);
  chain = stoned.chain;

  const hops: Hop[] = [];
  const notes: string[] = [];
  let prev = deployed;
  for (const v of chain) {
    if (v.minor > prev.minor + 1) {
      const missing = `${v.major}.${prev.minor + 1}`;
      return refuse(`The hop ${prev.raw} → ${v.raw} skips the minor version ${missing}; ${SKIP_REASON}.`, `Add a ${missing}.x version between them.`);
    }
    if (v.minor === prev.minor) notes.push(`${prev.raw} → ${v.raw} changes only the patch version.`);
    const why = stoned.why.get(v.raw);
    hops.push({ from: prev.raw, to: v.raw, ...(why ? { reason: why } : {}) });
    if (why) notes.push(`${v.raw} is ${why}.`);
    prev = v;
  }
  return { ok: true, hops, notes };
}

const stoneWords = (s: SteppingStone) => `a stepping stone: ${s.since} and later need ${s.version} or later first (${s.reason}; ${s.source})`;

/**
 * The chain with every stepping stone it crosses: where a hop goes from below a stone's `version` to
 * its `since` or above, the highest available version from `version` up to (not including) `since`
 * comes first, and says why. A hop list of the operator's own is not changed: it is refused instead.
 */
function withStones(deployed: Version, chain: Version[], available: Version[], explicit: boolean, stones: readonly SteppingStone[]): { chain: Version[]; why: Map<string, string> } | { reason: string; hint: string } {
  const why = new Map<string, string>();
  let out = [...chain];
  for (const stone of stones) {
    const since = parseVersion(stone.since);
    const need = parseVersion(stone.version);
    if (!since || !need) continue;
    let prev = deployed;
    for (let i = 0; i < out.length; i++) {
      const v = out[i]!;
      const crosses = compareVersions(prev, since) < 0 && compareVersions(v, since) >= 0;
      if (crosses && compareVersions(prev, need) >= 0) {
        // Already standing on the stone: say why this stop matters, when it is one of the plan's.
        if (i > 0) why.set(prev.raw, stoneWords(stone));
        break;
      }
      if (crosses) {
        const best = available.filter((x) => compareVersions(x, need) >= 0 && compareVersions(x, since) < 0 && compareVersions(x, prev) > 0).sort(compareVersions).pop();
        if (!best || explicit) {
          return {
            reason: `The hop ${prev.raw} → ${v.raw} goes to ${stone.since} or later without ${stone.version} or later first: ${stone.reason} (${stone.source}).`,
            hint: explicit
              ? `Add ${stone.version} (or a later ${minorOf(need)}.x below ${stone.since}) to the hops list in the params file, before ${v.raw}.`
              : `No version from ${stone.version} up to ${stone.since} is available; add a reference (or a values folder entry) for ${stone.version}, then plan again.`,
          };
        }
        out = [...out.slice(0, i), best, ...out.slice(i)];
        why.set(best.raw, stoneWords(stone));
        break;
      }
      prev = v;
    }
  }
  return { chain: out, why };
}

