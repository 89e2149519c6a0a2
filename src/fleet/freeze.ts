/**
 * Freezing the plan (`fleet start`): each cluster's params file written (the fleet file's defaults
 * with its own values on top), then the plan journaled: the target set from now on. A cluster left
 * out (template-managed, gone) is named in the plan and not in any stage.
 */
import { join } from 'node:path';
import { stringify } from 'yaml';
import { ensurePrivateDir, writeFileAtomic } from '../session/durable-fs.js';
import { whoAmI } from './run-options.js';
import type { FleetJournal } from './journal.js';
import type { LoadedFleet } from './load.js';
import type { LeftOut, PlannedCluster, PlannedStage } from './types.js';

/** The stages as the plan freezes them: each with only the clusters that will run (members less those left out). */
export function plannedStages(f: LoadedFleet, members: ReadonlyMap<string, string[]>, leftOut: readonly LeftOut[]): PlannedStage[] {
  return f.spec.stages.map((s) => {
    const line = f.stageLines.get(s.name);
    return {
      name: s.name,
      clusters: (members.get(s.name) ?? []).filter((n) => !leftOut.some((l) => l.name === n)),
      maxConcurrency: s.maxConcurrency,
      failureThreshold: s.failureThreshold,
      approval: s.approval,
      ...(s.approve.length ? { approve: s.approve } : {}),
      ...(s.restarts !== 'ask' ? { restarts: s.restarts } : {}),
      ...(s.soak ? { soakMs: s.soak } : {}),
      ...(s.window ? { window: s.window } : {}),
      ...(line !== undefined ? { at: { file: f.file, line } } : {}),
    };
  });
}

export function freezePlan(journal: FleetJournal, f: LoadedFleet, leftOut: LeftOut[], members: ReadonlyMap<string, string[]>): void {
  const stages = plannedStages(f, members, leftOut);
  const clusters: PlannedCluster[] = [];
  for (const s of stages) {
    for (const name of s.clusters) {
      const c = f.clusters.find((x) => x.name === name)!;
      const dir = journal.paths.clusterDir(name);
      ensurePrivateDir(dir);
      const paramsFile = join(dir, 'params.yaml');
      // Notifications are the fleet's (per stage and at the end): the cluster's session sends none of its own.
      const { notify: _notify, ...raw } = c.raw;
      writeFileAtomic(paramsFile, `# ${name} in fleet ${f.spec.fleet}: the fleet file's defaults with its own values, frozen with the plan.\n${stringify(raw)}`);
      clusters.push({ name, uid: c.uid, stage: s.name, paramsFile });
    }
  }
  journal.append({ type: 'fleet.planned', at: new Date().toISOString(), fleet: f.spec.fleet, file: f.file, digest: f.digest, target: f.spec.target, by: whoAmI(), stages, clusters, leftOut });
}
