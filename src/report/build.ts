/**
 * Session state → report data. Pure. Each section reads the records of the step kinds it is about;
 * every string that came from a server passes the sanitizer on the way out.
 */
import { steps, type SessionState, type StepState } from '../engine/state.js';
import { sanitizeText } from '../text/sanitize.js';
import type { PlanContract, SnapshotContract } from '../steps/contracts.js';
import type { PlannedHop } from '../domain/plan/planned-hop.js';
import type { VmImpact } from '../domain/impact/vm-impact.js';
import type { MigrationsOutput } from '../steps/migrations/monitor-types.js';
import { chooserText } from '../steps/customize/render-text.js';
import type { Chooser } from '../steps/customize/types.js';
import type { ApplyOutput } from '../steps/hop/apply.js';
import type { DraftOutput } from '../steps/hop/draft.js';
import type { ReconcileOutput } from '../steps/hop/reconcile.js';
import type { VerifyOutput } from '../steps/verify/verify.js';
import { diagnosesOf } from './diagnoses.js';
import { historyOf } from './history.js';
import { imageTagsOnly } from './image-tags.js';
import type { ReportData } from './model.js';
import { requestsOf } from './requests.js';
import { labTimeIn, vmFates } from './vms.js';
import { wayBackOf } from './way-back.js';
import { sessionTimeline } from './timeline/session.js';

const outputs = <T>(all: StepState[], kind: string): Array<{ step: StepState; out: T }> =>
  all.filter((s) => s.kind === kind && s.output !== undefined).map((s) => ({ step: s, out: s.output as T }));

/** The plan's migration phase of a hop beside what its migration watch measured (issue 27). */
function measuredMigrations(all: StepState[], hop: number): { migrations?: ReportData['hops'][number]['migrations'] } {
  const watched = outputs<MigrationsOutput>(all, 'migrations').filter(({ step, out }) => step.hop?.index === hop && out.planned && out.outcome !== 'rehearsal').at(-1);
  if (!watched) return {};
  const { planned, elapsedMs, outcome, moved } = watched.out;
  // As the plan defines the phase: the workload updater's first migration to the last one's end; the watch's own span (which includes any wait for KubeVirt's rollout) only when no migration was seen.
  const measured = moved?.phase?.seconds ?? Math.round(elapsedMs / 1000);
  return { migrations: { plannedP50Seconds: planned!.p50Seconds, plannedP90Seconds: planned!.p90Seconds, measuredSeconds: measured, outcome } };
}

/**
 * The pack rollout of a hop beside its prediction: from the hop's send to the workload updater's
 * first migration, as the migration watch measured it; without a migration, the reconcile step's
 * wait (from the send until the cluster runs the hop). Both in the effects' clock (the lab's
 * simulated time in a lab).
 */
function measuredRollout(all: StepState[], hop: number, eta: PlannedHop['eta']): { rollout?: ReportData['hops'][number]['rollout'] } {
  const part = eta?.parts.find((p) => p.what === 'pack-rollout');
  const watched = outputs<MigrationsOutput>(all, 'migrations').filter(({ step, out }) => step.hop?.index === hop && out.rolloutSeconds !== undefined).at(-1);
  const waited = outputs<ReconcileOutput>(all, 'reconcile').filter(({ step, out }) => step.hop?.index === hop && !out.rehearsal && step.status === 'succeeded').at(-1);
  const seconds = watched?.out.rolloutSeconds ?? (waited ? Math.round(waited.out.elapsedMs / 1000) : undefined);
  if (!part || seconds === undefined) return {};
  return { rollout: { plannedP50Seconds: part.p50Seconds, plannedP90Seconds: part.p90Seconds, measuredSeconds: seconds } };
}

/**
 * The restarts of a hop beside the plan's restart part: the downtime the restarted VMs had (the
 * recovery measures each from the cluster's timestamps), summed as the plan sums its part. Only
 * once every VM the plan restarts is done: a part of them would read as the plan being slow.
 */
function measuredRestarts(vms: ReportData['vms'], hop: number, eta: PlannedHop['eta']): { restarts?: ReportData['hops'][number]['restarts'] } {
  const part = eta?.parts.find((p) => p.what === 'restarts');
  const restarted = vms.filter((v) => v.hop === hop && v.fate === 'restarted' && v.downtimeSeconds !== undefined);
  if (!part || !part.p50Seconds || !restarted.length) return {};
  const seconds = Math.round(restarted.reduce((n, v) => n + v.downtimeSeconds!, 0));
  return { restarts: { plannedP50Seconds: part.p50Seconds, plannedP90Seconds: part.p90Seconds, measuredSeconds: seconds, restarted: restarted.length } };
}

/** A VM of the plan's impact, its fields as the report schema has them. */
function impactOf(i: VmImpact): ReportData['impact'][number] {
  const { vm, node, fate, reason, reasonCode, explanation, evictionStrategy, runStrategy, memoryBytes, migrationPolicy, predicted, mayNotConverge, limitsBroken } = i;
  return Object.fromEntries(Object.entries({ vm, node, fate, reason, reasonCode, explanation, evictionStrategy, runStrategy, memoryBytes, migrationPolicy, predicted, mayNotConverge, limitsBroken }).filter(([, v]) => v !== undefined)) as ReportData['impact'][number];
}

/** Generic fields that steps of the later kinds expose, read defensively. */
interface Summarised {
  entries?: Array<{ path: string; label: string; deployed?: unknown; newDefault?: unknown; decision?: string }>;
  checks?: Array<{ title: string; status: string; summary: string }>;
}

interface CustomizeLike {
  variablesUnserved?: string;
  byHop?: Array<{
    index: number;
    profiles: Array<{
      role: string;
      packs: Array<{ name: string; entries?: Summarised['entries'] }>;
      rules: Array<{ id: string; title: string; status: string; message: string }>;
      additions?: Array<{ pack: string; path: string; value: unknown; source: 'ruleFix' | 'entered' | 'other'; rule?: string; what: string; included: boolean; chosenBy?: Chooser }>;
    }>;
  }>;
}

const text = (v: unknown) => (v === undefined ? undefined : typeof v === 'string' ? v : JSON.stringify(v));

function customizationsOf(all: StepState[]): Pick<ReportData, 'customizations' | 'rules' | 'additions' | 'variablesUnserved'> {
  const out = outputs<CustomizeLike>(all, 'customize').at(-1)?.out;
  const customizations: ReportData['customizations'] = [];
  const rules: ReportData['rules'] = [];
  const additions: ReportData['additions'] = [];
  for (const hop of out?.byHop ?? []) {
    for (const p of hop.profiles) {
      for (const pack of p.packs) {
        for (const e of pack.entries ?? []) {
          if (e.label === 'ignored') continue;
          const deployed = text(e.deployed);
          const newDefault = text(e.newDefault);
          customizations.push({ hop: hop.index, profile: p.role, pack: pack.name, path: e.path, label: e.label, ...(deployed ? { deployed } : {}), ...(newDefault ? { newDefault } : {}), ...(e.decision ? { decision: e.decision } : {}) });
        }
      }
      // A profile the hop leaves alone has no draft: its rules were judged on what it runs.
      const stage = p.packs.length ? `hop ${hop.index} draft (${p.role})` : `hop ${hop.index} (${p.role}, unchanged)`;
      for (const r of p.rules) rules.push({ stage, id: r.id, title: r.title, status: r.status, message: r.message });
      for (const a of p.additions ?? []) {
        additions.push({ hop: hop.index, profile: p.role, pack: a.pack, path: a.path, value: text(a.value) ?? '', source: a.source, ...(a.rule ? { rule: a.rule } : {}), what: a.what, included: a.included, ...(a.chosenBy ? { chosenBy: chooserText(a.chosenBy) } : {}) });
      }
    }
  }
  return { customizations, rules, additions, ...(out?.variablesUnserved ? { variablesUnserved: out.variablesUnserved } : {}) };
}

/** The profile variables the plan's hops introduced: names and where they were declared, never a value. */
function variablesOf(plan: PlanContract | undefined): ReportData['variables'] {
  return (plan?.hops ?? []).flatMap((h) => (h.variables ?? []).map((v) => ({ hop: h.index, profile: v.role, name: v.name, since: v.since, source: v.source })));
}

/** Every string, cleaned of terminal control sequences (log lines and reasons come from servers). */
function sanitizeDeep<T>(v: T): T {
  if (typeof v === 'string') return sanitizeText(v, { max: 20_000, multiline: true }) as T;
  if (Array.isArray(v)) return v.map(sanitizeDeep) as T;
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, sanitizeDeep(x)])) as T;
  return v;
}

export function buildReport(state: SessionState, now = new Date()): ReportData {
  const all = steps(state);
  const plan = all.filter((s) => s.status === 'succeeded' && Array.isArray((s.output as { hops?: unknown } | undefined)?.hops)).at(-1)?.output as PlanContract | undefined;
  const snapshot = outputs<SnapshotContract>(all, 'snapshot').at(-1)?.out;
  const verify = outputs<VerifyOutput>(all, 'verify').at(-1)?.out;
  const lastReconcile = outputs<ReconcileOutput>(all, 'reconcile').at(-1);
  const history = historyOf(state);
  const vms = vmFates(state);
  const { meta } = state;
  const outcomeError = state.run.error;

  const data: Omit<ReportData, 'timeline'> = {
    schema: 2,
    generatedAt: now.toISOString(),
    session: {
      id: meta.id,
      tool: meta.tool,
      mode: meta.mode,
      lab: meta.lab || meta.servedLab === true,
      runbook: meta.runbook,
      ...(meta.paramsFile ? { paramsFile: meta.paramsFile } : {}),
      cluster: meta.cluster,
    },
    ...history,
    outcome: { status: state.run.status, ...(state.run.reason ? { reason: state.run.reason } : {}), ...(outcomeError?.hint ? { hint: outcomeError.hint } : {}) },
    rehearsal: meta.mode === 'rehearsal',
    labTime: labTimeIn(state),
    profiles: {
      before: snapshot?.baseline.deployedProfiles ?? [],
      after: (lastReconcile?.out.rows ?? []).map((row) => ({ name: row.profile, version: row.deployed, source: `cluster, after ${lastReconcile!.step.id}` })),
    },
    hops: (plan?.hops ?? []).map((h, i) => ({
      index: h.index ?? i + 1,
      from: h.from,
      to: h.to,
      // Defensive: a plan from another runbook may carry hops without per-profile details.
      profiles: (h.profiles ?? []).map((p) => ({ name: p.name, role: p.role, uid: p.uid, fromVersion: p.fromVersion, toVersion: p.toVersion, packs: (p.packs ?? []).map((k) => ({ name: k.name, from: k.from, to: k.to })) })),
      ...(h.eta ? { eta: h.eta } : {}),
      ...(h.room ? { room: h.room } : {}),
      ...measuredRollout(all, h.index ?? i + 1, h.eta),
      ...measuredMigrations(all, h.index ?? i + 1),
      ...measuredRestarts(vms, h.index ?? i + 1, h.eta),
    })),
    impact: (plan?.impact ?? []).map((i) => impactOf(i)),
    requests: requestsOf(state),
    vms,
    diagnoses: diagnosesOf(state),
    ...(verify ? { verification: { overall: verify.overall, rehearsal: verify.rehearsal, results: verify.results } } : {}),
    rollback: wayBackOf(state, plan, snapshot, outputs<ApplyOutput>(all, 'apply').map(({ out }) => out.replaced ?? []), outputs<ApplyOutput>(all, 'apply')[0]?.out.cluster.uid),
    ...customizationsOf(all),
    variables: variablesOf(plan),
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
    diffs: outputs<DraftOutput>(all, 'draft').flatMap(({ step, out }) =>
      out.packs.map((p) => ({
        ...(step.hop ? { hop: step.hop.index } : {}),
        profile: out.name,
        pack: p.name,
        from: p.from,
        to: p.to,
        added: p.diff.added,
        removed: p.diff.removed,
        imageTagsOnly: imageTagsOnly(p.diff.patch, p.diff.truncated),
        patch: p.diff.patch,
        truncated: p.diff.truncated,
      })),
    ),
  };
  return sanitizeDeep({ ...data, timeline: sessionTimeline(state, data) });
}
