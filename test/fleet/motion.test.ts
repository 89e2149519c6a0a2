/**
 * Where a cluster's session stands against what it sent (motion.ts), as tables of session states:
 * before its apply nothing moves; past it the hop is in motion until its watch steps have run; a
 * halting fleet carries exactly the rest of that hop (and, past the last hop, verification and the
 * report), never a new hop or a cluster that applied nothing.
 */
import { describe, expect, it } from 'vitest';
import type { Entry, GroupPlaceholder } from '../../src/engine/state.js';
import { carries, motionOf, waitingFlags } from '../../src/fleet/motion.js';
import { after, before, hopSteps, P, S, sessionState, step } from './session-fixture.js';

const state = sessionState;
const placeholder: GroupPlaceholder = { id: 'hop', group: true, title: 'hops', forEach: 'hops', steps: [], ifEmpty: [] };

describe('motionOf and carries', () => {
  it.each<[string, Entry[], { motion: ReturnType<typeof motionOf> | undefined; next: string; carried: boolean }]>([
    ['hops not planned yet: nothing moves, nothing carried', [...before, placeholder, ...after], { motion: undefined, next: 'hop', carried: false }],
    ['drafted and published, not applied: nothing moves, the apply is not carried', [...before, ...hopSteps(1, 1, [S, S, P]), ...after], { motion: undefined, next: 'hop1.apply', carried: false }],
    ['applied: the hop is in motion, its reconcile is carried', [...before, ...hopSteps(1, 1, [S, S, S, S]), ...after], { motion: { hop: 1, of: 1, versions: '4.4.0 → 4.5.0', appliedAt: '2026-12-02T01:00:00.000Z', settled: false, rolling: true }, next: 'hop1.reconcile', carried: true }],
    ['the restarts of the applied hop are carried; its rollout is watched already', [...before, ...hopSteps(1, 1, [S, S, S, S, S, S, P]), ...after], { motion: { hop: 1, of: 1, versions: '4.4.0 → 4.5.0', appliedAt: '2026-12-02T01:00:00.000Z', settled: false, rolling: false }, next: 'hop1.recover', carried: true }],
    ['the last hop settled: verification is carried', [...before, ...hopSteps(1, 1, [S, S, S, S, S, S, S]), ...after], { motion: { hop: 1, of: 1, versions: '4.4.0 → 4.5.0', appliedAt: '2026-12-02T01:00:00.000Z', settled: true, rolling: false }, next: 'verify', carried: true }],
    ['hop 1 of 2 settled: hop 2 is a new change, not carried', [...before, ...hopSteps(1, 2, [S, S, S, S, S, S, S]), ...hopSteps(2, 2, []), ...after], { motion: { hop: 1, of: 2, versions: '4.4.0 → 4.5.0', appliedAt: '2026-12-02T01:00:00.000Z', settled: true, rolling: false }, next: 'hop2.draft', carried: false }],
    ['a rehearsal sends nothing: nothing moves', [...before, ...hopSteps(1, 1, [S, S, S, S]), ...after], { motion: undefined, next: 'hop1.reconcile', carried: false }],
  ])('%s', (name, entries, want) => {
    const s = state(entries, name.startsWith('a rehearsal') ? { meta: { ...state([]).meta, mode: 'rehearsal' } } : {});
    expect(motionOf(s)).toEqual(want.motion);
    const next = entries.find((e) => e.id === want.next)!;
    expect(carries(s, next)).toBe(want.carried);
  });

  it('an apply sent and not read back (a crash in it) counts as applied', () => {
    const entries = [...before, ...hopSteps(1, 1, [S, S, 'running'])];
    const s = state(entries, { mutations: { k: { key: 'k', stepId: 'hop1.apply' } as never } });
    expect(motionOf(s)).toMatchObject({ hop: 1, settled: false });
  });

  it("the spec's service: a publish reaches the cluster by itself, so the rest of its hop is carried", () => {
    const spec = [step('preflight', 'preflight', 'succeeded', { output: { flavor: { flavor: 'spec' } } })];
    const entries = [...spec, ...hopSteps(1, 1, [S, 'succeeded', 'pending']).map((s) => (s.kind === 'publish' ? { ...s, output: { confirmed: 'published' } } : s))];
    const s = state(entries);
    expect(motionOf(s)).toMatchObject({ hop: 1, settled: false });
    expect(carries(s, entries.find((e) => e.id === 'hop1.apply')!)).toBe(true);
  });

  it('the flags that answer the gates a plain session stopped at', () => {
    const gate = { gate: 'restart', key: 'k', title: 't', lines: ['Restart VM ns-packs/build-cache-01  (--approve-restart ns-packs/build-cache-01)', 'Restart VM vms/db-1  (--approve-restart vms/db-1)'], options: [], safeChoice: 'abort' as const };
    expect(waitingFlags(state([...before, step('hop1.recover', 'recover', 'awaitingApproval', { gate })]))).toEqual(['--approve-restart ns-packs/build-cache-01', '--approve-restart vms/db-1']);
  });
});
