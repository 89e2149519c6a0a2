/** A frozen fleet plan (`fleet.planned`) for tests: fleet `edge` to 4.6.3 from /ops/edge.yaml, its clusters those of its stages. */
import type { FleetEvent, LeftOut, PlannedStage } from '../../src/fleet/types.js';

export function planEvent(at: string, stages: PlannedStage[], leftOut: LeftOut[] = []): Extract<FleetEvent, { type: 'fleet.planned' }> {
  return {
    type: 'fleet.planned',
    at,
    fleet: 'edge',
    file: '/ops/edge.yaml',
    digest: 'abc',
    target: '4.6.3',
    by: 'ana@jump',
    stages,
    clusters: stages.flatMap((s) => s.clusters.map((name) => ({ name, uid: `uid-${name}`, stage: s.name, paramsFile: `/x/${name}.yaml` }))),
    leftOut,
  };
}
