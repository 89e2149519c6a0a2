/**
 * The full `healthy` upgrade through the real CLI against a served lab: start it, resume it, kill it
 * at chosen journal records (crash-preload.mjs) or at random times, and check what the lab saw.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { parse } from 'yaml';
import type { SessionEvent, SessionState } from '../../../src/engine/state.js';
import { readJournal } from '../../../src/session/journal.js';
import { Redactor } from '../../../src/session/redact.js';
import { SessionStore } from '../../../src/session/store.js';
import { APPROVE_ALL, runTool, serveLab, sessionIds, spawnTool, STACK_TRACE, tempDir, type AuditEntry, type ServedLab, type ToolResult } from './processes.js';

export const startArgs = (lab: ServedLab, stateDir: string, extra: string[] = []): string[] => [
  'start',
  '--params',
  lab.json.params,
  '--non-interactive',
  ...APPROVE_ALL,
  '--state-dir',
  stateDir,
  ...extra,
];
export const resumeArgs = (stateDir: string, id?: string): string[] => ['resume', ...(id ? [id] : []), '--non-interactive', ...APPROVE_ALL, '--state-dir', stateDir];
export const keyEnv = (lab: ServedLab): NodeJS.ProcessEnv => ({ UPGRADE_PILOT_API_KEY: lab.json.apiKey });

/** `type|step id (or group)|key`: the same signature the crash preload computes. */
export function signature(e: SessionEvent): string {
  const subject = 'id' in e ? e.id : 'stepId' in e ? e.stepId : 'group' in e ? e.group : '';
  // A key that numbers the step's attempt (`verify/review/2.1`: a resumed verification asks again)
  // is the same journal point in any attempt; crash-preload.mjs names it the same way.
  const key = 'key' in e && e.key ? e.key.replace(/\/review\/\d+\./, '/review/*.') : '';
  return [e.type, subject, key].join('|');
}

export function journalOf(stateDir: string, id: string): SessionEvent[] {
  return readJournal(join(stateDir, 'sessions', id, 'journal.ndjson')).records.map((r) => r.event);
}

/** Loads a session the way `resume` does (snapshot + journal tail); throws if it cannot. */
export function loadSession(stateDir: string, id: string): SessionState {
  return new SessionStore(stateDir, new Redactor()).load(id);
}

/**
 * What the lab must have applied for a whole `healthy` upgrade, in order: per hop the two drafts,
 * the two publishes, then the restart of the one VM that cannot live-migrate (the scenario's
 * summary names it). Built from the lab's own params file with the reference profiles (their
 * labels are the ones each hop publishes), not from what the tool recorded.
 */
export function expectedHealthyMutations(lab: ServedLab): string[] {
  const params = parse(readFileSync(lab.json.paramsWithReferences, 'utf8')) as {
    profiles: { addon: { uid: string; name: string }; infra: { uid: string; name: string } };
    references: Array<{ version: string; labels: { addon: string; infra: string } }>;
  };
  const { addon, infra } = params.profiles;
  const restart = 'PUT /apis/subresources.kubevirt.io/v1/namespaces/ns-packs/virtualmachines/build-cache-01/restart restart virtualmachines ns-packs/build-cache-01';
  // references[0] is what is deployed (4.4.10); each later one is a hop.
  return params.references.slice(1).flatMap((ref) => [
    `PUT /v1/clusterprofiles/${infra.uid} draft ${infra.name} ${ref.labels.infra}`,
    `PUT /v1/clusterprofiles/${addon.uid} draft ${addon.name} ${ref.labels.addon}`,
    `PATCH /v1/clusterprofiles/${infra.uid}/publish publish ${infra.name} ${ref.labels.infra}`,
    `PATCH /v1/clusterprofiles/${addon.uid}/publish publish ${addon.name} ${ref.labels.addon}`,
    restart,
  ]);
}

/**
 * What the lab must have applied for a whole upgrade in the palette flavor, in order, with uids
 * named (`<vmo-infra@1.5.0>`, `<cluster>`; see `namedUids`): per hop and profile one clone of the
 * version the cluster ran, one PUT on the clone and one publish of it; per hop one apply with
 * replaceWithProfile, and the repave approval when the hop rebuilds nodes; then the restart of the
 * one VM that cannot live-migrate. `deployed` is the index in references[] of what runs at start.
 */
export function expectedPaletteMutations(lab: ServedLab, opts: { deployed: number; repave?: boolean }): string[] {
  // The same site with its reference profiles: their labels are the versions each hop writes.
  const params = parse(readFileSync(lab.json.paramsWithReferences, 'utf8')) as {
    profiles: { addon: { name: string }; infra: { name: string } };
    references: Array<{ version: string; labels: { addon: string; infra: string } }>;
  };
  const { addon, infra } = params.profiles;
  const restart = 'PUT /apis/subresources.kubevirt.io/v1/namespaces/ns-packs/virtualmachines/build-cache-01/restart restart virtualmachines ns-packs/build-cache-01';
  const refs = params.references;
  return refs.slice(opts.deployed + 1).flatMap((ref, i) => {
    const prev = refs[opts.deployed + i]!.labels;
    const clone = (name: string, from: string, to: string) => [
      `POST /v1/clusterprofiles/<${name}@${from}>/clone clone ${name} ${from} to ${name} ${to} (<${name}@${to}>)`,
      `PUT /v1/clusterprofiles/<${name}@${to}> draft ${name} ${to}`,
    ];
    return [
      ...clone(infra.name, prev.infra, ref.labels.infra),
      ...clone(addon.name, prev.addon, ref.labels.addon),
      `PATCH /v1/clusterprofiles/<${infra.name}@${ref.labels.infra}>/publish publish ${infra.name} ${ref.labels.infra}`,
      `PATCH /v1/clusterprofiles/<${addon.name}@${ref.labels.addon}>/publish publish ${addon.name} ${ref.labels.addon}`,
      `PATCH /v1/spectroclusters/<cluster>/profiles apply: ${infra.name} ${ref.labels.infra} replaces ${prev.infra} (<${infra.name}@${prev.infra}>); ${addon.name} ${ref.labels.addon} replaces ${prev.addon} (<${addon.name}@${prev.addon}>)`,
      ...(opts.repave ? ['PATCH /v1/spectroclusters/<cluster>/repave/approve repave approved: a node-level pack changes: every node is rebuilt with the new image'] : []),
      restart,
    ];
  });
}

/** Replaces the lab's uids in `lines` by names: `<name@version>` for a profile version, `<cluster>` for the cluster. */
export async function namedUids(lab: ServedLab, lines: string[]): Promise<string[]> {
  // Each flavor's own list: the spec's, or a real Palette's dashboard metadata (it has no GET /v1/clusterprofiles).
  const path = lab.json.flavor === 'palette' ? '/v1/dashboard/clusterprofiles/metadata' : '/v1/clusterprofiles';
  const list = await lab.call<{ items: Array<{ metadata: { name: string; uid: string }; spec: { version: string } }> }>('GET', path);
  const names = new Map(list.items.map((i) => [i.metadata.uid, `<${i.metadata.name}@${i.spec.version}>`]));
  names.set(lab.json.clusterUid, '<cluster>');
  return lines.map((l) => l.replace(/\b[0-9a-f]{24}\b/g, (uid) => names.get(uid) ?? uid));
}

/** The mutations the lab applied, in order, as `METHOD path note`. */
export const appliedMutations = (audit: AuditEntry[]): string[] => audit.filter((e) => e.effect === 'applied').map((e) => `${e.method} ${e.path} ${e.note ?? ''}`);

/** Names each applied mutation seen more than once (the duplicates the issue counts; must be none). */
export function duplicates(applied: string[]): string[] {
  const seen = new Map<string, number>();
  for (const a of applied) seen.set(a, (seen.get(a) ?? 0) + 1);
  // The restart of the same VM legitimately happens once per hop (two publishes per hop).
  const hops = applied.filter((a) => /^PATCH \S+\/publish /.test(a)).length / 2;
  return [...seen].filter(([a, n]) => n > (a.includes('/restart ') ? Math.max(1, hops) : 1)).map(([a, n]) => `${a} x${n}`);
}

export interface Kill {
  run: number;
  signature?: string;
  seq?: number;
  mode: string;
  /** Records in the journal after the kill, and whether its last line was torn. */
  records: number;
  torn: boolean;
}

export interface ChainResult {
  stateDir: string;
  id: string;
  kills: Kill[];
  /** Targets no run ever wrote (the resumed path never produces them). */
  unreached: string[];
  runs: ToolResult[];
  final: ToolResult;
  state: SessionState;
}

function checkLoads(stateDir: string, id: string, run: number, mode: string, extra: Partial<Kill> = {}): Kill {
  const file = join(stateDir, 'sessions', id, 'journal.ndjson');
  const journal = readJournal(file);
  let state: SessionState;
  try {
    state = loadSession(stateDir, id);
  } catch (err) {
    throw new Error(`after kill ${run} (${extra.signature ?? mode}) the session does not load: ${String(err)}`);
  }
  if (state.seq !== journal.records.length) throw new Error(`after kill ${run} the session loads to record ${state.seq} but the journal holds ${journal.records.length}`);
  return { run, mode, records: journal.records.length, torn: journal.torn, ...extra };
}

function explain(r: ToolResult): string {
  return `exit ${r.code} signal ${r.signal} after ${r.ms} ms\n--- stdout (tail)\n${r.stdout.slice(-3000)}\n--- stderr\n${r.stderr.slice(-3000)}`;
}

/**
 * One session, many crashes: the first run starts the upgrade, each later one resumes it; every run
 * is killed at the first journal record it writes that matches a target not yet covered. Once every
 * target is covered (or a run finishes by itself), resume runs without a kill until done.
 */
export async function crashChain(
  lab: ServedLab,
  targets: string[],
  opts: { modes?: Record<string, 'after' | 'torn'>; maxRuns?: number; onKill?: (k: Kill) => void } = {},
): Promise<ChainResult> {
  const stateDir = tempDir('chain-state');
  const reports = tempDir('chain-reports'); // outside the state folder, which the tests inspect
  let remaining = [...targets];
  const kills: Kill[] = [];
  const runs: ToolResult[] = [];
  let id: string | undefined;
  let finished: ToolResult | undefined;
  for (let run = 1; remaining.length > 0; run++) {
    if (run > (opts.maxRuns ?? targets.length + 10)) throw new Error(`the chain did not cover ${remaining.join(', ')} in ${run - 1} runs`);
    const report = join(reports, `kill-${run}.json`);
    const args = id ? resumeArgs(stateDir, id) : startArgs(lab, stateDir);
    const r = await runTool(args, { env: keyEnv(lab), crash: { targets: remaining, mode: 'after', ...(opts.modes ? { modes: opts.modes } : {}), report }, timeoutMs: 180_000 });
    runs.push(r);
    id ??= sessionIds(stateDir)[0];
    if (r.signal === 'SIGKILL' && existsSync(report)) {
      const hit = JSON.parse(readFileSync(report, 'utf8')) as { signature: string; seq: number; mode: string };
      rmSync(report);
      const kill = checkLoads(stateDir, id!, run, hit.mode, { signature: hit.signature, seq: hit.seq });
      kills.push(kill);
      opts.onKill?.(kill);
      remaining = remaining.slice(remaining.indexOf(hit.signature) + 1);
      continue;
    }
    if (r.code === 0) {
      finished = r;
      break;
    }
    throw new Error(`run ${run} of the crash chain ended unexpectedly: ${explain(r)}`);
  }
  if (!id) throw new Error('no session was created');
  finished ??= await resumeUntilDone(lab, stateDir, id, runs);
  const state = loadSession(stateDir, id);
  return { stateDir, id, kills, unreached: remaining, runs, final: finished, state };
}

/** Resumes (with the same approvals) until a run exits 0; any other end than 0 fails the test. */
export async function resumeUntilDone(lab: ServedLab, stateDir: string, id: string, runs: ToolResult[] = [], maxRuns = 3): Promise<ToolResult> {
  for (let i = 0; i < maxRuns; i++) {
    const r = await runTool(resumeArgs(stateDir, id), { env: keyEnv(lab), timeoutMs: 180_000 });
    runs.push(r);
    if (r.code === 0) return r;
    throw new Error(`resume after the crashes did not finish: ${explain(r)}`);
  }
  throw new Error('unreachable');
}

/** Deterministic pseudo-random numbers (mulberry32), so a failing random-kill run can be replayed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * One session killed from outside (SIGKILL) at random moments: each run lives a random time in
 * [minMs, maxMs], then the next one resumes, until a run finishes by itself.
 */
export async function randomKillChain(lab: ServedLab, seed: number, opts: { minMs: number; maxMs: number; maxKills: number }): Promise<ChainResult & { delays: number[] }> {
  const random = seeded(seed);
  const stateDir = tempDir('random-state');
  const kills: Kill[] = [];
  const runs: ToolResult[] = [];
  const delays: number[] = [];
  let id: string | undefined;
  let finished: ToolResult | undefined;
  for (let run = 1; run <= opts.maxKills + 1; run++) {
    const args = id ? resumeArgs(stateDir, id) : startArgs(lab, stateDir);
    const tool = spawnTool(args, { env: keyEnv(lab), timeoutMs: 180_000 });
    // The last run is never killed, so the chain always ends.
    const delay = run <= opts.maxKills ? Math.round(opts.minMs + random() * (opts.maxMs - opts.minMs)) : undefined;
    const timer = delay === undefined ? undefined : setTimeout(() => tool.proc.kill('SIGKILL'), delay);
    const r = await tool.done;
    clearTimeout(timer);
    runs.push(r);
    id ??= sessionIds(stateDir).at(-1);
    if (r.signal === 'SIGKILL') {
      delays.push(delay!);
      if (id && readJournal(join(stateDir, 'sessions', id, 'journal.ndjson')).records.length === 0) {
        // Killed while the session was being created: it never existed; the operator starts again.
        kills.push({ run, mode: `random ${delay} ms (before the first record)`, records: 0, torn: true });
        id = undefined;
        continue;
      }
      if (id) kills.push(checkLoads(stateDir, id, run, `random ${delay} ms`));
      continue;
    }
    if (r.code === 0) {
      finished = r;
      break;
    }
    throw new Error(`run ${run} (seed ${seed}) ended unexpectedly: ${explain(r)}`);
  }
  if (!id || !finished) throw new Error(`the random-kill chain (seed ${seed}) did not finish`);
  return { stateDir, id, kills, unreached: [], runs, final: finished, state: loadSession(stateDir, id), delays };
}

export interface Stop {
  code: number | null;
  /** The first line of the error the run stopped with. */
  error: string;
}

/**
 * Starts the upgrade and resumes it (same approvals) until a run exits 0. A run that stops must do
 * so cleanly: exit 4 (environment) or 1 (a step failed), an `error:` line with a `what to do:` line,
 * the resume command, and no stack trace. Returns every stop, for the test to judge.
 */
export async function upgradeUntilDone(lab: ServedLab, stateDir: string, opts: { maxRuns?: number; extraStart?: string[]; timeoutMs?: number } = {}): Promise<{ stops: Stop[]; runs: ToolResult[]; id: string }> {
  const runs: ToolResult[] = [];
  const stops: Stop[] = [];
  for (let run = 1; run <= (opts.maxRuns ?? 25); run++) {
    const id = sessionIds(stateDir).at(-1);
    const r = await runTool(id ? resumeArgs(stateDir, id) : startArgs(lab, stateDir, opts.extraStart), { env: keyEnv(lab), timeoutMs: opts.timeoutMs ?? 180_000 });
    runs.push(r);
    if (r.code === 0) return { stops, runs, id: sessionIds(stateDir).at(-1)! };
    const clean = (r.code === 4 || r.code === 1) && /^error: .+\n {2}what to do: .+\n {2}the session is saved: upgrade-pilot resume \S+/m.test(r.stderr) && !STACK_TRACE.test(r.stderr);
    if (!clean) throw new Error(`run ${run} did not stop cleanly: ${explain(r)}`);
    stops.push({ code: r.code, error: /^error: (.*)$/m.exec(r.stderr)![1]! });
  }
  throw new Error(`the upgrade did not finish in ${opts.maxRuns ?? 25} runs`);
}

/** What a crash matrix counts, printed at its end. */
export interface MatrixFigures {
  points: number;
  afterKills: number;
  tornKills: number;
  randomKills: number;
  duplicates: number;
  sessions: number;
}

export const noFigures = (): MatrixFigures => ({ points: 0, afterKills: 0, tornKills: 0, randomKills: 0, duplicates: 0, sessions: 0 });

/** A lab in its own process for the length of `run`. */
export async function withServedLab<T>(opts: Parameters<typeof serveLab>[0], run: (lab: ServedLab) => Promise<T>): Promise<T> {
  const lab = await serveLab(opts);
  try {
    return await run(lab);
  } finally {
    await lab.stop();
  }
}

/**
 * A chain of kills and resumes ended complete: exit 0, the session done, no change applied twice,
 * and exactly `expected` applied (the audit lines passed through `name` first, e.g. `namedUids`).
 */
export async function expectComplete(lab: ServedLab, chain: ChainResult, figures: MatrixFigures, expected: string[], name: (lines: string[]) => Promise<string[]> = async (l) => l): Promise<void> {
  expect(chain.final.code, chain.final.stderr).toBe(0);
  expect(chain.state.run.status).toBe('done');
  const applied = appliedMutations(await lab.audit());
  const dups = duplicates(applied);
  figures.duplicates += dups.length;
  figures.sessions += 1;
  expect(dups).toEqual([]);
  expect(await name(applied)).toEqual(expected);
}

/**
 * SIGKILL right after every record of `reference`: alternate points go to two chains run at once
 * (each on its own lab from `onLab`), so in each chain the record before a kill point was written by
 * the same process in its normal course. Every point must be reached; each chain is `check`ed.
 */
export async function killAfterEveryRecord(reference: string[], onLab: <T>(run: (lab: ServedLab) => Promise<T>) => Promise<T>, check: (lab: ServedLab, chain: ChainResult) => Promise<void>, figures: MatrixFigures): Promise<void> {
  const halves = [reference.filter((_, i) => i % 2 === 0), reference.filter((_, i) => i % 2 === 1)];
  const chains = await Promise.all(
    halves.map((targets) =>
      onLab(async (lab) => {
        const chain = await crashChain(lab, targets);
        await check(lab, chain);
        return chain;
      }),
    ),
  );
  const killed = chains.flatMap((c) => c.kills.map((k) => k.signature));
  figures.afterKills = killed.length;
  expect(chains.flatMap((c) => c.unreached)).toEqual([]);
  expect([...killed].sort()).toEqual([...reference].sort());
}
