import { describe, expect, it } from 'vitest';
import { approveOrDecline, restartOptions, type GateRequest } from '../../../src/engine/gate.js';
import { armed, gateKey, initialGateView, scrollLetters, type GateEffect, type GateView } from '../../../src/screens/keys/gate-model.js';
import type { Key } from 'ink';
import { keyPress, press, type KeyPress } from '../../../src/screens/keys/key-press.js';
import { cancelGate } from '../../../src/steps/migrations/restart-gate.js';

const draft: Pick<GateRequest, 'options' | 'safeChoice' | 'confirmText'> = { options: approveOrDecline('Write draft'), safeChoice: 'abort' };
const restart: Pick<GateRequest, 'options' | 'safeChoice' | 'confirmText'> = { options: restartOptions, safeChoice: 'skip' };
const cancel = cancelGate('hop1.recover/cancel-migrations', [
  { key: 'vms/m1', namespace: 'vms', name: 'm1', vmi: 'vms/a', phase: 'Running', ageMs: 1000 },
  { key: 'vms/m2', namespace: 'vms', name: 'm2', vmi: 'vms/b', phase: 'Running', ageMs: 1000 },
]);
const named = { ...restart, confirmText: 'web-01' };

const { char, key } = press;

function run(request: Pick<GateRequest, 'options' | 'safeChoice' | 'confirmText'>, keys: KeyPress[], rehearsal = false): { view: GateView; effects: GateEffect[] } {
  let view = initialGateView(request);
  const effects: GateEffect[] = [];
  for (const k of keys) {
    const step = gateKey(view, k, { request, rehearsal, bounds: { total: 30, page: 10 } });
    view = step.view;
    if (step.effect) effects.push(step.effect);
  }
  return { view, effects };
}

const label = (request: Pick<GateRequest, 'options'>, view: GateView) => request.options[view.focus]?.key;

describe('keys at a gate', () => {
  const cases: Array<[string, Pick<GateRequest, 'options' | 'safeChoice' | 'confirmText'>, KeyPress[], GateEffect[], string]> = [
    // [what, gate, keys, effects, focused option after]
    ['focus starts on the safe option', draft, [], [], 'n'],
    ['↓ from the safe default scrolls, never reaches Write', draft, [key('down'), key('down'), key('down')], [], 'n'],
    ['↑ from the safe default scrolls, never wraps onto Write', draft, [key('up'), key('up')], [], 'n'],
    ['↑ then Enter: the safe option', draft, [key('up'), key('enter')], [{ kind: 'decide', choice: 'abort', pressed: 'Enter' }], 'n'],
    ['↓ on the cancel gate (Abort last) does not land on Cancel', cancel, [key('down'), key('enter')], [{ kind: 'decide', choice: 'abort', pressed: 'Enter' }], 'a'],
    ['↑ on the restart gate does not land on Restart', restart, [key('up'), key('enter')], [{ kind: 'decide', choice: 'skip', pressed: 'Enter' }], 's'],
    ['Tab does not move the focus', restart, [key('tab'), key('tab'), key('enter')], [{ kind: 'decide', choice: 'skip', pressed: 'Enter' }], 's'],
    ['j k g G PgUp PgDn only scroll', restart, [char('j'), char('k'), char('g'), char('G'), key('pageUp'), key('pageDown'), key('home'), key('end')], [], 's'],
    ['← moves the focus (no wrap), then Enter chooses it', restart, [key('left'), key('enter')], [{ kind: 'decide', choice: 'approve', pressed: 'Enter' }], 'r'],
    ['← twice stops at the first option', restart, [key('left'), key('left'), key('left')], [], 'r'],
    ['→ stops at the last option', restart, [key('right'), key('right'), key('right')], [], 'a'],
    ['an approving option by its letter', draft, [char('y')], [{ kind: 'decide', choice: 'approve', pressed: 'y' }], 'n'],
    ['an upper-case letter counts', restart, [char('R')], [{ kind: 'decide', choice: 'approve', pressed: 'R' }], 's'],
    ['Esc is the safe option', restart, [key('escape')], [{ kind: 'decide', choice: 'skip', pressed: 'Esc' }], 's'],
    ['q only asks whether to quit: it decides nothing', draft, [char('q')], [{ kind: 'ask-quit' }], 'n'],
    ['q leaves the focus where the operator put it (Stay finds the gate as it was)', restart, [key('left'), char('q')], [{ kind: 'ask-quit' }], 'r'],
    ['a gate decides once: yy approves one thing', draft, [char('y'), char('y')], [{ kind: 'decide', choice: 'approve', pressed: 'y' }], 'n'],
    ['q twice asks twice and decides nothing (the app shows the question once)', restart, [char('q'), char('q')], [{ kind: 'ask-quit' }, { kind: 'ask-quit' }], 's'],
    ['a paste chooses nothing', draft, [press.paste('yy'), press.paste('y\r')], [], 'n'],
    ['keys no option uses do nothing', draft, [char('x'), char('z'), key('backspace')], [], 'n'],
  ];
  it.each(cases)('%s', (_what, request, keys, effects, focused) => {
    const { view, effects: got } = run(request, keys);
    expect(got).toEqual(effects);
    expect(label(request, view)).toBe(focused);
  });

  it('scrolls the content within its bounds', () => {
    expect(run(restart, [key('down'), key('down')]).view.scroll.offset).toBe(2);
    expect(run(restart, [key('end')]).view.scroll.offset).toBe(20);
    expect(run(restart, [key('end'), key('pageUp')]).view.scroll.offset).toBe(11);
    expect(run(restart, [key('up')]).view.scroll.offset).toBe(0);
  });

  it('asks for the name before approving; a wrong name approves nothing; Esc goes back', () => {
    expect(run(named, [char('r')]).view.typing).toBe(true);
    expect(run(named, [char('r'), ...[...'web-02'].map(char), key('enter')]).effects).toEqual([]);
    expect(run(named, [char('r'), ...[...'web-02'].map(char), key('enter')]).view.mismatch).toBe(true);
    // Typing a name takes every key, y and q included: none of them decides.
    expect(run(named, [char('r'), char('y'), char('q'), key('escape')]).effects).toEqual([]);
    expect(run(named, [char('r'), press.paste('web-01'), key('enter')]).effects).toEqual([{ kind: 'decide', choice: 'approve', pressed: 'Enter' }]);
    expect(run(named, [char('r'), ...[...'web-02'].map(char), key('backspace'), char('1'), key('enter')]).effects).toEqual([{ kind: 'decide', choice: 'approve', pressed: 'Enter' }]);
    // Backspace typed fast after a mismatch arrives as one string of DELs: each erases one character.
    const fast = (input: string) => keyPress(input, {} as Key);
    expect(run(named, [char('r'), ...[...'web-0x2'].map(char), key('enter'), fast('\x7f\x7f'), char('1'), key('enter')]).effects).toEqual([{ kind: 'decide', choice: 'approve', pressed: 'Enter' }]);
    // A rehearsal sends nothing, so it asks for no name.
    expect(run(named, [char('r')], true).effects).toEqual([{ kind: 'decide', choice: 'approve', pressed: 'r' }]);
  });

  it('no gate of the tool uses a scrolling key or q as an option letter', () => {
    for (const request of [draft, restart, cancel]) {
      for (const o of request.options) expect(scrollLetters.has(o.key) || o.key === 'q').toBe(false);
    }
  });

  it.each([
    [undefined, 1000, 500, false],
    [1000, 1000, 500, false],
    [1000, 1499, 500, false],
    [1000, 1500, 500, true],
    [1000, 1000, 0, true],
  ])('drawn at %s, now %s, guard %s ms: armed %s', (drawnAt, now, guard, expected) => {
    expect(armed(drawnAt, now, guard)).toBe(expected);
  });
});

describe('a key press in words', () => {
  const none = {} as Key;
  it.each([
    ['one DEL (tmux, most terminals)', '\x7f', { name: 'backspace', count: 1 }],
    ['DELs typed faster than read', '\x7f\x7f\x7f', { name: 'backspace', count: 3 }],
    ['one BS (Ctrl+H)', '\b', { name: 'backspace', count: 1 }],
    ['a printable key', 'y', { name: 'char', text: 'y' }],
    ['a paste', 'web-01', { name: 'paste', text: 'web-01' }],
    ['control characters never become text', 'we\x1bb\x7f', { name: 'paste', text: 'web' }],
    ['only control characters: nothing typed', '\x01\x02', { name: 'other' }],
  ])('%s', (_what, input, want) => {
    expect(keyPress(input, none)).toEqual(want);
  });
});
