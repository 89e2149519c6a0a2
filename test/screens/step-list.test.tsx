/**
 * The step list: every title whole (wrapped under itself, never cut), and when the steps do not fit,
 * a window around the selected one that says how many are hidden above and below.
 */
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { Entry, StepState } from '../../src/engine/state.js';
import { gateContextText } from '../../src/screens/GateContext.js';
import { StepList } from '../../src/screens/StepList.js';
import { stepRows, stepWindow } from '../../src/screens/step-list-rows.js';
import { step } from '../support/state-fixtures.js';
import { plain } from '../support/ui.js';

const hop = (index: number) => ({ index, count: 2, from: index === 1 ? '4.4.10' : '4.5.4', to: index === 1 ? '4.5.4' : '4.6.3' });
const titles = ['Draft infra profile', 'Draft add-on profile', 'Publish infra profile', 'Publish add-on profile', 'Apply to the cluster', 'Approve node rebuild (if asked)', 'Wait for the cluster', 'Watch live migrations', 'Diagnose failures', 'Recover VMs'];
const runbook = (current: string): StepState[] => [
  step('preflight', { title: 'Preflight checks', status: 'succeeded', durationMs: 2000 }),
  step('snapshot', { title: 'Record what is deployed', status: 'succeeded', durationMs: 431 }),
  step('plan', { title: 'Plan the hops', status: 'succeeded', durationMs: 2000 }),
  step('customize', { title: 'Carry customizations', status: 'succeeded', durationMs: 15_000 }),
  ...[1, 2].flatMap((h) => titles.map((t, i) => step(`hop${h}.s${i}`, { title: t, group: 'hop', hop: hop(h), status: `hop${h}.s${i}` === current ? 'running' : 'pending' }))),
  step('verify', { title: 'Verify the cluster' }),
  step('report', { title: 'Write the report' }),
];

describe('the step list', () => {
  it('wraps a title longer than the list under itself, the duration on its first line', () => {
    const rows = stepRows(runbook('hop1.s0'), 'hop1.s0', 25);
    const rebuild = rows.find((r) => r.key === 'hop1.s5')!;
    expect(rebuild.lines).toEqual(['  Approve node rebuild', '    (if asked)']);
    const placeholder = stepRows([{ id: 'hop', group: true, title: 'Upgrade hops' } as Entry], undefined, 33);
    expect(placeholder[0]!.lines).toEqual(['Upgrade hops (after the', '  plan)']);
  });

  it.each([
    ['the first steps selected: only below', 'preflight', 0, 11],
    ['a step in the middle: hidden steps both ways, counted', 'hop2.s0', 8, 4],
    ['the last hop step: mostly above', 'hop2.s9', 10, 0],
  ])('%s', (_name, selected, above, below) => {
    const all = runbook(selected);
    const win = stepWindow(stepRows(all, selected, 25), 20);
    expect(win.above).toBe(above);
    expect(win.below).toBe(below);
    const lines = win.rows.reduce((n, r) => n + r.lines.length, 0) + (win.above ? 1 : 0) + (win.below ? 1 : 0);
    expect(lines).toBeLessThanOrEqual(20);
    expect(win.rows.some((r) => r.step?.selected)).toBe(true);
    // Every step is either shown or counted, once.
    expect(win.rows.filter((r) => r.step).length + above + below).toBe(all.length);
  });

  it('draws the window with its notes, every title whole', () => {
    const ui = render(<StepList entries={runbook('hop2.s0')} selectedId="hop2.s0" width={25} height={20} now={Date.now()} runStatus="running" />);
    const frame = plain(ui.lastFrame());
    const lines = frame.split('\n');
    expect(lines[0]).toBe('↑ 8 more step(s) above');
    expect(lines.at(-1)).toBe('↓ 4 more step(s) below');
    expect(lines.length).toBeLessThanOrEqual(20);
    expect(frame).not.toContain('…');
    expect(frame).toMatch(/Approve node rebuild\s*\n\s+\(if asked\)/);
    ui.unmount();
  });
});

describe('the line above a gate', () => {
  const all = runbook('hop1.s0');
  it.each([
    [120, 'Hop 1/2: 4.4.10 → 4.5.4 · Draft infra profile · step 5 of 26 · [ ] the other steps'],
    [60, 'Hop 1/2: 4.4.10 → 4.5.4 · Draft infra profile · step 5 of 26'],
    [40, 'Hop 1/2: 4.4.10 → 4.5.4 · Draft infra profile'],
  ])('at %s columns: %s', (width, want) => expect(gateContextText(all, all[4], width)).toBe(want));
});
