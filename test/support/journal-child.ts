// A child process that journals as fast as it can until it is killed. Used by the crash test:
// it prints "ready <id>" once the session exists, then "ack <seq>" after each durable append.
// Run through bundleChild() (node runs JavaScript, this is TypeScript over the sources).
import type { SessionEvent, SessionMeta, SessionState, StepState } from '../../src/engine/state.js';
import { reduce } from '../../src/engine/reducer.js';
import { Redactor } from '../../src/session/redact.js';
import { SessionStore } from '../../src/session/store.js';

const [stateDir = '', key = '', mode] = process.argv.slice(2);
const redactor = new Redactor().add(key);
const store = new SessionStore(stateDir, redactor);
const at = () => new Date().toISOString();
const step: StepState = { id: 'a', localId: 'a', kind: 'noop', title: 'a', with: {}, status: 'pending', durationMs: 0, attempts: 0, decisions: {}, notes: {} };

if (mode === 'hold') {
  const s = store.open(process.argv[5]);
  process.stdout.write(`holding ${s.id}\n`);
  setInterval(() => {}, 1000);
} else {
  const id = `crash-${process.pid}-${Date.now()}`;
  const meta: SessionMeta = { id, schema: 1, createdAt: at(), tool: 't', user: 'u', host: 'h', mode: 'live', lab: false, runbook: { name: 't', title: 'T', file: '/t', digest: 'd' }, cluster: { uid: 'c' } };
  const session = store.create({ type: 'session.created', at: at(), meta, entries: [step] });
  let state: SessionState = session.state;
  const apply = (event: SessionEvent) => {
    state = { ...reduce(state, event), seq: session.append(event) };
    return state.seq;
  };
  const seq0 = apply({ type: 'step.started', at: at(), id: 'a' });
  process.stdout.write(`ready ${id} ${seq0}\n`);
  for (let i = 0; ; i++) {
    // Notes carry the planted key and a sizeable body, so torn writes are likely when killed.
    const seq = apply({ type: 'step.note', at: at(), id: 'a', key: `k${i}`, value: { i, secret: `token=${key}`, pad: 'x'.repeat(i % 7 === 0 ? 4000 : 40) } });
    if (i % 25 === 0) session.snapshot(state);
    process.stdout.write(`ack ${seq}\n`);
  }
}
