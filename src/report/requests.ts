/** The changes sent (or, in a rehearsal, recorded), one line each, in the order they went out. Pure. */
import { describeRequest, type MutationRecord } from '../engine/mutation.js';
import type { SessionState } from '../engine/state.js';
import { steps } from '../engine/state.js';
import { approvalSource } from './history.js';
import type { ReportRequest } from './model.js';

/**
 * What the body changes, in one line (never the values): a draft's version label and pack tags, a
 * clone's new label, an apply's versions; undefined for a body that says nothing more than the
 * request line (a publish, a repave approval).
 */
export function bodySummary(m: Pick<MutationRecord, 'request'>): string | undefined {
  const r = m.request;
  if (r.target !== 'palette' || r.body === undefined) return r.target === 'kube' && r.stdin ? `stdin ${r.stdin.length} byte(s)` : undefined;
  const b = r.body as {
    spec?: { version?: string; template?: { packs?: Array<{ name: string; tag: string }> } };
    metadata?: { name?: string; version?: string };
    profiles?: Array<{ uid?: string; replaceWithProfile?: string }>;
  };
  if (b.spec) {
    const packs = b.spec.template?.packs?.map((p) => `${p.name}@${p.tag}`).join(', ');
    const parts = [...(b.spec.version ? [`version ${b.spec.version}`] : []), ...(packs ? [`packs ${packs}`] : [])];
    return parts.length ? parts.join('; ') : undefined;
  }
  if (b.metadata?.version) return `new version ${b.metadata.version}${b.metadata.name ? ` of ${b.metadata.name}` : ''}`;
  if (Array.isArray(b.profiles)) return `profiles ${b.profiles.map((p) => (p.replaceWithProfile ? `${p.uid} in place of ${p.replaceWithProfile}` : p.uid)).join(', ')}`;
  return undefined;
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
