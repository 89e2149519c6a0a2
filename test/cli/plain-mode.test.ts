import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
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
    // Steps by their titles (and hop), never by internal ids such as hop1.write.
    // Its duration as measured: milliseconds on a quiet machine, seconds on a loaded one.
    expect(first.stdout).toMatch(/^\d\d:\d\d:\d\d {2}✔ First step \((?:\d+ms|\d+s|\d+m\d\ds)\): value 1$/m);
    expect(first.stdout).toMatch(/\? GATE: Write draft \/v1\/clusterprofiles\/p1 \(Hop 1\/2 · Write draft\)/);
    expect(first.stdout).not.toMatch(/hop1\.write/);
    expect(first.stderr).toMatch(/error: Stopped at a gate awaiting approval/);
    // A command that works when pasted: the sessions are not in the default place, so it names them.
    expect(first.stderr).toContain(`what to do: The session is saved. To approve, run: upgrade-pilot resume ${/session (\S+) \(live\)/.exec(first.stdout)![1]} --state-dir ${stateDir} --approve draft`);
    expect(first.stderr).toMatch(/^ {4}--approve draft answers that gate in every hop, not only this one\.$/m);
    expect(world.sent).toHaveLength(0);
    const id = /session (\S+) \(live\)/.exec(first.stdout)![1]!;

    const second = await runCli(['resume', id, '--state-dir', stateDir, '--approve', 'draft'], { world });
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/resuming/);
    // What happened, then what comes next.
    // (With the day too when the run and its resume straddle midnight.)
    expect(second.stdout).toMatch(/^ {2}It stopped at \d\d:\d\d:\d\d(?: on \d{4}-\d\d-\d\d)? at a gate awaiting approval: Write draft \/v1\/clusterprofiles\/p1\.$/m);
    expect(first.stdout).toMatch(/■ stopped \(at a gate\): awaiting approval: Write draft/);
    expect(first.stdout).not.toMatch(/approval: Stopped at a gate/);
    expect(second.stdout).toMatch(/^ {2}Next: Write draft \(hop 1\/2\): Write draft \/v1\/clusterprofiles\/p1\.$/m);
    expect(second.stdout).not.toMatch(/could not be read/); // this runbook watches no migrations: nothing read
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

  it('exit 3 at a VM restart says how to approve and how to decline, each a command that works when pasted', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'up-plain-restart-'));
    const file = join(stateDir, 'rb.yaml');
    writeFileSync(file, 'apiVersion: upgrade-pilot/v1\nkind: Runbook\nmetadata: { name: r, title: R }\nsteps:\n  - { id: recover, kind: restart-each, with: { vms: [vms/db-01, vms/web-02] } }\n');
    const r = await runCli(['start', '--runbook', file, '--state-dir', stateDir], { world: fakeWorld() });
    expect(r.code).toBe(3);
    const id = /session (\S+) \(live\)/.exec(r.stdout)![1]!;
    const resume = `upgrade-pilot resume ${id} --state-dir ${stateDir}`;
    expect(r.stderr).toContain(`To approve, run: ${resume} --approve-restart vms/db-01 --approve-restart vms/web-02`);
    expect(r.stderr).toContain(`To decline instead (the VM stays on the old launcher, listed as outstanding): ${resume} --skip-restart vms/db-01 --skip-restart vms/web-02`);
    // What it says is what works: declining one and approving the other finishes.
    const world = fakeWorld();
    const again = await runCli(['resume', id, '--state-dir', stateDir, '--skip-restart', 'vms/db-01', '--approve-restart', 'vms/web-02'], { world });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/decision: skip \(flag --skip-restart vms\/db-01\)/);
    expect(again.stdout).toMatch(/decision: approve \(flag --approve-restart vms\/web-02\)/);
    expect(world.sent).toHaveLength(1);
  });

  it('every decision names its real source; no line credits a flag that was not passed', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'up-plain-source-'));
    const r = await runCli(['start', '--runbook', runbook, '--state-dir', stateDir, '--approve', 'draft'], { world: fakeWorld() });
    expect(r.code).toBe(0);
    const decisions = r.stdout.split('\n').filter((l) => l.includes('decision:'));
    expect(decisions).toHaveLength(2); // one draft gate per hop: --approve draft covers both
    for (const d of decisions) expect(d).toMatch(/decision: approve \(flag --approve draft\)$/);
    expect(r.stdout).not.toMatch(/--approve (publish|cancel-migrations)|--approve-restart|--approve-all-restarts/);
  });

  it('--json lines stay small: no request body, no large output, the report referenced by its path', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'up-json-small-'));
    const r = await runCli(['start', '--runbook', runbook, '--state-dir', stateDir, '--json', '--approve', 'draft'], { world: fakeWorld() });
    const lines = r.stdout.trim().split('\n');
    for (const l of lines) expect(l.length).toBeLessThan(4096);
    const events = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const intents = events.filter((e) => e.type === 'mutation.intent');
    expect(intents).toHaveLength(2);
    for (const e of intents) {
      expect(e).toMatchObject({ target: 'palette', method: 'PUT', path: '/v1/clusterprofiles/p1', approval: { by: 'flag', flag: '--approve draft' } });
      expect(e).not.toHaveProperty('request');
      expect(String(e.bodyIn)).toMatch(/journal\.ndjson$/);
    }
    const result = events.at(-1)!;
    expect(result).toMatchObject({ type: 'result', status: 'done', exitCode: 0 });
    expect(existsSync(String(result.report))).toBe(true);
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
    writeFileSync(file, 'apiVersion: upgrade-pilot/v1\nkind: Runbook\nmetadata: { name: f, title: F }\nsteps:\n  - { id: boom, kind: fail, with: { message: the storage cluster is Degraded } }\n');
    const r = await runCli(['start', '--runbook', file, '--state-dir', stateDir], { world: fakeWorld() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: the storage cluster is Degraded');
    expect(r.stderr).toContain('what to do: fix it and resume');
    expect(r.stderr).toMatch(/the session is saved: upgrade-pilot resume \S+ --state-dir \S+/);
  });
});

describe('command line', () => {
  it('--help lists every command of the contract', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    for (const c of ['start', 'resume', 'rehearse', 'plan', 'diff', 'verify', 'report', 'sessions', 'lab']) expect(r.stdout).toMatch(new RegExp(`^  ${c} `, 'm'));
    expect(r.stdout).toMatch(/^ {2}3 +stopped at a gate awaiting approval, or stopped or declined by\s+the\s+operator/m);
    expect(r.stdout).toMatch(/^ {2}130 +interrupted by a signal/m);
  });

  it.each([
    [['start', '--help'], /--approve-restart NS\/NAME\s+Approve the restart of one VM/],
    [['lab', '--help'], /--scenario NAME\s+Lab scenario \(listed below\)[\s\S]*Scenarios:\n {2}healthy +VMO 4\.4\.10 to 4\.6\.3/],
    [["help", "verify"], /exit\s+0\s+all\s+green,\s+1\s+a\s+red\s+panel/],
  ])('%j describes the command and its options', async (argv, re) => {
    const r = await runCli(argv);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(re);
  });

  it.each([
    [['launch'], /Unknown command "launch"/, /Commands: start, resume/],
    [['plna'], /Unknown command "plna"\. Did you mean plan\?/, /Commands: start, resume/],
    [['start', '--frobnicate'], /Unknown option --frobnicate for `start`\.$/m, /Accepted: --runbook, --params/],
    [['plan', '--parms', 'x'], /Unknown option --parms for `plan`\. Did you mean --params\?/, /Accepted: --runbook, --params/],
    [['plan', '--kubeconfg=x'], /Unknown option --kubeconfg=x for `plan`\. Did you mean --kubeconfig\?|Unknown option --kubeconfg for `plan`\. Did you mean --kubeconfig\?/, /Accepted:/],
    [['lab', '--scenario', 'helthy'], /got "helthy"\. Did you mean healthy\?/, /lab --help/],
    [['start', '--approve', 'helth'], /does not know the gate "helth" \(accepted: [^)]*\)\. Did you mean health\?/, /start --help/],
    [['start', '--approve', 'everything'], /--approve does not know the gate "everything" \(accepted: health, draft, publish, apply, repave, cancel-migrations, drift, stage\)/, /start --help/],
    [['start', '--approve', 'restart'], /VM restarts are approved per VM: use --approve-restart NS\/NAME or --approve-all-restarts/, /start --help/],
    [['start', '--approve-restart', 'just-a-name'], /--approve-restart takes NAMESPACE\/NAME of a VM, got "just-a-name"/, /start --help/],
    [['start', '--api-key', 'abc'], /--api-key is not accepted: a key on the command line shows in the process list/, /UPGRADE_PILOT_API_KEY/],
    [['lab', '--scenario', 'chaos'], /--scenario must be one of healthy, skip-minor, lost-customizations, degraded, large, rook-ceph, repave, pack-error, no-profile-version, no-multus, rook-ceph-no-placement, no-converge, tight, got "chaos"/, /lab --help/],
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
