/** The notifier against real local listeners: order, bounds, failures logged once, no redirect, no key. */
import { afterEach, describe, expect, it } from 'vitest';
import type { NotifyConfig } from '../../src/notify/config.js';
import type { NotifyMessage } from '../../src/notify/message.js';
import { Notifier } from '../../src/notify/notifier.js';
import { Redactor } from '../../src/session/redact.js';
import { within } from '../support/wait.js';
import { listen, type Listener } from './support.js';

const KEY = 'k3y-Th4t-Must-N3ver-Leak';
const open: Listener[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((l) => l.close()));
});
async function listener(...args: Parameters<typeof listen>): Promise<Listener> {
  const l = await listen(...args);
  open.push(l);
  return l;
}

/** Attempts of 10 s unless a test is about the bound: a listener on a busy machine answers late, not never. */
const config = (urls: string[], attemptMs = 10_000): NotifyConfig => ({ webhooks: urls.map((u) => new URL(u)), rehearsal: false, attemptMs, totalMs: 2 * attemptMs + 1_000 });
const message = (event: NotifyMessage['event'], text = `event ${event}`): NotifyMessage => ({ event, session: 's1', cluster: 'c1', text, at: new Date().toISOString(), mode: 'live' });

function notifier(c: NotifyConfig) {
  const logs: string[] = [];
  const n = new Notifier(c, { log: (m) => logs.push(m), redact: (t) => new Redactor().add(KEY).text(t) });
  return { n, logs };
}

describe('the notifier', () => {
  it('posts each message in order as JSON, with no API key anywhere, not even one a message carried', async () => {
    const ok = await listener('ok');
    const { n, logs } = notifier(config([ok.url]));
    n.send(message('gate'));
    n.send(message('gate', `oops ${KEY}`));
    n.send(message('done'));
    await n.flush();
    expect(ok.received.map((r) => (JSON.parse(r.body) as NotifyMessage).event)).toEqual(['gate', 'gate', 'done']);
    expect(ok.received[0]!.headers).toMatchObject({ 'content-type': 'application/json', 'user-agent': expect.stringMatching(/^upgrade-pilot\//) });
    const everything = JSON.stringify(ok.received);
    expect(everything).not.toContain(KEY);
    expect(everything).not.toMatch(/apikey|authorization|projectuid/i);
    expect(logs).toEqual([]);
  });

  it('a listener that answers 500 is tried twice per message and logged once; the healthy one still gets everything', async () => {
    const bad = await listener('500');
    const ok = await listener('ok');
    const { n, logs } = notifier(config([bad.url, ok.url]));
    for (const e of ['gate', 'gate', 'done'] as const) n.send(message(e));
    await n.flush();
    expect(bad.received).toHaveLength(6);
    expect(ok.received).toHaveLength(3);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/^Notification \(gate\) to webhook http:\/\/127\.0\.0\.1:\d+\/… failed: answered 500\. Further failures of this target are not logged\.$/);
    // The log never shows the webhook's path (its secret).
    expect(logs[0]).not.toContain('secret-path');
  });

  it('a listener that hangs costs at most the bound: send does not wait for it, flush gives up at the bound', async () => {
    const hang = await listener('hang');
    const c = config([hang.url], 300);
    const { n, logs } = notifier(c);
    // Eight messages of 0.3 s each do not fit in the 1.6 s bound: the end gives up on the rest.
    // send returns nothing to wait for: the run's path never waits for a listener.
    for (const e of ['gate', 'gate', 'gate', 'gate', 'gate', 'gate', 'gate', 'done'] as const) expect(n.send(message(e))).toBeUndefined();
    // Only an end of its own could stop the hung deliveries; ten seconds is a hang, not a busy machine.
    await within(n.flush(), c.totalMs + 10_000, 'flush');
    // Each attempt waits 0.3 s for an answer that never comes, so the bound cut the eight short.
    expect(hang.received.length).toBeLessThan(8);
    expect(logs.join('\n')).toMatch(/failed: no answer within 0\.3s/);
    expect(logs.join('\n')).toMatch(/Notifications still being sent after \d+s were abandoned \(webhook http:\/\/127\.0\.0\.1:\d+\/…\)\./);
  });

  it('a redirect is not followed', async () => {
    const elsewhere = await listener('ok');
    const redirecting = await listener('redirect', elsewhere.url);
    const { n, logs } = notifier(config([redirecting.url]));
    n.send(message('done'));
    await n.flush();
    expect(redirecting.received).toHaveLength(1);
    expect(elsewhere.received).toHaveLength(0);
    expect(logs[0]).toMatch(/answered 302 \(a redirect, not followed\)/);
  });
});
