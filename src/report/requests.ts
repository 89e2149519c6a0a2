/** The changes sent (or, in a rehearsal, recorded), one line each, in the order they went out. Pure. */
import { describeRequest, type MutationRecord } from '../engine/mutation.js';
import type { SessionState } from '../engine/state.js';
import { steps } from '../engine/state.js';
import { approvalSource } from './history.js';
import type { ReportRequest } from './model.js';

/** What the body changes, in one line: the version label and the pack tags (never the values). */
function bodySummary(m: MutationRecord): string | undefined {
  const r = m.request;
  if (r.target !== 'palette' || r.body === undefined) return r.target === 'kube' && r.stdin ? `stdin ${r.stdin.length} byte(s)` : undefined;
  const b = r.body as { spec?: { version?: string; template?: { packs?: Array<{ name: string; tag: string }> } } };
  const packs = b.spec?.template?.packs?.map((p) => `${p.name}@${p.tag}`).join(', ');
  return `version ${b.spec?.version ?? '?'}${packs ? `; packs ${packs}` : ''}`;
}

export function requestsOf(state: SessionState): ReportRequest[] {
  const hopOf = new Map(steps(state).map((s) => [s.id, s.hop?.index ?? null]));
  return Object.values(state.mutations)
    .sort((a, b) => a.intentAt.localeCompare(b.intentAt))
    .map((m) => {
      const body = bodySummary(m);
      return {
        at: m.intentAt,
        hop: hopOf.get(m.stepId) ?? null,
        step: m.stepId,
        what: m.request.summary,
        request: describeRequest(m.request),
        ...(body ? { body } : {}),
        ...(m.approval ? { approval: { ...approvalSource(m.approval), at: m.approval.at } } : {}),
        outcome: m.outcome ?? 'no result (interrupted)',
      };
    });
}
