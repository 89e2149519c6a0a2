/**
 * Bad input that used to end in "This is a bug" (exit 1) or worse: YAML alias bombs in params,
 * runbooks and pack values, durations a timer cannot wait (zero, beyond 2^31-1 ms), huge values
 * quoted back in messages. Each is an InputError (exit 2) saying what and where, at once.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_TIMER_MS } from '../../src/engine/duration.js';
import { Duration } from '../../src/engine/duration-schema.js';
import { loadParams } from '../../src/engine/load.js';
import { loadRunbook, parseRunbook } from '../../src/steps/runbook-load.js';
import { InputError } from '../../src/errors.js';
import { diffManifests, diffValues, parseValues } from '../../src/values/index.js';
import { testSteps } from '../support/test-steps.js';
import { fileWriter, VALID_PARAMS } from '../support/params-text.js';

const file = fileWriter('i17-input-');
const validParams = VALID_PARAMS;
const runbookHeader = 'apiVersion: upgrade-pilot/v1\nkind: Runbook\nmetadata: { name: t, title: T }\n';

/** The classic "billion laughs": nine levels of nine aliases each, 387 million values from 10 lines. */
function aliasBomb(key: string, levels = 9): string {
  const names = 'abcdefghijklmnop'.slice(0, levels);
  const lines = [`${key}:`, `  ${names[0]}: &${names[0]} ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]`];
  for (let i = 1; i < names.length; i++) lines.push(`  ${names[i]}: &${names[i]} [${Array(9).fill(`*${names[i - 1]}`).join(',')}]`);
  return `${lines.join('\n')}\n`;
}

function inputError(fn: () => unknown): InputError {
  try {
    fn();
  } catch (err) {
    expect(err, String(err)).toBeInstanceOf(InputError);
    return err as InputError;
  }
  throw new Error('expected an InputError');
}

// Expanded, each bomb is 387 million values: minutes and gigabytes. A test that gets its refusal (or
// its diff) back at all has proven it was not expanded; no stopwatch is needed.
describe('YAML alias bombs: refused before they expand, exit 2', () => {
  it('in a params file (under extra, which takes anything)', () => {
    const err = inputError(() => loadParams(file(`${validParams}extra:\n${aliasBomb('bomb').replace(/^/gm, '  ')}`)));
    expect(err.message).toMatch(/the params file uses YAML aliases \(\*name\) that stand for more than 100 values in all \(an "alias bomb"\)/);
  });

  it('in a runbook', () => {
    const err = inputError(() => loadRunbook(file(`${runbookHeader}steps: [{ id: a, kind: noop }]\n${aliasBomb('x-bomb')}`), undefined, testSteps()));
    expect(err.message).toMatch(/the runbook uses YAML aliases .* "alias bomb"/);
    expect(err.exitCode).toBe(2);
  });

  it('an alias to an anchor that does not exist', () => {
    const err = inputError(() => parseRunbook(`${runbookHeader}steps: [{ id: a, kind: noop }]\nx: *nowhere\n`, 'rb.yaml', undefined, testSteps()));
    expect(err.exitCode).toBe(2);
  });

  it('a few honest aliases are fine', () => {
    expect(() => loadParams(file(`${validParams}extra:\n  a: &a { x: 1 }\n  b: *a\n  c: *a\n`))).not.toThrow();
  });

  it('in pack values (deployed, from the API, or a values file)', () => {
    const err = inputError(() => parseValues(aliasBomb('charts'), 'the deployed values of the orchestration pack'));
    expect(err.message).toMatch(/^The deployed values of the orchestration pack use YAML aliases .* "alias bomb"/);
    expect(err.code).toBe('values.yaml-aliases');
    // The diff walks aliases: it must never get to walk this one.
    expect(() => diffValues({ deployed: aliasBomb('charts'), newDefaults: 'a: 1\n' })).toThrow(InputError);
  });

  it('in a manifest: compared as text, never expanded', () => {
    const bomb = aliasBomb('data');
    const diff = diffManifests([{ name: 'm', content: bomb }], [{ name: 'm', content: bomb.replace('lol', 'LOL') }]);
    expect(diff.entries.map((e) => e.name)).toEqual(['m']);
  });
});

describe('durations a timer cannot wait: refused with the field named', () => {
  const parse = (v: unknown) => z.object({ t: Duration }).safeParse({ t: v });
  it.each([
    ['30s', 30_000],
    ['250ms', 250],
    ['1h30m', 5_400_000],
    [5, 5_000],
    ['596h', 596 * 3_600_000],
  ])('%j is %d ms', (v, ms) => {
    expect(parse(v)).toMatchObject({ success: true, data: { t: ms } });
  });
  it.each([
    ['0s', /above zero/],
    ['0', /above zero/],
    [0, /above zero/],
    ['0ms', /above zero/],
    ['0.4ms', /above zero/],
    ['597h', /at most 596h/],
    [`${MAX_TIMER_MS + 1}ms`, /at most 596h/],
    ['99999999999999h', /at most 596h/],
    ['soon', /expected a duration such as 30s/],
  ])('%j is refused', (v, message) => {
    const r = parse(v);
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.message).toMatch(message);
  });

  it('in the params file: exit 2 naming the field and its position', () => {
    const err = inputError(() => loadParams(file(validParams.replace('  projectUid: p-1\n', '  projectUid: p-1\n  timeout: 0s\n'))));
    expect(err.message).toMatch(/:4:12: palette\.timeout: expected a duration above zero/);
  });

  it('in the runbook settings: exit 2 naming the field', () => {
    const err = inputError(() => parseRunbook(`${runbookHeader}settings:\n  kubectlProcessTimeout: 9999h\nsteps: [{ id: a, kind: noop }]\n`, 'rb.yaml', undefined, testSteps()));
    expect(err.message).toMatch(/settings\.kubectlProcessTimeout: expected a duration of at most 596h/);
  });
});

describe('messages quote a little of the input, never all of it', () => {
  it('a huge value in the wrong place', () => {
    const huge = 'z'.repeat(1_000_000);
    const err = inputError(() => loadParams(file(validParams.replace('target: 4.6.3', `target: ${huge}`))));
    expect(err.message).toMatch(/target: expected a version/);
    expect(err.message.length).toBeLessThan(1_000);
  });

  it('a huge unknown key, a value with control characters', () => {
    const err = inputError(() => loadParams(file(`${validParams}${'k'.repeat(100_000)}: 1\n`)));
    expect(err.message.length).toBeLessThan(2_000);
    const ctl = inputError(() => loadParams(file(validParams.replace('target: 4.6.3', 'target: "\\e[2J\\e]0;owned\\a"'))));
    expect(ctl.message).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });

  it('a YAML error on a megabyte-long line', () => {
    const err = inputError(() => loadParams(file(`${validParams}extra: "${'a'.repeat(900_000)}\nnext: 1\n`)));
    expect(err.message).toMatch(/not valid YAML/);
    expect(err.message.length).toBeLessThan(1_000);
  });
});

// The 50,000-key timing (95 s with the library's check) is in test/reliability/hardening.faults.ts.
describe('duplicate keys: found in one pass (the library check is quadratic)', () => {
  it('names the repeated key and its position', () => {
    const err = inputError(() => loadParams(file(`${validParams}extra:\n  a: 1\n  b: 2\n  a: 3\n`)));
    expect(err.message).toMatch(/:16:3: the params file is not valid YAML: Map keys must be unique \(`a` is repeated\)/);
    expect(() => parseValues('x:\n  y: 1\n  y: 2\n', 'the values')).toThrow(/line 3, column 3: Map keys must be unique \(`y` is repeated\)/);
  });

});
