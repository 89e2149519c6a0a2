/**
 * A hand-edited or damaged session: a journal line that is not a record, a result for a mutation
 * that has no intent, an event type nobody wrote, a garbage snapshot or lock, a state folder that
 * cannot hold files. Loading says which line and what to do (exit 2); `sessions` lists the damaged
 * one as damaged and the others as they are.
 */
import { appendFileSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError, PilotError } from '../../src/errors.js';
import { listSessions } from '../../src/commands/sessions.js';
import { Redactor } from '../../src/session/redact.js';
import { SessionStore } from '../../src/session/store.js';
import { at, created, meta, step } from '../support/state-fixtures.js';

function sessionWith(stateDir: string, id: string): string {
  const store = new SessionStore(stateDir, new Redactor());
  const s = store.create({ ...created([step('a')]), meta: { ...meta, id } });
  s.append({ type: 'step.started', at: at(1), id: 'a' });
  s.append({ type: 'mutation.intent', at: at(2), key: 'a/put', stepId: 'a', request: { target: 'palette', method: 'PUT', path: '/v1/clusterprofiles/x', summary: 'write' }, dryRun: false });
  s.append({ type: 'mutation.result', at: at(3), key: 'a/put', outcome: 'sent' });
  s.close();
  return join(s.dir, 'journal.ndjson');
}

const damages: Array<[string, (journal: string) => void, RegExp]> = [
  ['a line that is a number', (j) => appendFileSync(j, '42\n'), /at line 5: the line is not a journal record/],
  ['a line that is a list', (j) => appendFileSync(j, '[1,2]\n'), /at line 5: the line is not a journal record/],
  ['a line that is null', (j) => appendFileSync(j, 'null\n'), /at line 5: the line is not a journal record/],
  ['a record without an event', (j) => appendFileSync(j, '{"seq":5}\n'), /at line 5: the line is not a journal record/],
  ['a line that is not JSON, with records after it', (j) => appendFileSync(j, 'garbage\n{"seq":6,"event":{"type":"session.done","at":"x"}}\n'), /at line 5: the line is not JSON/],
  ['a result for a mutation that has no intent', (j) => appendFileSync(j, `${JSON.stringify({ seq: 5, event: { type: 'mutation.result', at: at(4), key: 'nope/publish', outcome: 'sent' } })}\n`), /at line 5: Illegal mutation\.result.*no intent for mutation nope\/publish/],
  ['an unknown event type', (j) => appendFileSync(j, `${JSON.stringify({ seq: 5, event: { type: 'step.teleported', at: at(4), id: 'a' } })}\n`), /at line 5: Illegal step\.teleported for a: unknown event type "step\.teleported"/],
  ['an event for a step that does not exist', (j) => appendFileSync(j, `${JSON.stringify({ seq: 5, event: { type: 'step.succeeded', at: at(4), id: 'ghost' } })}\n`), /at line 5: Illegal step\.succeeded for ghost: no such step/],
  ['an event with its fields missing', (j) => appendFileSync(j, `${JSON.stringify({ seq: 5, event: { type: 'group.expanded', at: at(4) } })}\n`), /at line 5: /],
  ['a second session.created', (j) => appendFileSync(j, `${readFileSync(j, 'utf8').split('\n')[0]!.replace('"seq":1', '"seq":5')}\n`), /at line 5: a second session\.created record/],
];

describe('a damaged journal: exit 2, the line, what to do', () => {
  it.each(damages)('%s', (_name, damage, message) => {
    const stateDir = mkdtempSync(join(tmpdir(), 'i17-damage-'));
    const journal = sessionWith(stateDir, 'bad-1');
    damage(journal);
    writeFileSync(join(stateDir, 'sessions', 'bad-1', 'state.json'), 'not json'); // force a replay
    const store = new SessionStore(stateDir, new Redactor());
    let err: unknown;
    try {
      store.open('bad-1');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    const e = err as InputError;
    expect(e.exitCode).toBe(2);
    expect(e.message).toMatch(new RegExp(`^The session journal ${journal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is damaged `));
    expect(e.message).toMatch(message);
    expect(e.hint).toMatch(/must not be edited\. Restore journal\.ndjson from a backup .* otherwise start a new session/);
    expect(e.where).toMatch(/journal\.ndjson:5$/);
  });

  it('`sessions` lists the damaged one as damaged, with why, and the others as they are', () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'i17-list-'));
    sessionWith(stateDir, '20260101-000000-aaaaaa');
    const bad = sessionWith(stateDir, '20260101-000000-bbbbbb');
    sessionWith(stateDir, '20260101-000000-cccccc');
    appendFileSync(bad, `${JSON.stringify({ seq: 5, event: { type: 'mutation.result', at: at(4), key: 'nope', outcome: 'sent' } })}\n`);
    writeFileSync(join(stateDir, 'sessions', '20260101-000000-bbbbbb', 'state.json'), '{}');
    const rows = new SessionStore(stateDir, new Redactor()).list();
    expect(rows.map((r) => `${r.id} ${r.status}`)).toEqual(['20260101-000000-aaaaaa running', '20260101-000000-bbbbbb damaged', '20260101-000000-cccccc running']);
    expect(rows[1]!.problem).toMatch(/damaged at line 5/);
    const lines: string[] = [];
    expect(listSessions({ 'state-dir': stateDir, json: false } as never, {}, (l) => lines.push(l))).toBe(0);
    expect(lines.join('\n')).toMatch(/^20260101-000000-bbbbbb\s+-\s+-\s+-\s+-\s+damaged/m);
    expect(lines.at(-1)).toMatch(/^20260101-000000-bbbbbb: The session journal .* is damaged at line 5/);
  });

  it('a garbage snapshot or one of the wrong shape is ignored: the journal rebuilds the state', () => {
    for (const snap of ['{"schema":1,"seq":4,"state":42}', '{"schema":1,"seq":4,"state":{"meta":null}}', '[]', 'x'.repeat(1000)]) {
      const stateDir = mkdtempSync(join(tmpdir(), 'i17-snap-'));
      sessionWith(stateDir, 's1');
      writeFileSync(join(stateDir, 'sessions', 's1', 'state.json'), snap);
      const state = new SessionStore(stateDir, new Redactor()).load('s1');
      expect(state.seq).toBe(4);
      expect(state.mutations['a/put']?.outcome).toBe('sent');
    }
  });

  it('a garbage lock file is a stale lock, taken over', () => {
    for (const lock of ['{}', '{"pid":"x","host":1}', 'null', '[]', '{"pid":-5,"host":"h","startedAt":"t"}']) {
      const stateDir = mkdtempSync(join(tmpdir(), 'i17-lock-'));
      sessionWith(stateDir, 's1');
      writeFileSync(join(stateDir, 'sessions', 's1', 'lock'), lock);
      const s = new SessionStore(stateDir, new Redactor()).open('s1');
      s.close();
    }
  });
});

describe('a state folder that cannot hold files', () => {
  it.each(['/proc/upgrade-pilot', '/proc/self/x/y', '/sys/kernel/upgrade-pilot', '/proc'])('%s: refused at once (exit 2), before any folder is made', (dir) => {
    const existed = existsSync(dir);
    let err: unknown;
    try {
      new SessionStore(dir, new Redactor()).create(created([step('a')]));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect(existsSync(dir)).toBe(existed);
    expect((err as InputError).message).toMatch(new RegExp(`^Cannot keep sessions in ${dir}: it is on (proc|sysfs), a kernel file system that cannot hold files\\.$`));
  });

  it('a file in the way is still the environment (exit 4), as before', () => {
    const base = mkdtempSync(join(tmpdir(), 'i17-file-'));
    writeFileSync(join(base, 'f'), 'x');
    let err: unknown;
    try {
      new SessionStore(join(base, 'f', 'state'), new Redactor()).create(created([step('a')]));
    } catch (e) {
      err = e;
    }
    expect((err as PilotError).exitCode).toBe(4);
    expect((err as PilotError).message).toMatch(/a file is in the way/);
  });

  it('nested folders that do not exist yet are made, 0700', () => {
    const base = mkdtempSync(join(tmpdir(), 'i17-nest-'));
    const dir = join(base, 'a', 'b', 'c');
    new SessionStore(dir, new Redactor()).create(created([step('a')])).close();
    for (const d of [join(base, 'a'), join(base, 'a', 'b'), dir]) expect((statSync(d).mode & 0o777).toString(8)).toBe('700');
  });
});
