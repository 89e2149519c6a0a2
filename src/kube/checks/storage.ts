/** 9.3.4: the storage cluster is healthy; the block StorageClass exists with its name, annotation and parameters. */
import type { CheckSpec } from '../check-schema.js';
import { storageHealth } from './storage-health.js';
import type { VerifyData } from './types.js';
import { unreadable, value, verdict, type Verdict } from './verdict.js';

type Params = Extract<CheckSpec, { kind: 'storage' }>['with'];

export function checkStorage(data: VerifyData, p: Params): Verdict {
  const blocked = unreadable(data.storageCluster, data.storageClasses);
  if (blocked) return blocked;
  const problems: string[] = [];
  const cluster = value(data.storageCluster);
  const health = cluster ? storageHealth(p.clusterKind, cluster, p.healthyPhases) : undefined;
  if (!cluster) problems.push(`storage cluster ${p.storageCluster} (${p.clusterKind}) not found`);
  else for (const problem of health!.problems) problems.push(`storage cluster ${p.storageCluster}: ${problem}`);
  const classes = value(data.storageClasses);
  const sc = classes.find((c) => c.metadata.name === p.storageClass);
  if (!sc) {
    problems.push(`StorageClass ${p.storageClass} not found (present: ${classes.map((c) => c.metadata.name).join(', ') || 'none'})`);
  } else {
    for (const [k, v] of Object.entries(p.annotations)) {
      const have = sc.metadata.annotations?.[k];
      if (have !== v) problems.push(`StorageClass ${p.storageClass}: annotation ${k} is ${have === undefined ? 'missing' : JSON.stringify(have)}, expected ${JSON.stringify(v)}`);
    }
    for (const [k, v] of Object.entries(p.parameters)) {
      const have = sc.parameters?.[k];
      if (have !== v) problems.push(`StorageClass ${p.storageClass}: parameter ${k} is ${have === undefined ? 'missing' : JSON.stringify(have)}, expected ${JSON.stringify(v)}`);
    }
  }
  return problems.length
    ? verdict('fail', `${problems.length} storage problem(s).`, problems, 'A missing name, annotation or parameter means a storage customization of the site was lost: carry it into the infrastructure profile and publish again.')
    : verdict('pass', `Storage cluster ${health?.state}; StorageClass ${p.storageClass} as configured.`);
}
