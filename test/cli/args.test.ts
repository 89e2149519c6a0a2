/**
 * The command line's validation (src/cli/args.ts), case by case: what each option accepts, what it
 * turns the value into, and the message for what it refuses (exit 2, naming the flag).
 */
import { describe, expect, it } from 'vitest';
import { optionChoices, parseCommandLine } from '../../src/cli/args.js';
import type { CliOptions } from '../../src/commands/options.js';
import { InputError } from '../../src/errors.js';

const run = (argv: string[]): CliOptions => {
  const parsed = parseCommandLine(argv);
  if (parsed.kind !== 'run') throw new Error(`expected a run, got ${parsed.kind}`);
  return parsed.invocation.options;
};

const refusal = (argv: string[]): InputError => {
  try {
    parseCommandLine(argv);
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
  throw new Error(`${argv.join(' ')} was accepted`);
};

describe('options that are accepted', () => {
  it('gives every switch its default and leaves unnamed values out', () => {
    const o = run(['start']);
    expect(o).toMatchObject({ 'dry-run': false, 'non-interactive': false, json: false, 'approve-all-restarts': false, help: false, approve: [], 'approve-restart': [], 'skip-restart': [], notify: [] });
    expect('runbook' in o).toBe(false);
    expect('params' in o).toBe(false);
  });

  it.each<[string, string[], Partial<CliOptions>]>([
    ['gates split at commas, repeated', ['start', '--approve', 'draft,publish', '--approve', ' apply '], { approve: ['draft', 'publish', 'apply'] }],
    ['VM references', ['start', '--approve-restart', 'vms/vm-1', '--skip-restart', 'a.b/c-d'], { 'approve-restart': ['vms/vm-1'], 'skip-restart': ['a.b/c-d'] }],
    ['file names as given', ['start', '--params', 'site.yaml', '--runbook=rb.yaml'], { params: 'site.yaml', runbook: 'rb.yaml' }],
    ['a capture and its cap in bytes', ['capture', '--params', 's.yaml', '--out', 'site.json.gz', '--max-size', '64MiB'], { out: 'site.json.gz', 'max-size': 64 * 1024 * 1024 }],
    ['a cap in decimal units', ['capture', '--max-size', '100MB'], { 'max-size': 100_000_000 }],
    ['a replay to serve', ['lab', '--replay', 'site.json.gz', '--serve', '--state-dir', 'd'], { replay: 'site.json.gz', serve: true }],
    ['lab sizes as numbers', ['lab', '--vms', '5000', '--nodes', '12', '--pods', '7'], { vms: 5000, nodes: 12, pods: 7 }],
    ['a speed with decimals', ['lab', '--speed', '1.5'], { speed: 1.5 }],
    ['the highest speed', ['lab', '--speed', '100000'], { speed: 100000 }],
    ['a scenario and a flavor', ['lab', '--scenario', 'rook-ceph', '--flavor', 'palette'], { scenario: 'rook-ceph', flavor: 'palette' }],
    ['a gateway path for the lab', ['lab', '--serve', '--server-path', '/k8s/clusters/c-lab'], { serve: true, 'server-path': '/k8s/clusters/c-lab' }],
    ['the old name of --flavor', ['lab', '--dialect', 'spec'], { dialect: 'spec' }],
    ['switches', ['start', '--dry-run', '--json', '--approve-all-restarts'], { 'dry-run': true, json: true, 'approve-all-restarts': true }],
    ['webhooks, repeated', ['start', '--notify', 'https://a.example/x', '--notify', 'https://b.example/y'], { notify: ['https://a.example/x', 'https://b.example/y'] }],
    ['fixes chosen by rule id, repeated or with commas', ['start', '--accept-fix', 'storage-class-virt-annotation', '--accept-fix', 'a-rule,b-rule'], { 'accept-fix': ['storage-class-virt-annotation', 'a-rule', 'b-rule'] }],
    [
      'where variable values come from',
      ['start', '--variable', 'LOCAL_ADMIN_PASSWORD=env:VMO_PW', '--variable', 'OTHER=file:./secrets/other'],
      { variable: [{ name: 'LOCAL_ADMIN_PASSWORD', from: { env: 'VMO_PW' } }, { name: 'OTHER', from: { file: './secrets/other' } }] },
    ],
    ['--since as an RFC 3339 time', ['verify', '--since', '2026-03-11T15:00:00+01:00'], { since: { kind: 'time', at: Date.parse('2026-03-11T14:00:00Z'), text: '2026-03-11T15:00:00+01:00' } }],
    ['--since as a duration before now', ['verify', '--since=1d12h'], { since: { kind: 'ago', ms: 36 * 3_600_000, text: '1d12h' } }],
  ])('%s', (_what, argv, expected) => {
    expect(run(argv)).toMatchObject(expected);
  });
});

describe('options that are refused (exit 2, the flag named)', () => {
  it.each<[string, string[], RegExp]>([
    ['the fleet\'s stage gate outside a fleet', ['start', '--approve', 'stage'], /^--approve stage approves a fleet stage: it is for `upgrade-pilot fleet`\.$/],
    ['an unknown gate', ['start', '--approve', 'draft,everything'], /^--approve does not know the gate "everything" \(accepted: health, draft, publish, apply, repave, cancel-migrations, drift, stage\)$/],
    ['a gate one slip away', ['start', '--approve', 'draft,publsh'], /^--approve does not know the gate "publsh" \(accepted: health, draft, publish, apply, repave, cancel-migrations, drift, stage\)\. Did you mean publish\?$/],
    ['a scenario one slip away', ['lab', '--scenario', 'skip-mnior'], /got "skip-mnior"\. Did you mean skip-minor\?$/],
    ['a flavor one slip away', ['lab', '--flavor', 'palete'], /^--flavor must be spec or palette, got "palete"\. Did you mean palette\?$/],
    ['restarts as a gate', ['start', '--approve', 'restarts'], /^VM restarts are approved per VM: use --approve-restart NS\/NAME or --approve-all-restarts$/],
    ['a VM without its namespace', ['start', '--approve-restart', 'vm-1'], /^--approve-restart takes NAMESPACE\/NAME of a VM, got "vm-1"$/],
    ['a VM in capitals', ['start', '--skip-restart', 'VMs/One'], /^--skip-restart takes NAMESPACE\/NAME of a VM, got "VMs\/One"$/],
    ['an empty file name', ['start', '--params='], /^--params needs a value \(FILE\)\.$/],
    ['an empty webhook', ['start', '--notify='], /^--notify takes a webhook URL$/],
    ['an empty command', ['start', '--notify-command='], /^--notify-command takes a command$/],
    ['an empty JUnit file', ['verify', '--junit='], /^--junit takes a file name$/],
    ['a --since in words', ['verify', '--since', 'yesterday'], /^--since takes an RFC 3339 time \(2026-03-11T14:00:00Z\) or a duration before now \(2h, 90m, 1d12h\), got "yesterday"$/],
    ['a --since without a zone', ['verify', '--since', '2026-03-11T14:00:00'], /^--since takes an RFC 3339 time/],
    ['a --since of zero', ['verify', '--since', '0h'], /^--since takes/],
    ['--since on another command', ['start', '--since', '2h'], /Unknown option --since for `start`/],
    ['an unknown scenario', ['lab', '--scenario', 'chaos'], /^--scenario must be one of healthy, skip-minor, lost-customizations, degraded, large, rook-ceph, repave, pack-error, no-profile-version, no-multus, rook-ceph-no-placement, no-converge, tight, got "chaos"$/],
    ['an unknown flavor', ['lab', '--flavor', 'real'], /^--flavor must be spec or palette, got "real"$/],
    ['an unknown dialect', ['lab', '--dialect', 'x'], /^--dialect must be spec or palette, got "x"$/],
    ['a size in words', ['lab', '--vms', 'many'], /^--vms takes a whole number$/],
    ['a negative size', ['lab', '--nodes', '-3'], /--nodes/],
    ['a size of zero', ['lab', '--pods', '0'], /^--pods must be above 0$/],
    ['a speed in words', ['lab', '--speed', 'fast'], /^--speed takes a number such as 60$/],
    ['a server path without its slash', ['lab', '--server-path', 'k8s/clusters/c-lab'], /^--server-path must start with \/, got "k8s\/clusters\/c-lab"$/],
    ['a server path that climbs', ['lab', '--server-path', '/k8s/../x'], /^--server-path has a segment that is not a plain name \("\.\."\)/],
    ['a server path that is only a slash', ['lab', '--server-path', '/'], /^--server-path must name at least one segment/],
    ['a server path on another command', ['verify', '--server-path', '/x'], /^Unknown option --server-path for `verify`/],
    ['a speed of zero', ['lab', '--speed', '0'], /^--speed must be between 0 and 100000$/],
    ['a speed beyond the limit', ['lab', '--speed', '100001'], /^--speed must be between 0 and 100000$/],
    ['a fix that is not a rule id', ['start', '--accept-fix', 'Storage Class'], /^--accept-fix takes the id of a runbook rule/],
    ['a variable value on the command line', ['start', '--variable', 'LOCAL_ADMIN_PASSWORD=hunter2'], /never the value: a command line shows in the process list\); LOCAL_ADMIN_PASSWORD was given neither env: nor file:$/],
    ['a variable without a name', ['start', '--variable', '=env:X'], /^--variable takes NAME=env:VAR or NAME=file:PATH/],
    ['a variable from a bad environment name', ['start', '--variable', 'X=env:1-bad'], /"1-bad" is not an environment variable name$/],
    ['a cap in words', ['capture', '--max-size', 'big'], /^--max-size takes a size such as 256MiB or 64MB, got "big"$/],
    ['a cap beyond what a capture can be', ['capture', '--max-size', '1GiB'], /^--max-size must be between 16 KiB and 500 MiB, got 1GiB$/],
    ['a cap too small for a manifest', ['capture', '--max-size', '1000'], /^--max-size must be between 16 KiB and 500 MiB/],
    ['an empty capture file name', ['capture', '--out='], /^--out needs a value \(FILE\)\.$/],
    ['a capture option on another command', ['plan', '--out', 'x'], /^Unknown option --out for `plan`\.$/],
  ])('%s', (_what, argv, message) => {
    const err = refusal(argv);
    expect(err.message).toMatch(message);
    expect(err.code).toMatch(/^usage\./);
  });

  it('reports the first problem in the order the options are listed', () => {
    expect(refusal(['lab', '--speed', 'fast', '--scenario', 'chaos']).message).toMatch(/^--scenario/);
  });

  it('points at the command’s help', () => {
    expect(refusal(['lab', '--vms', 'x']).hint).toBe('See: upgrade-pilot lab --help');
  });
});

describe('the values completion offers', () => {
  it.each<[Parameters<typeof optionChoices>[0], readonly string[] | undefined]>([
    ['scenario', ['healthy', 'skip-minor', 'lost-customizations', 'degraded', 'large', 'rook-ceph', 'repave', 'pack-error', 'no-profile-version', 'no-multus', 'rook-ceph-no-placement', 'no-converge', 'tight']],
    ['flavor', ['spec', 'palette']],
    ['dialect', ['spec', 'palette']],
    ['params', undefined],
    ['speed', undefined],
  ])('--%s', (name, expected) => {
    expect(optionChoices(name)).toEqual(expected);
  });
});
