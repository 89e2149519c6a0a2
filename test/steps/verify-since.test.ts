import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/engine/clock.js';
import { initialState } from '../../src/engine/reducer.js';
import type { SessionState } from '../../src/engine/state.js';
import { parseSince } from '../../src/steps/verify/since.js';
import { resolveSince, type SessionSource } from '../../src/steps/verify/verify-since.js';
import { created, meta, step } from '../support/state-fixtures.js';

const NOW = Date.parse('2026-03-11T16:00:00Z');
const clock: Clock = { now: () => NOW, sleep: async () => undefined };
/** The lab's clock: six hours ahead of the wall, running 60 times as fast. */
const labClock: Clock = {
  now: () => NOW + 6 * 3_600_000,
  sleep: async () => undefined,
  simulated: { label: 'lab time', speed: () => 60, toWall: (t) => t - 6 * 3_600_000, fromWall: (w) => w + 6 * 3_600_000 },
};

function session(id: string, opts: { uid?: string; mode?: 'live' | 'rehearsal'; createdAt: string; snapshotAt?: string }): SessionState {
  const state = initialState(created([]));
  state.meta = { ...meta, id, createdAt: opts.createdAt, mode: opts.mode ?? 'live', cluster: { uid: opts.uid ?? 'c1' } };
  if (opts.snapshotAt) state.entries = [step('snapshot', { kind: 'snapshot', status: 'succeeded', output: { takenAt: opts.snapshotAt } })];
  return state;
}

/** Sessions as a store gives them; `loaded` lists the ones replayed whole. A damaged one has no readable first record. */
const store = (...sessions: Array<SessionState | 'damaged'>): SessionSource & { loaded: string[] } => {
  const find = (id: string) => sessions.find((x): x is SessionState => x !== 'damaged' && x.meta.id === id);
  const loaded: string[] = [];
  return {
    loaded,
    ids: () => sessions.map((s, i) => (s === 'damaged' ? `s${i}-damaged` : s.meta.id)),
    createdMeta: (id) => find(id)?.meta,
    load: (id) => {
      loaded.push(id);
      const s = find(id);
      if (!s) throw new Error('damaged');
      return s;
    },
  };
};

describe('verify --since', () => {
  it.each<[string, string, number | undefined]>([
    ['an RFC 3339 time in UTC', '2026-03-11T14:00:00Z', Date.parse('2026-03-11T14:00:00Z')],
    ['with an offset and fractions', '2026-03-11T15:00:00.5+01:00', Date.parse('2026-03-11T14:00:00.5Z')],
    ['a bare date is not a time', '2026-03-11', undefined],
    ['a time without a zone is ambiguous', '2026-03-11T14:00:00', undefined],
    ['words', 'yesterday', undefined],
  ])('%s', (_what, text, at) => {
    const parsed = parseSince(text);
    expect(parsed?.kind === 'time' ? parsed.at : undefined).toBe(at);
  });

  it.each<[string, number | undefined]>([
    ['2h', 2 * 3_600_000],
    ['90m', 90 * 60_000],
    ['1d12h', 36 * 3_600_000],
    ['7d', 7 * 86_400_000],
    ['45s', 45_000],
    ['2h 30m', undefined],
    ['-2h', undefined],
    ['0m', undefined],
    ['2w', undefined],
  ])('the duration %s', (text, ms) => {
    const parsed = parseSince(text);
    expect(parsed?.kind === 'ago' ? parsed.ms : undefined).toBe(ms);
  });

  it('a duration counts back from the cluster clock, and the source says so', () => {
    expect(resolveSince({ arg: parseSince('2h'), clusterUid: 'c1', clock })).toEqual({ at: NOW - 2 * 3_600_000, source: '--since 2h (2026-03-11T14:00:00Z)' });
    expect(resolveSince({ arg: parseSince('2h'), clusterUid: 'c1', clock: labClock }).source).toBe('--since 2h (2026-03-11T20:00:00Z, lab time)');
  });

  it('an absolute time is a wall time, read on the lab clock against the lab', () => {
    expect(resolveSince({ arg: parseSince('2026-03-11T14:00:00Z'), clusterUid: 'c1', clock: labClock }).at).toBe(Date.parse('2026-03-11T20:00:00Z'));
  });

  it('defaults to the latest real session on this cluster: its snapshot, else its creation', () => {
    const sessions = store(
      session('20260301-a', { createdAt: '2026-03-01T09:00:00Z', snapshotAt: '2026-03-01T09:00:05Z' }),
      session('20260310-b', { createdAt: '2026-03-10T09:00:00Z', snapshotAt: '2026-03-10T09:00:07Z' }),
      session('20260311-c', { createdAt: '2026-03-11T08:00:00Z', mode: 'rehearsal' }),
      session('20260311-d', { createdAt: '2026-03-11T09:00:00Z', uid: 'another-cluster' }),
      'damaged',
    );
    expect(resolveSince({ store: sessions, clusterUid: 'c1', clock })).toEqual({ at: Date.parse('2026-03-10T09:00:07Z'), source: 'the start of session 20260310-b, the latest on this cluster (2026-03-10T09:00:07Z)' });
    // The rehearsal and the other cluster's session are passed over by their first record; the damaged one is tried whole.
    expect(sessions.loaded).toEqual(['s4-damaged', '20260310-b']);
    const noSnapshot = store(session('20260310-b', { createdAt: '2026-03-10T09:00:00Z' }));
    expect(resolveSince({ store: noSnapshot, clusterUid: 'c1', clock: labClock }).at).toBe(Date.parse('2026-03-10T15:00:00Z'));
  });

  it('without a session, no start: every failure is the past, and the source says how to give one', () => {
    const r = resolveSince({ store: store(session('x', { createdAt: '2026-03-10T09:00:00Z', uid: 'other' })), clusterUid: 'c1', clock });
    expect(r.at).toBeUndefined();
    expect(r.source).toMatch(/no session on this cluster in the state dir: every recorded failure is listed with its age \(pass --since TIME/);
  });
});

describe("a session's first record, read alone", () => {
  it('gives the meta of a real journal without replaying it, and nothing for a journal whose first line is not a creation', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { SessionStore } = await import('../../src/session/store.js');
    const { Redactor } = await import('../../src/session/redact.js');
    const dir = mkdtempSync(join(tmpdir(), 'up-first-record-'));
    const first = created([]);
    // A first line longer than one read (64 KiB), then a second record that is not JSON at all: only the first is read.
    const long = { ...first, meta: { ...first.meta, id: '20260311-a', cluster: { uid: 'c1', name: 'x'.repeat(100_000) } } };
    mkdirSync(join(dir, 'sessions', '20260311-a'), { recursive: true });
    writeFileSync(join(dir, 'sessions', '20260311-a', 'journal.ndjson'), `${JSON.stringify({ seq: 1, event: long })}\n{not json\n`);
    mkdirSync(join(dir, 'sessions', '20260311-b'), { recursive: true });
    writeFileSync(join(dir, 'sessions', '20260311-b', 'journal.ndjson'), `${JSON.stringify({ seq: 1, event: { type: 'step.started', at: 'x', id: 'a' } })}\n`);
    const s = new SessionStore(dir, new Redactor());
    expect(s.createdMeta('20260311-a')?.cluster.uid).toBe('c1');
    expect(s.createdMeta('20260311-a')?.cluster.name).toHaveLength(100_000);
    expect(s.createdMeta('20260311-b')).toBeUndefined();
  });
});
