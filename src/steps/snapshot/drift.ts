/**
 * Drift of the deployed profiles since the snapshot. A version this session's own plan publishes
 * is not drift: after a hop the cluster is meant to run it. Anything else (another label, another
 * pack tag, a profile gone) is someone else's change, one line each.
 */
import type { DeployedProfileDoc } from '../../palette/api.js';
import type { PlanContract } from '../contracts.js';
import type { Baseline } from './baseline.js';

export function profileDrift(recorded: Baseline['deployedProfiles'], now: DeployedProfileDoc[], plan: PlanContract | undefined): string[] {
  const lines: string[] = [];
  const planned = (name: string, version: string) =>
    (plan?.hops ?? []).some((h) => h.profiles.some((p) => p.name === name && p.toVersion === version));
  for (const was of recorded) {
    const is = now.find((p) => p.name === was.name);
    if (!is) {
      lines.push(`${was.name} is no longer deployed on the cluster (was ${was.version})`);
      continue;
    }
    if (is.version !== was.version) {
      if (!planned(is.name, is.version)) lines.push(`${was.name}: version ${was.version} at the snapshot, now ${is.version || '?'}`);
      continue;
    }
    for (const pack of was.packs) {
      const tag = is.packs.find((p) => p.name === pack.name)?.tag;
      if (tag !== pack.tag) lines.push(`${was.name}: ${pack.name} ${pack.tag} at the snapshot, now ${tag ?? 'missing'}`);
    }
  }
  for (const is of now) {
    if (!recorded.some((p) => p.name === is.name)) lines.push(`${is.name} ${is.version} is deployed now but was not at the snapshot`);
  }
  return lines;
}
