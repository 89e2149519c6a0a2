/**
 * upgrade-pilot as a kubectl plugin: kubectl's flags before the command, the program's name in the
 * help, and the real kubectl finding and running the bin (`kubectl-upgrade_pilot` on the PATH, a
 * link to the built CLI). The install test (test/package) runs `verify` through it against a lab.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../src/cli/args.js';
import { forProgram, hoistKubectlFlags, programName } from '../../src/cli/kubectl-plugin.js';
import { CLI } from '../e2e/support.js';
import { runCli } from '../support/cli-harness.js';

describe('kubectl flags before the command', () => {
  it.each([
    [['--context', 'prod', 'verify', '--params', 'p'], ['verify', '--context', 'prod', '--params', 'p']],
    [['--kubeconfig=/k', '--context', 'c', 'plan'], ['plan', '--kubeconfig=/k', '--context', 'c']],
    [['--context=c', 'verify'], ['verify', '--context=c']],
    [['verify', '--context', 'c'], ['verify', '--context', 'c']],
    [['--context', 'c'], ['--context', 'c']],
    [['--context'], ['--context']],
    [['--params', 'p', 'verify'], ['--params', 'p', 'verify']],
    [[], []],
  ])('%j → %j', (argv, expected) => {
    expect(hoistKubectlFlags(argv)).toEqual(expected);
  });

  it('reach the command as its own options', () => {
    const parsed = parseCommandLine(['--context', 'prod', '--kubeconfig=/tmp/k', 'verify', '--params', 'site.yaml']);
    expect(parsed.kind).toBe('run');
    if (parsed.kind !== 'run') return;
    expect(parsed.invocation.command.name).toBe('verify');
    expect(parsed.invocation.options).toMatchObject({ context: 'prod', kubeconfig: '/tmp/k', params: 'site.yaml' });
  });

  it('a command that does not take them says so', () => {
    expect(() => parseCommandLine(['--context', 'prod', 'sessions'])).toThrow(/Unknown option --context for `sessions`/);
  });
});

describe('the program name', () => {
  it.each([
    ['/usr/local/bin/kubectl-upgrade_pilot', 'kubectl upgrade-pilot'],
    ['/usr/local/lib/node_modules/upgrade-pilot/dist/cli.js', 'upgrade-pilot'],
    ['/usr/local/bin/upgrade-pilot', 'upgrade-pilot'],
    [undefined, 'upgrade-pilot'],
  ])('%s is %s', (executable, name) => {
    expect(programName(executable)).toBe(name);
  });

  it('rewrites usage lines, not other words', () => {
    expect(forProgram('Usage: upgrade-pilot verify [options]\nRun `upgrade-pilot <command> --help`.\nthe upgrade-pilot lab', 'kubectl upgrade-pilot')).toBe(
      'Usage: kubectl upgrade-pilot verify [options]\nRun `kubectl upgrade-pilot <command> --help`.\nthe kubectl upgrade-pilot lab',
    );
    expect(forProgram('Usage: upgrade-pilot x', 'upgrade-pilot')).toBe('Usage: upgrade-pilot x');
  });

  it('help, run as the plugin, shows the command as typed', async () => {
    const r = await runCli(['verify', '--help'], { program: 'kubectl upgrade-pilot' });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: kubectl upgrade-pilot verify [options]');
  });
});

describe('through the real kubectl', () => {
  it('kubectl upgrade-pilot runs the bin named kubectl-upgrade_pilot, passing the words after its name', () => {
    const bin = mkdtempSync(join(tmpdir(), 'up-plugin-'));
    symlinkSync(CLI, join(bin, 'kubectl-upgrade_pilot'));
    const env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` };
    expect(execFileSync('kubectl', ['upgrade-pilot', '--help'], { env, encoding: 'utf8' })).toContain('Usage: kubectl upgrade-pilot <command> [options]');
    expect(execFileSync('kubectl', ['upgrade-pilot', '--context', 'x', 'plan', '--help'], { env, encoding: 'utf8' })).toContain('Usage: kubectl upgrade-pilot plan [options]');
    expect(execFileSync('kubectl', ['plugin', 'list'], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })).toContain(join(bin, 'kubectl-upgrade_pilot'));
  });
});
