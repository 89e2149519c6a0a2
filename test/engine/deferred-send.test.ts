import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/engine/clock.js';
import { deferredFor, sendWithDeferrals } from '../../src/engine/deferred-send.js';
import { EnvironmentError, InterruptedError } from '../../src/errors.js';
import { PaletteApiError } from '../../src/palette/errors.js';

const rateLimited = (ms = 1_000) => new PaletteApiError('palette.rate-limited', 'The profile API kept answering 429 Too Many Requests on PATCH /p (1 attempt).', { hint: 'h', where: 'PATCH /p', mayHaveApplied: false, status: 429, retryAfterMs: ms });
const lost = () => new PaletteApiError('palette.timeout', 'no answer', { hint: 'h', where: 'PATCH /p', mayHaveApplied: true });

function fakeClock(): Clock & { slept: number[] } {
  const slept: number[] = [];
  return {
    slept,
    now: () => 0,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw new InterruptedError();
      slept.push(ms);
    },
  };
}

/** A server script: each send answers with the next item (an error, or 'ok'); records what happened. */
function script(answers: Array<Error | 'ok'>, settles: Array<'done' | 'not-done'> = []) {
  const log: string[] = [];
  return {
    log,
    send: async () => {
      const a = answers.shift() ?? 'ok';
      log.push(`send:${a === 'ok' ? 'ok' : (a as PaletteApiError).status ?? 'err'}`);
      if (a !== 'ok') throw a;
    },
    settle: async () => {
      const s = settles.shift() ?? 'not-done';
      log.push(`read:${s}`);
      return s;
    },
  };
}

describe('a mutation the API deferred (429, 503 with Retry-After): read back, wait, send again', () => {
  it('429, 429, then accepted: waits as asked and reads back before each resend', async () => {
    const s = script([rateLimited(2_000), rateLimited(3_000), 'ok']);
    const clock = fakeClock();
    expect(await sendWithDeferrals({ summary: 'publish x', send: s.send, settle: s.settle, clock, signal: new AbortController().signal })).toBe('sent');
    expect(s.log).toEqual(['send:429', 'read:not-done', 'send:429', 'read:not-done', 'send:ok']);
    expect(clock.slept).toEqual([2_000, 3_000]);
  });

  it('the read-back finds it applied after all: not sent again', async () => {
    const s = script([rateLimited()], ['done']);
    expect(await sendWithDeferrals({ summary: 'publish x', send: s.send, settle: s.settle, clock: fakeClock(), signal: new AbortController().signal })).toBe('settled');
    expect(s.log).toEqual(['send:429', 'read:done']);
  });

  it('an ambiguous failure (answer lost) is never resent here', async () => {
    const s = script([lost()]);
    await expect(sendWithDeferrals({ summary: 'publish x', send: s.send, settle: s.settle, clock: fakeClock(), signal: new AbortController().signal })).rejects.toThrow('no answer');
    expect(s.log).toEqual(['send:err']);
  });

  it('without a way to read back, a deferral is not resent', async () => {
    const s = script([rateLimited()]);
    await expect(sendWithDeferrals({ summary: 'x', send: s.send, settle: undefined, clock: fakeClock(), signal: new AbortController().signal })).rejects.toMatchObject({ code: 'palette.rate-limited' });
    expect(s.log).toEqual(['send:429']);
  });

  it('within the budget: sends and waiting', async () => {
    const s = script(Array.from({ length: 10 }, () => rateLimited(1_000)));
    const err = await sendWithDeferrals({ summary: 'publish x', send: s.send, settle: s.settle, clock: fakeClock(), signal: new AbortController().signal, budget: { sends: 3, maxWaitMs: 60_000 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EnvironmentError);
    expect((err as EnvironmentError).message).toMatch(/^"publish x" was not applied: the API deferred it 3 times in 2s \(last: The profile API kept answering 429/);
    expect((err as EnvironmentError).hint).toMatch(/Nothing was applied\. Resume later/);
    expect(s.log.filter((l) => l.startsWith('send'))).toHaveLength(3);
    const long = script([rateLimited(1_000), rateLimited(90_000)]);
    await expect(sendWithDeferrals({ summary: 'x', send: long.send, settle: long.settle, clock: fakeClock(), signal: new AbortController().signal, budget: { sends: 5, maxWaitMs: 60_000 } })).rejects.toThrow(/deferred it 2 times/);
  });

  it('a stop while waiting ends the wait (the intent stays for resume to settle)', async () => {
    const controller = new AbortController();
    controller.abort();
    const s = script([rateLimited()]);
    await expect(sendWithDeferrals({ summary: 'x', send: s.send, settle: s.settle, clock: fakeClock(), signal: controller.signal })).rejects.toBeInstanceOf(InterruptedError);
  });

  it.each([
    ['a 429 with a wait', rateLimited(5), 5],
    ['a lost answer', lost(), undefined],
    ['a plain error', new Error('x'), undefined],
    ['an error that may have applied, even with a wait', new PaletteApiError('c', 'm', { hint: 'h', where: 'w', mayHaveApplied: true, retryAfterMs: 5 }), undefined],
  ])('deferredFor: %s', (_name, err, ms) => {
    expect(deferredFor(err)).toBe(ms);
  });
});
