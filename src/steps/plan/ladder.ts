/**
 * The upgrade ladder: from the deployed orchestration pack version to the target in hops of exactly
 * one minor version (spec 9.1.1: skipping a minor breaks every live migration, because the old and
 * new launchers cannot talk). Pure; refusals name the missing minor and the reason.
 */
import { compareVersions, parseVersion, type Version } from './version.js';

export interface Hop {
  from: string;
  to: string;
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
export function buildLadder(deployedTag: string, targetTag: string, available: string[], explicit = false): Ladder {
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

  const hops: Hop[] = [];
  const notes: string[] = [];
  let prev = deployed;
  for (const v of chain) {
    if (v.minor > prev.minor + 1) {
      const missing = `${v.major}.${prev.minor + 1}`;
      return refuse(`The hop ${prev.raw} → ${v.raw} skips the minor version ${missing}; ${SKIP_REASON}.`, `Add a ${missing}.x version between them.`);
    }
    if (v.minor === prev.minor) notes.push(`${prev.raw} → ${v.raw} changes only the patch version.`);
    hops.push({ from: prev.raw, to: v.raw });
    prev = v;
  }
  return { ok: true, hops, notes };
}

