/**
 * The command line turned into what a session and a fleet run with (src/commands/session-settings.ts),
 * and a fleet cluster's session settings built from the fleet's (src/fleet/settings.ts): the flags
 * mean what they meant when the session read them itself.
 */
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../src/cli/args.js';
import type { CliOptions } from '../../src/commands/options.js';
import { fleetSettings, outputMode, sessionSettings } from '../../src/commands/session-settings.js';
import { clusterSettings } from '../../src/fleet/settings.js';
import { noRunApprovals } from '../../src/fleet/approvals.js';

const options = (argv: string[]): CliOptions => {
  const parsed = parseCommandLine(argv);
  if (parsed.kind !== 'run') throw new Error(`not a run: ${argv.join(' ')}`);
  return parsed.invocation.options;
};

describe('the output mode', () => {
  it.each<[string[], string]>([
    [[], 'auto'],
    [['--non-interactive'], 'plain'],
    [['--json'], 'json'],
    [['--json', '--non-interactive'], 'json'],
  ])('start %j prints %s', (flags, mode) => {
    expect(outputMode(options(['start', ...flags]))).toBe(mode);
  });
});

describe("a session's settings from the command line", () => {
  it('carries the files, the access, the approvals, the variables and the notifications', () => {
    const o = options([
      'start', '--runbook', 'rb.yaml', '--params', 'site.yaml', '--kubeconfig', 'kc', '--context', 'ctx', '--state-dir', 'st', '--api-key-file', 'key', '--allow-insecure-http',
      '--approve', 'draft,publish', '--approve-restart', 'vms/db-1', '--skip-restart', 'vms/web-1', '--accept-fix', 'storage-class-virt-annotation',
      '--variable', 'ingress=env:INGRESS', '--notify', 'https://hooks.example/x', '--notify-command', 'page me', '--notify-rehearsal', '--notify-allow-http', '--non-interactive',
    ]);
    expect(sessionSettings(o, { dryRun: false })).toEqual({
      runbook: 'rb.yaml',
      params: 'site.yaml',
      kubeconfig: 'kc',
      context: 'ctx',
      stateDir: 'st',
      apiKeyFile: 'key',
      allowInsecureHttp: true,
      approvals: { gates: ['draft', 'publish'], restarts: ['vms/db-1'], allRestarts: false, skipRestarts: ['vms/web-1'], acceptFixes: ['storage-class-virt-annotation'] },
      output: 'plain',
      variables: [{ name: 'ingress', from: { env: 'INGRESS' } }],
      notify: { notify: ['https://hooks.example/x'], 'notify-command': 'page me', 'notify-rehearsal': true, 'notify-allow-http': true },
      dryRun: false,
    });
  });

  it('leaves out what was not given, and takes the rehearsal and the lab from the command', () => {
    const lab = { paramsFile: '/lab/params.yaml', apiKey: 'k', guide: ['hello'] };
    const s = sessionSettings(options(['lab', '--scenario', 'healthy', '--dry-run']), { dryRun: true, lab });
    expect(s).toEqual({
      allowInsecureHttp: false,
      approvals: { gates: [], restarts: [], allRestarts: false, skipRestarts: [], acceptFixes: [] },
      output: 'auto',
      variables: [],
      notify: { notify: [], 'notify-rehearsal': false, 'notify-allow-http': false },
      dryRun: true,
      lab,
    });
  });
});

describe("a fleet's settings, and each cluster's session built from them", () => {
  const fleet = fleetSettings(
    options(['fleet', 'resume', '--fleet', 'f.yaml', '--approve', 'apply,stage', '--approve-all-restarts', '--revoke', 'draft', '--api-key-file', 'key', '--variable', 'x=file:/v', '--notify', 'https://hooks.example/x', '--notify-rehearsal', '--json']),
  );

  it('keeps the approvals given, the revocations and how the fleet prints', () => {
    expect(fleet).toEqual({
      approvals: { gates: ['apply', 'stage'], restarts: [], allRestarts: true, skipRestarts: [], acceptFixes: [] },
      revoke: ['draft'],
      output: 'json',
      apiKeyFile: 'key',
      allowInsecureHttp: false,
      variables: [{ name: 'x', from: { file: '/v' } }],
      notify: { notify: ['https://hooks.example/x'], 'notify-rehearsal': true, 'notify-allow-http': false },
    });
  });

  it("gives a cluster the run's approvals without the fleet's own gate, its stage's policy, plain lines and none of the command's notifications", () => {
    const approvals = { ...noRunApprovals, gates: ['draft', 'stage', 'apply'], restarts: ['vms/db-1'], acceptFixes: ['r1'], revoked: ['publish'] };
    const policy = { name: 'fleet edge, stage wave-1', gates: ['publish'], allRestarts: true };
    expect(clusterSettings(fleet, { paramsFile: '/f/clusters/a/params.yaml', stateDir: '/st', approvals, policy })).toEqual({
      params: '/f/clusters/a/params.yaml',
      stateDir: '/st',
      apiKeyFile: 'key',
      allowInsecureHttp: false,
      approvals: { gates: ['draft', 'apply'], restarts: ['vms/db-1'], allRestarts: false, skipRestarts: [], acceptFixes: ['r1'], policy },
      output: 'plain',
      variables: [{ name: 'x', from: { file: '/v' } }],
      notify: { 'notify-rehearsal': true, 'notify-allow-http': false },
      dryRun: false,
    });
  });
});
