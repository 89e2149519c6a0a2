/** Hop groups become concrete steps once the plan is known (`hop1.draft-addon`, ...): pure, from the session's state. */
import { steps, type GroupPlaceholder, type HopInfo, type SessionState, type StepPlan } from './state.js';

/** The hops come from the latest finished step whose output carries a `hops` list (the plan). */
export function plannedHops(state: SessionState): HopInfo[] {
  for (const s of [...steps(state)].reverse()) {
    if (s.status !== 'succeeded') continue;
    const out = s.output as { hops?: Array<{ from: string; to: string }> } | undefined;
    if (out && Array.isArray(out.hops)) return out.hops.map((h, i, all) => ({ index: i + 1, count: all.length, from: h.from, to: h.to }));
  }
  return [];
}

/** The group's steps once per hop, or its `ifEmpty` steps when there is no hop. */
export function expandGroup(group: GroupPlaceholder, hops: HopInfo[]): StepPlan[] {
  if (hops.length === 0) return group.ifEmpty.map((s) => ({ ...s, id: `${group.id}.${s.localId}`, group: group.id }));
  return hops.flatMap((hop) => group.steps.map((s) => ({ ...s, id: `${group.id}${hop.index}.${s.localId}`, group: group.id, hop })));
}
