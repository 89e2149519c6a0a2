/** 9.3.4: the storage cluster is healthy; the block StorageClass exists with its name, annotation and parameters. */
import type { CheckSpec } from '../../kube/check-schema.js';
import { storageHealth } from './storage-health.js';
import type { VerifyExpectations } from './types.js';
import type { VerifyData } from '../../kube/checks/verify-data.js';
import { unreadable, value, verdict, type Verdict } from './verdict.js';

type Params = Extract<CheckSpec, { kind: 'storage' }>['with'];

/**
 * An annotation the class lacked before the upgrade too (the session's baseline says so) was not lost
 * by it: amber, "not on this site before the upgrade", not red. Without a baseline (`verify` alone) it is red.
 */
export function checkStorage(data: VerifyData, p: Params, exp: VerifyExpectations = {}): Verdict {
  const blocked = unreadable(data.storageCluster, data.storageClasses);
  if (blocked) return blocked;
  const problems: string[] = [];
  const notBefore: string[] = [];
  const cluster = value(data.storageCluster);
  const health = cluster ? storageHealth(p.clusterKind, cluster, p.healthyPhases) : undefined;
  if (!cluster) problems.push(`storage cluster ${p.storageCluster} (${p.clusterKind}) not found`);
  else for (const problem of health!.problems) problems.push(`storage cluster ${p.storageCluster}: ${problem}`);
  const classes = value(data.storageClasses);
  const sc = classes.find((c) => c.metadata.name === p.storageClass);
  if (!sc) {
    problems.push(`StorageClass ${p.storageClass} not found (present: ${classes.map((c) => c.metadata.name).join(', ') || 'none'})`);
  } else {
    const before = exp.baseline?.storageClassAnnotations?.[p.storageClass];
    for (const [k, v] of Object.entries(p.annotations)) {
      const have = sc.metadata.annotations?.[k];
      if (have === v) continue;
      const line = `StorageClass ${p.storageClass}: annotation ${k} is ${have === undefined ? 'missing' : JSON.stringify(have)}, expected ${JSON.stringify(v)}`;
      if (before && before[k] === have) notBefore.push(`${line} (not on this site before the upgrade either)`);
      else problems.push(line);
    }
    for (const [k, v] of Object.entries(p.parameters)) {
      const have = sc.parameters?.[k];
      if (have !== v) problems.push(`StorageClass ${p.storageClass}: parameter ${k} is ${have === undefined ? 'missing' : JSON.stringify(have)}, expected ${JSON.stringify(v)}`);
    }
  }
  if (problems.length) {
    return verdict('fail', `${problems.length} storage problem(s).`, [...problems, ...notBefore], 'A missing name, annotation or parameter means a storage customization of the site was lost: carry it into the infrastructure profile and publish again.');
  }
  if (notBefore.length) {
    return verdict('warn', `Storage cluster ${health?.state}; StorageClass ${p.storageClass} lacks ${notBefore.length} annotation(s) it did not have before the upgrade either.`, notBefore, 'Nothing was lost. Add the annotation only if the site wants it (a rule fix: --accept-fix RULE-ID).');
  }
  return verdict('pass', `Storage cluster ${health?.state}; StorageClass ${p.storageClass} as configured.`);
}
