/**
 * Shell completion: what it offers is derived from the command definitions (so a new command,
 * option, scenario or gate appears by itself), and the generated scripts complete as an operator
 * expects in bash and fish (run in the real shells, asking the built CLI for session ids); zsh's is
 * checked for syntax. A shell that is not installed is skipped (.ci/run installs zsh and fish).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { approvableGates, labScenarios } from '../../src/cli/args.js';
import { bashScript } from '../../src/cli/completion/bash.js';
import { fishScript } from '../../src/cli/completion/fish.js';
import { completionSpec } from '../../src/cli/completion/spec.js';
import { zshScript } from '../../src/cli/completion/zsh.js';
import { commands } from '../../src/cli/commands.js';
import { builtinSteps } from '../../src/steps/index.js';
import { CLI } from '../e2e/support.js';
import { runCli } from '../support/cli-harness.js';
import { Redactor } from '../../src/session/redact.js';
import { SessionStore } from '../../src/session/store.js';
import type { SessionEvent } from '../../src/engine/state.js';
import { at, created, meta, step } from '../support/state-fixtures.js';

const has = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
const gates = builtinSteps()
  .all()
  .flatMap((k) => (k.gate ? [k.gate] : []));
const spec = completionSpec(gates);
const command = (name: string) => spec.commands.find((c) => c.name === name)!;
const option = (cmd: string, name: string) => command(cmd).options.find((o) => o.name === name)!;

/**
 * A state folder of saved sessions, and `upgrade-pilot` (the built CLI) on a PATH. Two a resume can
 * continue (aaaaaa stopped at a gate, dddddd stopped by the operator), and three it cannot: one
 * done (bbbbbb), one of the embedded lab (cccccc), one whose journal is empty (eeeeee).
 */
function fixture(): { dir: string; state: string; path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'up-completion-'));
  const state = join(dir, 'state');
  const store = new SessionStore(state, new Redactor());
  const saved = (id: string, events: SessionEvent[], lab = false) => {
    const s = store.create({ ...created([step('only')]), meta: { ...meta, id, lab } });
    for (const e of events) s.append(e);
    s.close();
  };
  const gate: SessionEvent = { type: 'session.stopped', at: at(2), status: 'awaitingApproval', reason: 'Stopped at a gate awaiting approval: x' };
  saved('20261101-090000-aaaaaa', [gate]);
  saved('20261102-090000-bbbbbb', [{ type: 'step.started', at: at(1), id: 'only' }, { type: 'step.succeeded', at: at(2), id: 'only' }, { type: 'session.done', at: at(3) }]);
  saved('20261103-090000-cccccc', [gate], true);
  saved('20261104-090000-dddddd', [{ type: 'session.stopped', at: at(4), status: 'stopped', reason: 'Declined' }]);
  mkdirSync(join(state, 'sessions', '20261105-090000-eeeeee'));
  writeFileSync(join(state, 'sessions', '20261105-090000-eeeeee', 'journal.ndjson'), '');
  mkdirSync(join(state, 'sessions', 'not-a-session')); // no journal: not offered
  mkdirSync(join(dir, 'bin'));
  symlinkSync(CLI, join(dir, 'bin', 'upgrade-pilot'));
  writeFileSync(join(dir, 'site.yaml'), '');
  return { dir, state, path: `${join(dir, 'bin')}${delimiter}${process.env.PATH ?? ''}` };
}

/** Every saved session of the fixture, sorted as the shells' answers are compared. */
const all = ['aaaaaa', 'bbbbbb', 'cccccc', 'dddddd', 'eeeeee'].map((s, i) => `2026110${i + 1}-090000-${s}`).join(' ');

describe('what completion offers, from the definitions', () => {
  it('every command and every option of each command, with the help pseudo-command', () => {
    expect(spec.commands.map((c) => c.name)).toEqual([...commands.map((c) => c.name), 'help']);
    for (const c of commands) expect(command(c.name).options.map((o) => o.name)).toEqual(c.options);
    expect(command('help').positional?.value).toEqual({ kind: 'words', words: commands.map((c) => c.name) });
  });

  it.each([
    ['lab', 'scenario', { kind: 'words', words: [...labScenarios] }],
    ['lab', 'dialect', { kind: 'words', words: ['spec', 'palette'] }],
    ['start', 'params', { kind: 'file' }],
    ['start', 'runbook', { kind: 'file' }],
    ['verify', 'kubeconfig', { kind: 'file' }],
    ['verify', 'context', { kind: 'context' }],
    ['sessions', 'state-dir', { kind: 'dir' }],
    ['lab', 'vms', { kind: 'free' }],
    ['start', 'approve-restart', { kind: 'free' }],
    ['start', 'json', undefined],
  ])('%s --%s completes with %j', (cmd, name, value) => {
    expect(option(cmd, name).value).toEqual(value);
  });

  it('--approve completes a comma-separated list of every gate --approve accepts and every gate a step kind asks', () => {
    const approve = option('start', 'approve');
    expect(approve.repeatable).toBe(true);
    expect(approve.value).toMatchObject({ kind: 'words', list: true });
    const words = (approve.value as { words: readonly string[] }).words;
    for (const g of [...approvableGates, ...gates]) expect(words).toContain(g);
    expect(words).not.toContain('restart'); // restarts are approved per VM
  });

  it('every gate a step kind asks is one --approve accepts (else completion would offer a gate the parser refuses)', () => {
    for (const g of gates) expect(approvableGates as readonly string[]).toContain(g);
  });

  it('resume completes the sessions it can continue, report every saved one; completion the shells', () => {
    expect(command('resume').positional?.value).toEqual({ kind: 'session', which: 'resumable' });
    expect(command('report').positional?.value).toEqual({ kind: 'session', which: 'all' });
    expect(command('completion').positional?.value).toEqual({ kind: 'words', words: ['bash', 'zsh', 'fish'] });
  });
});

describe('`upgrade-pilot completion` and `__complete`', () => {
  const cli = async (argv: string[], env: NodeJS.ProcessEnv = {}) => {
    const r = await runCli(argv, { env });
    return { code: r.code, out: r.stdout, err: r.stderr };
  };

  it.each([
    [[], 'needs the shell'],
    [['tcsh'], 'No completion for the shell "tcsh"'],
  ])('completion %j: exit 2 saying which shells there are', async (args, message) => {
    const r = await cli(['completion', ...args]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
    expect(r.err).toContain('completion bash|zsh|fish');
  });

  it('completion bash prints the script', async () => {
    const r = await cli(['completion', 'bash']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('complete -F _upgrade_pilot upgrade-pilot');
  });

  it('__complete sessions: the saved ids newest first, from --state-dir or $XDG_STATE_HOME; nothing (and exit 0) for a folder that is not there', async () => {
    const { dir, state } = fixture();
    expect((await cli(['__complete', 'sessions', '--state-dir', state])).out).toBe(['eeeeee', 'dddddd', 'cccccc', 'bbbbbb', 'aaaaaa'].map((s) => `2026110${'abcde'.indexOf(s[0]!) + 1}-090000-${s}\n`).join(''));
    // Only what a resume can continue: not the finished one, the lab's, nor the one that cannot be read.
    expect((await cli(['__complete', 'resumable', '--state-dir', state])).out).toBe('20261104-090000-dddddd\n20261101-090000-aaaaaa\n');
    mkdirSync(join(dir, 'xdg'));
    const viaXdg = await cli(['__complete', 'sessions'], { XDG_STATE_HOME: join(dir, 'xdg') });
    expect(viaXdg).toEqual({ code: 0, out: '', err: '' });
    const missing = await cli(['__complete', 'sessions', '--state-dir', join(dir, 'nowhere')]);
    expect(missing).toEqual({ code: 0, out: '', err: '' });
    expect(await cli(['__complete', 'something-else'])).toEqual({ code: 0, out: '', err: '' });
  });
});

describe.skipIf(!has('bash'))('the bash script, in bash', () => {
  it('completes commands, options, values, gate lists and session ids', () => {
    const { dir, state, path } = fixture();
    const script = join(dir, 'completion.bash');
    writeFileSync(script, bashScript(spec));
    const cases: Array<[string[], string]> = [
      [['upgrade-pilot', ''], commands.map((c) => c.name).concat('help').sort().join(' ')],
      [['upgrade-pilot', 've'], 'verify'],
      [['upgrade-pilot', '--'], '--help --version'],
      [['upgrade-pilot', 'verify', '--'], '--allow-insecure-http --api-key-file --context --help --json --junit --kubeconfig --params --runbook --since --state-dir'],
      [['upgrade-pilot', 'lab', '--scenario', ''], [...labScenarios].sort().join(' ')],
      [['upgrade-pilot', 'lab', '--scenario', '=', 'sk'], 'skip-minor'],
      [['upgrade-pilot', 'start', '--approve', 'dr'], 'draft drift'],
      [['upgrade-pilot', 'start', '--approve', 'draft,pu'], 'draft,publish'],
      [['upgrade-pilot', 'resume', '--state-dir', state, ''], '20261101-090000-aaaaaa 20261104-090000-dddddd'],
      [['upgrade-pilot', 'report', '--state-dir', '=', state, '2026110'], all],
      [['upgrade-pilot', 'resume', '--state-dir', state, '20261101-090000-aaaaaa', ''], ''],
      [['upgrade-pilot', 'completion', ''], 'bash fish zsh'],
      [['upgrade-pilot', 'help', 'ver'], 'verify'],
      [['upgrade-pilot', 'verify', '--params', join(dir, 'si')], join(dir, 'site.yaml')],
      [['upgrade-pilot', '--context', 'prod', 've'], 'verify'],
      [['upgrade-pilot', 'lab', '--vms', ''], ''],
    ];
    // The cursor on a word in the middle: --state-dir after it counts too (`resume <Tab> --state-dir DIR`).
    const mid: Array<[string[], number, string]> = [
      [['upgrade-pilot', 'resume', '', '--state-dir', state], 2, '20261101-090000-aaaaaa 20261104-090000-dddddd'],
      [['upgrade-pilot', 'resume', '2026110', '--state-dir', '=', state], 2, '20261101-090000-aaaaaa 20261104-090000-dddddd'],
      [['upgrade-pilot', 'report', '', '--state-dir', state], 2, all],
    ];
    const body = [
      ...cases.map(([words]) => `t ${words.length - 1} ${words.map((w) => `'${w}'`).join(' ')}`),
      ...mid.map(([words, cword]) => `t ${cword} ${words.map((w) => `'${w}'`).join(' ')}`),
    ].join('\n');
    const out = execFileSync('bash', ['-c', `source ${script}\nt() { COMP_CWORD=$1; shift; COMP_WORDS=("$@"); COMPREPLY=(); _upgrade_pilot; printf '%s\\n' "\${COMPREPLY[@]}" | sort | paste -sd' ' -; }\n${body}`], {
      encoding: 'utf8',
      env: { ...process.env, PATH: path },
      cwd: dir,
    });
    expect(out.split('\n').slice(0, cases.length + mid.length)).toEqual([...cases.map(([, expected]) => expected), ...mid.map(([, , expected]) => expected)]);
  });

  it('parses (bash -n)', () => {
    expect(spawnSync('bash', ['-n'], { input: bashScript(spec) }).status).toBe(0);
  });
});

describe.skipIf(!has('zsh'))('the zsh script, in zsh', () => {
  it('parses (zsh -n), and loads into the completion system', () => {
    const { dir } = fixture();
    const file = join(dir, '_upgrade-pilot');
    writeFileSync(file, zshScript(spec));
    const syntax = spawnSync('zsh', ['-n', file], { encoding: 'utf8' });
    expect(syntax.stderr).toBe('');
    expect(syntax.status).toBe(0);
    const loaded = spawnSync('zsh', ['-f', '-c', `autoload -Uz compinit && compinit -u -d ${join(dir, 'zcompdump')} && source ${file} && print -r -- $_comps[upgrade-pilot]`], { encoding: 'utf8' });
    expect(loaded.stdout.trim()).toBe('_upgrade_pilot');
  });
});

describe.skipIf(!has('fish'))('the fish script, in fish', () => {
  it('parses (fish -n), and completes commands, values, gate lists and session ids', () => {
    const { dir, state, path } = fixture();
    const file = join(dir, 'upgrade-pilot.fish');
    writeFileSync(file, fishScript(spec));
    expect(spawnSync('fish', ['-n', file]).status).toBe(0);
    const cases: Array<[string, string]> = [
      ['upgrade-pilot ve', 'verify'],
      ['upgrade-pilot lab --scenario ', [...labScenarios].sort().join(' ')],
      ['upgrade-pilot start --approve draft,pu', 'draft,publish'],
      [`upgrade-pilot resume --state-dir ${state} `, '20261101-090000-aaaaaa 20261104-090000-dddddd'],
      [`upgrade-pilot report --state-dir=${state} `, all],
      ['upgrade-pilot completion ', 'bash fish zsh'],
      ['upgrade-pilot verify --js', '--json'],
    ];
    const body = cases.map(([line]) => `complete -C '${line}' | string split -f1 \\t | sort | string join ' '`).join('\n');
    // (`string join` of a single candidate exits 1: the script ends with `true`.)
    const out = execFileSync('fish', ['--no-config', '-c', `source ${file}\n${body}\ntrue`], { encoding: 'utf8', env: { ...process.env, PATH: path }, cwd: dir });
    expect(out.split('\n').slice(0, cases.length)).toEqual(cases.map(([, expected]) => expected));
  });
});
