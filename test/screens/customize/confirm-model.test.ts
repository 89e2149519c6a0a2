/**
 * The conflicts confirmation's keys as tables of sequences: only `y`, typed once its guard time has
 * passed and after the whole list was on screen, continues; hurried sequences continue nothing.
 */
import { describe, expect, it } from 'vitest';
import { press, type KeyPress } from '../../../src/screens/keys/key-press.js';
import { confirmKey, initialConfirm, type ConfirmEffect, type ConfirmState } from '../../../src/screens/customize/confirm-model.js';

const c = press.char;
const k = press.key;

function run(sequence: KeyPress[], bounds: { total: number; page: number }, armed = true): { state: ConfirmState; effects: ConfirmEffect[] } {
  let state = initialConfirm(bounds);
  const effects: ConfirmEffect[] = [];
  for (const key of sequence) {
    const r = confirmKey(state, key, bounds, armed);
    state = r.state;
    if (r.effect) {
      effects.push(r.effect);
      break;
    }
  }
  return { state, effects };
}

const fits = { total: 10, page: 20 };
const longer = { total: 38, page: 12 };

describe('the conflicts confirmation', () => {
  it.each([
    { name: 'c c (a hurried double c)', keys: [c('c'), c('c')], bounds: fits, effects: [] },
    { name: 'arrows', keys: [k('up'), k('down'), k('left'), k('right')], bounds: fits, effects: [] },
    { name: 'q (the app asks Quit?; here it does nothing)', keys: [c('q')], bounds: fits, effects: [] },
    { name: 'Enter', keys: [k('enter')], bounds: fits, effects: [] },
    { name: 'Esc goes back', keys: [k('escape')], bounds: fits, effects: ['back'] },
    { name: 'n goes back', keys: [c('n')], bounds: fits, effects: ['back'] },
    { name: 'c then Esc', keys: [c('c'), k('escape'), c('y')], bounds: fits, effects: ['back'] },
    { name: 'y continues when the list fits', keys: [c('y')], bounds: fits, effects: ['continue'] },
    { name: 'y before the end was on screen does nothing', keys: [c('y')], bounds: longer, effects: [] },
    { name: 'G then y continues', keys: [c('G'), c('y')], bounds: longer, effects: ['continue'] },
    { name: 'to the end and back up, then y', keys: [k('pageDown'), k('pageDown'), k('pageDown'), c('g'), c('y')], bounds: longer, effects: ['continue'] },
    { name: 'a paste holding y is not the key y', keys: [press.paste('cy')], bounds: fits, effects: [] },
  ])('$name', ({ keys, bounds, effects }) => {
    expect(run(keys, bounds).effects).toEqual(effects);
  });

  it('y inside the guard time continues nothing', () => {
    expect(run([c('y'), c('y')], fits, false).effects).toEqual([]);
  });

  it('says why y did nothing, and why c does not continue', () => {
    expect(run([c('y')], longer).state.note).toBe('Read to the end first (↓ PgDn G): 26 more row(s) below.');
    expect(run([c('c')], fits).state.note).toBe('c does not continue here: y continues, n (Esc) goes back to the review.');
  });
});
