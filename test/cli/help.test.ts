/**
 * `--help` wraps to the terminal's width: at 80 columns (a pipe, $COLUMNS unset), at $COLUMNS, and
 * at a narrow 50, no line is longer than the width unless it is one word, no word is broken, and
 * every word of the contract is there in order. `lab --help` lists every scenario of the one
 * catalog (the parser's list, the picker's and completion's) with its line.
 */
import { describe, expect, it } from 'vitest';
import { commandHelp, EXIT_CODES, generalHelp } from '../../src/cli/help.js';
import { commands, findCommand, options } from '../../src/cli/commands.js';
import { labScenarios } from '../../src/cli/args.js';
import { completionSpec } from '../../src/cli/completion/spec.js';
import { scenarioCatalog } from '../../src/lab/scenario-catalog.js';
import { runCli } from '../support/cli-harness.js';

const words = (text: string) => text.split(/\s+/).filter(Boolean);
const layout = (width: number) => ({ width, program: 'upgrade-pilot' });

/** Every line within the width, or a single word too long to break. */
function fits(text: string, width: number): void {
  for (const line of text.split('\n')) if (line.length > width) expect(words(line), `a line of ${line.length} at ${width}: ${line}`).toHaveLength(1);
}

describe('--help at the terminal’s width', () => {
  it('writes each paragraph of a command\'s details whole, for the wrapper to flow (none broken by hand)', () => {
    // A paragraph broken by hand wraps at the terminal's width and again where the hand broke it.
    for (const c of commands) for (const d of c.details ?? []) expect(d, `${c.name}: a detail line continued by hand`).not.toMatch(/^\s/);
  });

  it.each([80, 120, 50])('every command at %i columns: lines within the width, words whole and in order', (width) => {
    for (const c of commands) {
      const text = commandHelp(c, layout(width));
      fits(text, width);
      // The same text as the widest layout: wrapping only moved it; at 80 columns and more, every
      // word stays whole (at 50 a word wider than a line, such as --fleet-fail's value, is cut).
      const wide = commandHelp(c, layout(10_000));
      expect(text.replace(/\s+/g, '')).toBe(wide.replace(/\s+/g, ''));
      if (width >= 80) expect(words(text)).toEqual(words(wide));
      for (const name of c.options) expect(text).toContain(`--${name}`);
      for (const name of c.options) for (const w of words(options[name].description)) expect(text).toContain(w);
    }
    fits(generalHelp('0.1.0', layout(width)), width);
  });

  it('an option’s description hangs under its column', () => {
    const lines = commandHelp(findCommand('plan')!, layout(60)).split('\n');
    const at = lines.findIndex((l) => l.startsWith('  --params FILE'));
    const column = lines[at]!.indexOf('Site parameters');
    expect(column).toBeGreaterThan(10);
    expect(lines[at + 1]!.slice(0, column).trim()).toBe(''); // the next line continues under it
    expect(lines[at + 1]!.charAt(column)).not.toBe(' ');
  });

  it('the CLI writes to $COLUMNS without a terminal, else 80 (a line of 220 characters no longer breaks mid-word)', async () => {
    const at80 = await runCli(['lab', '--help']);
    expect(at80.code).toBe(0);
    fits(at80.stdout, 80);
    expect(at80.stdout.split('\n').some((l) => l.length > 70)).toBe(true); // it uses the width
    const at100 = await runCli(['lab', '--help'], { env: { COLUMNS: '100' } });
    fits(at100.stdout, 100);
    expect(at100.stdout.split('\n').some((l) => l.length > 85)).toBe(true);
    const general = await runCli(['--help'], { env: { COLUMNS: '60' } });
    fits(general.stdout, 60);
  });

  it('the exit codes, as the README says them', () => {
    const text = generalHelp('0.1.0', layout(120));
    for (const [code, means] of EXIT_CODES) expect(text).toMatch(new RegExp(`^  ${code} +${means.split(' ').slice(0, 3).join(' ')}`, 'm'));
    expect(EXIT_CODES.map(([c]) => c)).toEqual(['0', '1', '2', '3', '4', '130']);
  });
});

describe('the lab scenarios: one list', () => {
  it('lab --help lists every scenario with its line; the parser and completion know the same ones', () => {
    const text = commandHelp(findCommand('lab')!, layout(200));
    const names = scenarioCatalog.map((s) => s.name);
    for (const s of scenarioCatalog) expect(text).toMatch(new RegExp(`^  ${s.name} +${s.line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    expect(text).toContain('no-converge');
    expect(text).toContain('tight');
    expect([...labScenarios]).toEqual(names);
    const scenario = completionSpec().commands.find((c) => c.name === 'lab')!.options.find((o) => o.name === 'scenario')!;
    expect(scenario.value).toEqual({ kind: 'words', words: names });
  });

  it('fleet --help’s --out speaks of the fleet report, and capture’s of the capture', () => {
    const fleet = commandHelp(findCommand('fleet')!, layout(200));
    const out = fleet.split('\n').find((l) => l.trimStart().startsWith('--out FILE'))!;
    expect(out).toMatch(/fleet report/);
    expect(options.out.description).toMatch(/capture, the capture/);
  });
});
