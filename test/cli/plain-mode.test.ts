import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli-harness.js';
import { fakeWorld } from '../support/fake-effects.js';

const runbook = 'test/fixtures/runbooks/test.yaml';

describe('plain mode (no TTY)', () => {
  it('stops at the gate with exit 3 naming the flag; run again with the approval it finishes with exit 0', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'up-plain-'));
    const world = fakeWorld();
    const first = await runCli(['start', '--runbook', runbook, '--state-dir', stateDir], { world });
    expect(first.code).toBe(3);
    expect(first.stdout).toMatch(/✔ first {2}First step/);
    expect(first.stdout).toMatch(/\? hop1\.write {2}GATE draft: Write draft \/v1\/clusterprofiles\/p1/);
    expect(first.stderr).toMatch(/error: Stopped at a gate awaiting approval/);
    expect(first.stderr).toMatch(/what to do: The session is saved\. To approve, run: upgrade-pilot resume \S+ --approve draft/);
    expect(world.sent).toHaveLength(0);
    const id = /session (\S+) \(live\)/.exec(first.stdout)![1]!;

    const second = await runCli(['resume', id, '--state-dir', stateDir, '--approve', 'draft'], { world });
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/resuming/);
    expect(second.stdout).toMatch(/✔ done/);
    expect(world.sent).toHaveLength(2);

    const list = await runCli(['sessions', '--state-dir', stateDir]);
    expect(list.stdout).toMatch(new RegExp(`${id}\\s+test-runbook\\s+-\\s+live\\s+-\\s+done`));
  });

  it('--json prints one JSON object per line and a final result', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'up-json-'));
    const r = await runCli(['start', '--runbook', runbook, '--state-dir', stateDir, '--json', '--approve', 'draft'], { world: fakeWorld() });
    expect(r.code).toBe(0);
    const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; exitCode?: number });
    expect(events.map((e) => e.type)).toContain('step.succeeded');
    expect(events.at(-1)).toMatchObject({ type: 'result', status: 'done', exitCode: 0 });
  });

  it('a rehearsal sends nothing and needs no approval', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'up-rehearse-'));
    const world = fakeWorld();
    const r = await runCli(['rehearse', '--runbook', runbook, '--state-dir', stateDir], { world });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/rehearsal: nothing will be sent/);
    expect(r.stdout).toMatch(/decision: approve \(rehearsal: a rehearsal sends nothing/);
    expect(r.stdout).toMatch(/Would send: write \/v1\/clusterprofiles\/p1/);
    expect(world.sent).toHaveLength(0);
  });

  it('a failed step exits 1 with the message and what to do', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'up-fail-'));
    const file = join(stateDir, 'rb.yaml');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, 'apiVersion: upgrade-pilot/v1\nkind: Runbook\nmetadata: { name: f, title: F }\nsteps:\n  - { id: boom, kind: fail, with: { message: the storage cluster is Degraded } }\n');
    const r = await runCli(['start', '--runbook', file, '--state-dir', stateDir], { world: fakeWorld() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: the storage cluster is Degraded');
    expect(r.stderr).toContain('what to do: fix it and resume');
    expect(r.stderr).toMatch(/the session is saved: upgrade-pilot resume \S+/);
  });
});

describe('command line', () => {
  it('--help lists every command of the contract', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    for (const c of ['start', 'resume', 'rehearse', 'plan', 'diff', 'verify', 'report', 'sessions', 'lab']) expect(r.stdout).toMatch(new RegExp(`^  ${c} `, 'm'));
    expect(r.stdout).toMatch(/3 stopped at a gate awaiting approval/);
  });

  it.each([
    [['start', '--help'], /--approve-restart NS\/NAME\s+Approve the restart of one VM/],
    [['lab', '--help'], /--scenario NAME\s+Lab scenario: healthy, skip-minor/],
    [['help', 'verify'], /exit 0 all green, 1 a red panel/],
  ])('%j describes the command and its options', async (argv, re) => {
    const r = await runCli(argv);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(re);
  });

  it.each([
    [['launch'], /Unknown command "launch"/, /Commands: start, resume/],
    [['start', '--frobnicate'], /Unknown option --frobnicate for `start`/, /Accepted: --runbook, --params/],
    [['start', '--approve', 'everything'], /--approve does not know the gate "everything" \(accepted: draft, publish, apply, repave, cancel-migrations, drift\)/, /start --help/],
    [['start', '--approve', 'restart'], /VM restarts are approved per VM: use --approve-restart NS\/NAME or --approve-all-restarts/, /start --help/],
    [['start', '--approve-restart', 'just-a-name'], /--approve-restart takes NAMESPACE\/NAME of a VM, got "just-a-name"/, /start --help/],
    [['start', '--api-key', 'abc'], /--api-key is not accepted: a key on the command line shows in the process list/, /UPGRADE_PILOT_API_KEY/],
    [['lab', '--scenario', 'chaos'], /--scenario must be one of healthy, skip-minor, lost-customizations, degraded, large, repave, pack-error, got "chaos"/, /lab --help/],
    [['lab', '--vms', 'many'], /--vms takes a whole number/, /lab --help/],
    [['start', '--runbook'], /--runbook needs a value \(FILE\)/, /start --help/],
    [['start', '--json=yes'], /--json is a switch and takes no value/, /start --help/],
    [['sessions', 'extra'], /Unexpected argument "extra" for `sessions`/, /Usage: upgrade-pilot sessions/],
    [['resume', '--state-dir', '/nonexistent-upgrade-pilot-dir'], /There are no saved sessions in \/nonexistent-upgrade-pilot-dir/, /upgrade-pilot start/],
  ])('%j is refused with exit 2, what is wrong and what is accepted', async (argv, message, hint) => {
    const r = await runCli(argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(hint);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });
});
