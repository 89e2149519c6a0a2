/**
 * The session journal, with the records a large upgrade really writes: a runbook of 20 steps whose
 * snapshot and plan outputs list every VM, then a recovery that asks before each VM restart and
 * restarts it, five records per VM (gate, decision, identity note, intent, result).
 *
 *  - Append: `OpenSession.append` (redact, JSON, write, fsync) timed per record.
 *  - Resume: `SessionStore.open` of a session of 10,000 records whose last snapshot was taken when
 *    recovery started (the runner snapshots at each step's end), so every restart record is
 *    replayed through the reducer: the case after a crash in the middle of recovery. Also the best
 *    case, a snapshot taken after the last record.
 */
import { appendFileSync, cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { initialState, reduce } from '../src/engine/reducer.js';
import type { Entry, SessionEvent, SessionMeta, SessionState, StepState } from '../src/engine/state.js';
import { SCHEMA_VERSION } from '../src/engine/state.js';
import { Redactor } from '../src/session/redact.js';
import { SessionStore } from '../src/session/store.js';
import { restartKeys } from '../src/steps/migrations/recover-context.js';
import { restartRequest } from '../src/steps/migrations/recover-requests.js';
import { restartGate } from '../src/steps/migrations/restart-gate.js';

export interface JournalBenchResult {
  events: number;
  vmsRestarted: number;
  journalBytes: number;
  /** Per appended record, ms. */
  appendMs: number[];
  /** Resume with every restart record replayed, ms per run. */
  resumeMs: number[];
  replayed: number;
  /** Resume from a snapshot taken after the last record, ms per run. */
  resumeFromSnapshotMs: number[];
}

const at = (i: number) => new Date(Date.UTC(2026, 10, 22, 4, 0, 0) + i * 1000).toISOString();
const ns = (i: number) => `vms-${String(Math.floor(i / 100)).padStart(3, '0')}`;
const vmName = (i: number) => `vm-${String(i).padStart(5, '0')}`;

function plan(id: string, kind: string, title: string, hop?: number): StepState {
  return {
    id: hop ? `hop${hop}.${id}` : id,
    localId: id,
    kind,
    title,
    with: {},
    ...(hop ? { group: 'hop', hop: { index: hop, count: 2, from: hop === 1 ? '4.4.10' : '4.5.4', to: hop === 1 ? '4.5.4' : '4.6.3' } } : {}),
    status: 'pending',
    durationMs: 0,
    attempts: 0,
    decisions: {},
    notes: {},
  };
}

function runbookEntries(): StepState[] {
  const hop = (n: number) => [
    plan('draft-addon', 'draft', 'Write the add-on profile draft', n),
    plan('draft-infra', 'draft', 'Write the infrastructure profile draft', n),
    plan('publish', 'publish', 'Publish the drafts', n),
    plan('reconcile', 'reconcile', 'Wait for reconciliation', n),
    plan('migrations', 'migrations', 'Watch live migrations', n),
    plan('diagnose', 'diagnose', 'Diagnose stalled migrations', n),
    plan('recover', 'recover', 'Recover: restart what cannot move', n),
    plan('verify', 'verify', 'Verify the hop', n),
  ];
  return [plan('preflight', 'preflight', 'Preflight'), plan('snapshot', 'snapshot', 'Snapshot'), plan('plan', 'plan', 'Plan the hops'), plan('customize', 'customize', 'Carry the customizations'), ...hop(1), ...hop(2)];
}

/** The records of a session that crashed in hop 1's recovery after `vms` restarts; index of the recover step's start. */
function sessionEvents(meta: SessionMeta, vms: number, totalVms: number): { events: SessionEvent[]; recoverStartedAt: number } {
  const entries: Entry[] = runbookEntries();
  const events: SessionEvent[] = [{ type: 'session.created', at: at(0), meta, entries }];
  const inventory = Array.from({ length: totalVms }, (_, i) => ({ vm: `${ns(i)}/${vmName(i)}`, node: `vmo-worker-${String(i % 497).padStart(3, '0')}`, phase: 'Running', launcher: 'v1.3.1' }));
  const outputs: Record<string, unknown> = {
    snapshot: { vms: inventory, nodes: 500, pods: 20_000 },
    plan: { hops: [{ index: 1, from: '4.4.10', to: '4.5.4' }, { index: 2, from: '4.5.4', to: '4.6.3' }], impact: inventory.map((v, i) => ({ vm: v.vm, node: v.node, fate: i % 50 === 37 ? 'restart' : 'live-migrate', reason: 'bench' })) },
  };
  let t = 1;
  const done = ['preflight', 'snapshot', 'plan', 'customize', 'hop1.draft-addon', 'hop1.draft-infra', 'hop1.publish', 'hop1.reconcile', 'hop1.migrations', 'hop1.diagnose'];
  for (const id of done) {
    events.push({ type: 'step.started', at: at(t++), id });
    events.push({ type: 'step.succeeded', at: at(t++), id, ...(outputs[id] ? { output: outputs[id] } : {}), summary: `${id} done` });
  }
  const recover = 'hop1.recover';
  const recoverStartedAt = events.length;
  events.push({ type: 'step.started', at: at(t++), id: recover });
  for (let i = 0; i < vms; i++) {
    const c = { vm: `${ns(i)}/${vmName(i)}`, namespace: ns(i), name: vmName(i), node: `vmo-worker-${String(i % 497).padStart(3, '0')}`, migratable: false, notMigratableReason: 'node-local disk', launcher: 'v1.3.1' };
    const k = restartKeys(recover, c.vm);
    const gate = restartGate(c, { key: k.gate, why: 'it cannot live-migrate (node-local disk)', confirmByName: false, restartWaitMs: 600_000, baseline: 'snapshot', position: { index: i + 1, total: vms } });
    const decision = { choice: 'approve' as const, by: 'operator' as const, at: at(t) };
    events.push({ type: 'step.awaiting', at: at(t++), id: recover, gate: { ...gate, key: k.gate } });
    events.push({ type: 'step.decided', at: at(t++), id: recover, key: k.gate, decision });
    events.push({ type: 'step.note', at: at(t++), id: recover, key: k.before, value: { uid: `uid-${i}`, created: at(0) } });
    events.push({ type: 'mutation.intent', at: at(t++), key: k.send, stepId: recover, request: restartRequest(c.namespace, c.name, 'kubectl'), dryRun: false, approval: { gateKey: k.gate, by: 'operator', at: decision.at } });
    events.push({ type: 'mutation.result', at: at(t++), key: k.send, outcome: 'sent' });
  }
  return { events, recoverStartedAt };
}

function snapshotFile(state: SessionState): string {
  const { log: _log, ...durable } = state;
  return JSON.stringify({ schema: SCHEMA_VERSION, seq: state.seq, state: { ...durable, log: [] } });
}

export async function runJournalBenchmark(root: string, opts: { events?: number; appendEvents?: number; runs?: number } = {}): Promise<JournalBenchResult> {
  const target = opts.events ?? 10_000;
  const runs = opts.runs ?? 5;
  const dir = mkdtempSync(join(root, 'journal-'));
  try {
    const meta: SessionMeta = {
      id: '20261122-040000-bench0',
      schema: SCHEMA_VERSION,
      createdAt: at(0),
      tool: 'upgrade-pilot bench',
      user: 'bench',
      host: 'localhost',
      mode: 'live',
      lab: true,
      runbook: { name: 'vmo-upgrade', title: 'VM orchestration pack upgrade', file: 'runbooks/vmo-upgrade.yaml', digest: 'bench' },
      cluster: { uid: 'c1', name: 'vmo-prod-east' },
    };
    const head = sessionEvents(meta, 0, 5000).events.length;
    const vms = Math.ceil((target - head) / 5);
    const { events, recoverStartedAt } = sessionEvents(meta, vms, 5000);
    const created = events[0] as Extract<SessionEvent, { type: 'session.created' }>;

    // Append: the records as the runner writes them, through the real store (fsync per record)
    const appendDir = join(dir, 'append');
    const store = new SessionStore(appendDir, new Redactor().add('not-in-any-record-0123456789'));
    const session = store.create(created);
    const appendCount = Math.min(opts.appendEvents ?? 2000, events.length - 1);
    const appendMs: number[] = [];
    for (let i = 1; i <= appendCount; i++) {
      const t0 = performance.now();
      session.append(events[i]!);
      appendMs.push(performance.now() - t0);
    }
    session.close();

    // Resume: journal of every record; snapshot as the runner left it when recovery started
    const resumeRoot = join(dir, 'resume');
    const resumeStore = new SessionStore(resumeRoot, new Redactor());
    resumeStore.create(created).close();
    const sessionDir = resumeStore.dirOf(meta.id);
    const lines: string[] = [];
    let state = initialState(created);
    state.seq = 1;
    let snapshot: { text: string; seq: number } | undefined;
    for (let i = 1; i < events.length; i++) {
      state = reduce(state, events[i]!);
      state.seq = i + 1;
      // Written as the runner does at the end of the step before recovery
      if (i === recoverStartedAt - 1) snapshot = { text: snapshotFile(state), seq: state.seq };
      lines.push(`${JSON.stringify({ seq: i + 1, event: events[i] })}\n`);
    }
    appendFileSync(join(sessionDir, 'journal.ndjson'), lines.join(''));
    writeFileSync(join(sessionDir, 'state.json'), snapshot!.text);
    const journalBytes = lines.reduce((n, l) => n + Buffer.byteLength(l), 0);
    const replayed = events.length - snapshot!.seq;

    const timeOpen = (s: SessionStore, id: string) => {
      const t0 = performance.now();
      const open = s.open(id);
      const ms = performance.now() - t0;
      if (open.state.seq !== events.length) throw new Error(`resume reached record ${open.state.seq}, not ${events.length}`);
      open.close();
      return ms;
    };
    timeOpen(resumeStore, meta.id);
    const resumeMs: number[] = [];
    for (let r = 0; r < runs; r++) resumeMs.push(timeOpen(resumeStore, meta.id));

    // Best case: a snapshot after the last record
    const lateRoot = join(dir, 'resume-late');
    cpSync(resumeRoot, lateRoot, { recursive: true });
    const lateStore = new SessionStore(lateRoot, new Redactor());
    writeFileSync(join(lateStore.dirOf(meta.id), 'state.json'), snapshotFile(state));
    timeOpen(lateStore, meta.id);
    const resumeFromSnapshotMs: number[] = [];
    for (let r = 0; r < runs; r++) resumeFromSnapshotMs.push(timeOpen(lateStore, meta.id));

    return { events: events.length, vmsRestarted: vms, journalBytes, appendMs, resumeMs, replayed, resumeFromSnapshotMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
