/** Typing a hidden value at a gate (profile variables), as key tables, through the gate model. */
import { describe, expect, it } from 'vitest';
import { approveOrDecline, type GateRequest } from '../../../src/engine/gate.js';
import { gateKey, initialGateView, type GateEffect, type GateView } from '../../../src/screens/keys/gate-model.js';
import { press, type KeyPress } from '../../../src/screens/keys/key-press.js';

const request: Pick<GateRequest, 'options' | 'safeChoice' | 'confirmText' | 'secretInputs'> = {
  options: approveOrDecline('Clone and write draft'),
  safeChoice: 'abort',
  secretInputs: [{ name: 'LOCAL_ADMIN_PASSWORD', label: 'Local admin password (hidden)' }],
};
const two = { ...request, secretInputs: [...request.secretInputs!, { name: 'OTHER', label: 'Other' }] };
const { char, key, paste } = press;
const typed = (text: string): KeyPress[] => [...text].map(char);

function run(keys: KeyPress[], r = request, rehearsal = false): { view: GateView; effects: GateEffect[] } {
  let view = initialGateView(r);
  const effects: GateEffect[] = [];
  for (const k of keys) {
    const step = gateKey(view, k, { request: r, rehearsal, bounds: { total: 10, page: 10 } });
    view = step.view;
    if (step.effect) effects.push(step.effect);
  }
  return { view, effects };
}

describe('a gate that asks for a hidden value before approving', () => {
  it('approving asks for it twice; the value comes with the decision and nowhere else', () => {
    const { effects, view } = run([char('y'), ...typed('pw?[x]qf'), key('enter'), ...typed('pw?[x]qf'), key('enter')]);
    expect(effects).toEqual([{ kind: 'decide', choice: 'approve', pressed: 'Enter', secrets: { LOCAL_ADMIN_PASSWORD: 'pw?[x]qf' } }]);
    expect(view.secret).toBeUndefined();
    expect(view.done).toBe(true);
  });

  it.each<[string, KeyPress[], Partial<NonNullable<GateView['secret']>> | 'none']>([
    ['y only opens the entry: nothing decided', [char('y')], { index: 0, typed: '' }],
    ['the letters of the options are text while typing', [char('y'), char('n'), char('q')], { typed: 'nq' }],
    ['an empty value is not taken', [char('y'), key('enter')], { problem: 'empty' }],
    ['the first typing waits for the second', [char('y'), ...typed('ab'), key('enter')], { first: 'ab', typed: '' }],
    ['two that differ start again', [char('y'), ...typed('ab'), key('enter'), ...typed('ac'), key('enter')], { problem: 'mismatch', typed: '' }],
    ['backspace takes a character back', [char('y'), ...typed('abc'), key('backspace')], { typed: 'ab' }],
    ['Esc goes back to the options, keeping nothing', [char('y'), ...typed('abc'), key('escape')], 'none'],
  ])('%s', (_name, keys, expected) => {
    const { view, effects } = run(keys);
    expect(effects).toEqual([]);
    if (expected === 'none') expect(view.secret).toBeUndefined();
    else expect(view.secret).toMatchObject(expected);
  });

  it('a paste with line ends types and confirms in one go', () => {
    expect(run([char('y'), paste('secret\rsecret\r')]).effects).toEqual([{ kind: 'decide', choice: 'approve', pressed: 'Enter', secrets: { LOCAL_ADMIN_PASSWORD: 'secret' } }]);
  });

  it('several values are asked one after the other', () => {
    const { effects } = run([char('y'), paste('a1\ra1\r'), paste('b2\rb2\r')], two);
    expect(effects).toEqual([{ kind: 'decide', choice: 'approve', pressed: 'Enter', secrets: { LOCAL_ADMIN_PASSWORD: 'a1', OTHER: 'b2' } }]);
  });

  it('declining asks for nothing; a rehearsal asks for nothing', () => {
    expect(run([char('n')]).effects).toEqual([{ kind: 'decide', choice: 'abort', pressed: 'n' }]);
    expect(run([char('y')], request, true).effects).toEqual([{ kind: 'decide', choice: 'approve', pressed: 'y' }]);
  });
});
