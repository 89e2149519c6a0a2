/** Session state → report data. Pure. Each section reads the outputs of the step kinds it is about. */
import { describeRequest, type MutationRecord } from '../engine/mutation.js';
import { decisionSourceText } from '../engine/gate.js';
import { steps, type SessionState, type StepState } from '../engine/state.js';
import type { VerifyOutput } from '../steps/verify/verify.js';
import type { DraftOutput } from '../steps/hop/draft.js';
import type { ReconcileOutput } from '../steps/hop/reconcile.js';
import type { PlanContract, RecoverContract, SnapshotContract } from '../steps/contracts.js';
import type { ReportData, ReportMutation } from './model.js';

const outputs = <T>(all: StepState[], kind: string): Array<{ step: StepState; out: T }> =>
  all.filter((s) => s.kind === kind && s.output !== undefined).map((s) => ({ step: s, out: s.output as T }));

function bodySummary(m: MutationRecord): string | undefined {
  const r = m.request;
  if (r.target !== 'palette' || r.body === undefined) return r.target === 'kube' && r.stdin ? `stdin ${r.stdin.length} byte(s)` : undefined;
  const b = r.body as { spec?: { version?: string; template?: { packs?: Array<{ name: string; tag: string }> } } };
  const packs = b.spec?.template?.packs?.map((p) => `${p.name}@${p.tag}`).join(', ');
  return `version ${b.spec?.version ?? '?'}${packs ? `; packs ${packs}` : ''}`;
}

function mutationRows(state: SessionState): ReportMutation[] {
  return Object.values(state.mutations)
    .sort((a, b) => a.intentAt.localeCompare(b.intentAt))
    .map((m) => {
      const body = bodySummary(m);
      return {
        at: m.resultAt ?? m.intentAt,
        step: m.stepId,
        what: m.request.summary,
        request: describeRequest(m.request),
        ...(body ? { bodySummary: body } : {}),
        ...(m.approval ? { approval: `${m.approval.by === 'rehearsal' ? 'rehearsal' : `approved (${decisionSourceText(m.approval)})`} at ${m.approval.at}` } : {}),
        outcome: m.outcome ?? 'no result (interrupted)',
      };
    });
}

/** Generic fields that steps of the later kinds expose, read defensively. */
interface Summarised {
  headline?: string;
  findings?: Array<{ issue?: string; title?: string; evidence?: Array<{ line?: string; source?: string }> }>;
  entries?: Array<{ path: string; label: string; deployed?: unknown; newDefault?: unknown; decision?: string }>;
  checks?: Array<{ title: string; status: string; summary: string }>;
}

const text = (v: unknown) => (v === undefined ? undefined : typeof v === 'string' ? v : JSON.stringify(v));

export function buildReport(state: SessionState, now = new Date()): ReportData {
  const all = steps(state);
  const plan = all.filter((s) => s.status === 'succeeded' && Array.isArray((s.output as { hops?: unknown } | undefined)?.hops)).at(-1)?.output as PlanContract | undefined;
  const snapshot = outputs<SnapshotContract>(all, 'snapshot').at(-1)?.out;
  const verify = outputs<VerifyOutput>(all, 'verify').at(-1)?.out;
  const recover = outputs<RecoverContract>(all, 'recover').map((r) => r.out);

  const profilesAfter: ReportData['profilesAfter'] = [];
  const lastReconcile = outputs<ReconcileOutput>(all, 'reconcile').at(-1);
  for (const row of lastReconcile?.out.rows ?? []) profilesAfter.push({ name: row.profile, version: row.deployed, source: `cluster, after ${lastReconcile!.step.id}` });

  const customizeOut = outputs<{ byHop?: Array<{ index: number; profiles: Array<{ role: string; packs: Array<{ name: string; entries?: Summarised['entries'] }>; rules: Array<{ id: string; title: string; status: string; message: string }> }> }> }>(all, 'customize').at(-1)?.out;
  const customizations: ReportData['customizations'] = [];
  const rules: ReportData['rules'] = [];
  for (const hop of customizeOut?.byHop ?? []) {
    for (const p of hop.profiles) {
      for (const pack of p.packs) {
        for (const e of pack.entries ?? []) {
          if (e.label === 'ignored') continue;
          const deployed = text(e.deployed);
          const newDefault = text(e.newDefault);
          customizations.push({ hop: hop.index, profile: p.role, pack: pack.name, path: e.path, label: e.label, ...(deployed ? { deployed } : {}), ...(newDefault ? { newDefault } : {}), ...(e.decision ? { decision: e.decision } : {}) });
        }
      }
      for (const r of p.rules) rules.push({ stage: `hop ${hop.index} draft (${p.role})`, id: r.id, title: r.title, status: r.status, message: r.message });
    }
  }

  const outcomeError = state.run.error;
  return {
    schema: 1,
    generatedAt: now.toISOString(),
    session: state.meta,
    outcome: { status: state.run.status, ...(state.run.reason ? { reason: state.run.reason } : {}), ...(outcomeError?.hint ? { hint: outcomeError.hint } : {}) },
    rehearsal: state.meta.mode === 'rehearsal',
    profilesBefore: snapshot?.baseline.deployedProfiles ?? [],
    profilesAfter,
    hops: (plan?.hops ?? []).map((h) => ({
      index: h.index,
      from: h.from,
      to: h.to,
      // Defensive: a plan from another runbook may carry hops without per-profile details.
      profiles: (h.profiles ?? []).map((p) => ({ name: p.name, fromVersion: p.fromVersion, toVersion: p.toVersion, packs: (p.packs ?? []).map((k) => `${k.name} ${k.from} → ${k.to}`) })),
    })),
    impact: (plan?.impact ?? []).map((i) => ({ vm: i.vm, fate: i.fate, reason: i.reason })),
    customizations,
    rules,
    mutations: mutationRows(state),
    diffs: outputs<DraftOutput>(all, 'draft').flatMap(({ step, out }) =>
      out.packs.map((p) => ({ profile: out.name, ...(step.hop ? { hop: step.hop.index } : {}), pack: p.name, from: p.from, to: p.to, added: p.diff.added, removed: p.diff.removed, patch: p.diff.patch, truncated: p.diff.truncated })),
    ),
    migrations: all.filter((s) => s.kind === 'migrations' && s.status !== 'pending').map((s) => ({ step: s.id, summary: s.summary ?? s.skipReason ?? s.error?.message ?? s.status })),
    diagnoses: outputs<Summarised>(all, 'diagnose').map(({ step, out }) => ({
      step: step.id,
      summary: step.summary ?? out.headline ?? '',
      findings: (out.findings ?? []).flatMap((f) => [f.title ?? f.issue ?? '', ...(f.evidence ?? []).map((e) => `  ${e.source ?? ''}: ${e.line ?? ''}`)]).filter(Boolean),
    })),
    restarts: {
      restarted: [...new Set(recover.flatMap((r) => r.restarted ?? []))],
      outstanding: [...new Set(recover.flatMap((r) => r.outstanding ?? []))],
    },
    ...(verify ? { verification: { overall: verify.overall, rehearsal: verify.rehearsal, results: verify.results } } : {}),
    preChecks: outputs<Summarised>(all, 'preflight').flatMap(({ out }) => out.checks ?? []),
    steps: all.map((s) => ({
      id: s.id,
      title: s.title,
      kind: s.kind,
      status: s.status,
      durationMs: s.durationMs,
      attempts: s.attempts,
      ...(s.summary || s.skipReason ? { summary: s.summary ?? `skipped: ${s.skipReason}` } : {}),
      ...(s.error ? { error: { message: s.error.message, ...(s.error.hint ? { hint: s.error.hint } : {}) } } : {}),
    })),
  };
}
