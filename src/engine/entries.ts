/** The session's initial step list, from the runbook: steps as they are, hop groups as placeholders. */
import { isGroup, type Runbook, type StepSpec } from './runbook.js';
import type { Entry, StepPlan } from './state.js';
import type { StepRegistry } from './step-kind.js';

function plan(spec: StepSpec, registry: StepRegistry): StepPlan {
  return { id: spec.id, localId: spec.id, kind: spec.kind, title: spec.title ?? registry.get(spec.kind)?.title ?? spec.id, with: spec.with };
}

export function plannedEntries(runbook: Runbook, registry: StepRegistry): Entry[] {
  return runbook.steps.map((spec): Entry => {
    if (isGroup(spec)) {
      return {
        id: spec.id,
        group: true,
        title: spec.title ?? 'Upgrade hops',
        forEach: spec.forEach,
        steps: spec.steps.map((s) => plan(s, registry)),
        ifEmpty: spec.ifEmpty.map((s) => plan(s, registry)),
      };
    }
    return { ...plan(spec, registry), status: 'pending', durationMs: 0, attempts: 0, decisions: {}, notes: {} };
  });
}
