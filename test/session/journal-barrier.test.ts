/**
 * The session journal in barrier mode: every record is written before `append` returns (a process
 * that dies keeps it), reaches the disk on the thread pool without stopping the process, and a
 * session sends a change only once its intent is on disk (the runner awaits `durable()`).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { noApprovals } from '../../src/engine/approval-policy.js';
import { parseRunbook } from '../../src/steps/runbook-load.js';
import { Runner, type JournalSink } from '../../src/engine/runner.js';
import { JournalWriter, readJournal } from '../../src/session/journal.js';
import { Redactor } from '../../src/session/redact.js';
import { SessionStore } from '../../src/session/store.js';
import { policyConfirm } from '../support/engine-harness.js';
import { fakeEffects, fakeWorld } from '../support/fake-effects.js';
import { createTestSession } from '../support/session-harness.js';
import { testSteps } from '../support/test-steps.js';
import { until } from '../support/wait.js';

const record = (seq: number) => ({ seq, event: { type: 'step.started' as const, at: '2026-12-02T00:00:00.000Z', id: `s${seq}` } });

describe('JournalWriter in barrier mode', () => {
  it('writes each record before append returns, and says when they are all on disk', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'up-journal-')), 'journal.ndjson');
    const w = new JournalWriter(file, 0, 'barrier');
    for (let i = 1; i <= 50; i++) {
      w.append(record(i));
      // Readable at once: a process that dies here keeps it.
      if (i % 10 === 0) expect(readJournal(file).records.length).toBe(i);
    }
    await w.durable();
    w.append(record(51));
    const durable = w.durable();
    w.close();
    await durable;
    expect(readJournal(file).records.map((r) => r.seq)).toEqual(Array.from({ length: 51 }, (_, i) => i + 1));
    expect(readFileSync(file, 'utf8').endsWith('\n')).toBe(true);
  });
});

describe('a change is sent only once its intent is on disk', () => {
  it('the runner awaits the journal before the send', async () => {
    const store = new SessionStore(mkdtempSync(join(tmpdir(), 'up-barrier-')), new Redactor());
    const registry = testSteps();
    const { runbook } = parseRunbook('apiVersion: upgrade-pilot/v1\nkind: Runbook\nmetadata: { name: t, title: T }\nsteps:\n  - { id: put, kind: gated-write, title: Put }\n', '/t.yaml', undefined, registry);
    const id = createTestSession(store, runbook, registry, 'barrier');
    const session = store.open(id);
    const world = fakeWorld();
    let release: () => void = () => undefined;
    const onDisk = new Promise<void>((r) => (release = r));
    const order: string[] = [];
    const journal: JournalSink = {
      append: (e) => {
        if (e.type === 'mutation.intent') order.push('intent written');
        return session.append(e);
      },
      snapshot: (s) => session.snapshot(s),
      writeFile: (n, t) => session.writeFile(n, t),
      durable: async () => {
        order.push('durable asked');
        await onDisk;
        await session.durable();
        order.push('on disk');
      },
    };
    const effects = fakeEffects(world, policyConfirm({ ...noApprovals, gates: ['draft'] }));
    const palette = effects.palette as unknown as { execute: (...a: unknown[]) => Promise<unknown> };
    const execute = palette.execute.bind(palette);
    palette.execute = (...a: unknown[]) => (order.push('sent'), execute(...a));
    const run = new Runner({ state: session.state, registry, runbook, site: undefined, effects, journal, dryRun: false, signal: new AbortController().signal }).run();
    await until('the runner to ask for the journal on disk', () => order.includes('durable asked'));
    // Held until then: nothing sent.
    expect(order).toEqual(['intent written', 'durable asked']);
    release();
    expect((await run).status).toBe('done');
    session.close();
    expect(order).toEqual(['intent written', 'durable asked', 'on disk', 'sent']);
  });
});
