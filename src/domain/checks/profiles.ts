/** 9.3.1: the cluster's profiles read returns the expected profile names and versions. */
import type { VerifyExpectations } from './types.js';
import type { VerifyData } from '../../kube/checks/verify-data.js';
import { unreadable, value, verdict, type Verdict } from './verdict.js';

/** Tags compare as versions: `v4.6.3` is `4.6.3`. */
const sameTag = (a: string, b: string) => a.replace(/^v/, '') === b.replace(/^v/, '');

export function checkProfiles(data: VerifyData, exp: VerifyExpectations): Verdict {
  const blocked = unreadable(data.profiles);
  if (blocked) return blocked;
  const deployed = value(data.profiles);
  const listing = deployed.map((p) => `${p.name} ${p.version}`);
  if (!exp.profiles?.length) {
    return deployed.length ? verdict('pass', `${deployed.length} profile(s) deployed: ${listing.join(', ')}`, listing) : verdict('fail', 'The cluster reports no deployed profiles.');
  }
  const problems: string[] = [];
  for (const want of exp.profiles) {
    const got = deployed.find((p) => p.name === want.name);
    if (!got) {
      problems.push(`${want.name}: not deployed on the cluster`);
      continue;
    }
    if (want.version && got.version !== want.version) problems.push(`${want.name}: version ${got.version}, expected ${want.version}`);
    for (const pack of want.packs ?? []) {
      const have = got.packs.find((p) => p.name === pack.name);
      if (!have) problems.push(`${want.name}: pack ${pack.name} missing (expected ${pack.tag})`);
      else if (!sameTag(have.tag, pack.tag)) problems.push(`${want.name}: pack ${pack.name} at ${have.tag}, expected ${pack.tag}`);
    }
  }
  return problems.length
    ? verdict('fail', `${problems.length} difference(s) from the expected profiles.`, problems, 'If the draft was published, reconciliation may still be running; otherwise check the profile was published (a PUT alone changes nothing).')
    : verdict('pass', `Deployed as expected: ${listing.join(', ')}`, listing);
}
