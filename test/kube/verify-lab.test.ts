/**
 * `upgrade-pilot verify` against the lab, through the real kubectl: the panels per scenario, the
 * number of kubectl processes per round (a PATH wrapper counts them), and an expired token.
 */
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../src/cli/args.js';
import { runVerifyCommand } from '../../src/commands/verify.js';
import type { CheckResult } from '../../src/domain/checks/types.js';
import { startLab, type LabHandle } from '../../src/lab/index.js';
import { builtinSteps } from '../../src/steps/index.js';

let lab: LabHandle | undefined;
afterEach(async () => {
  await lab?.close();
  lab = undefined;
});

async function verify(l: LabHandle, env: NodeJS.ProcessEnv = {}, extra: string[] = [], params = l.params) {
  // An empty state dir of its own: no session of this machine decides what counts as the past.
  const stateDir = mkdtempSync(join(tmpdir(), 'up-vlab-state-'));
  const parsed = parseCommandLine(['verify', '--params', params, '--runbook', 'test/fixtures/runbooks/checks.yaml', '--json', '--state-dir', stateDir, ...extra]);
  if (parsed.kind !== 'run') throw new Error('bad argv');
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  const io = { stdout: stdout as unknown as NodeJS.WriteStream, stderr: new PassThrough() as unknown as NodeJS.WriteStream, stdin: process.stdin, env: { UPGRADE_PILOT_API_KEY: l.apiKey, ...env } };
  const code = await runVerifyCommand(parsed.invocation.options, io, builtinSteps());
  const result = out ? (JSON.parse(out) as { overall: string; results: CheckResult[]; since: { at?: string; source: string } }) : undefined;
  return { code, result, byId: Object.fromEntries((result?.results ?? []).map((r) => [r.id, r])) };
}

/** A `kubectl` earlier on the PATH that logs each call and runs the real one. */
function countingKubectl(): { path: string; calls: () => number } {
  const dir = mkdtempSync(join(tmpdir(), 'up-kubectl-wrap-'));
  const log = join(dir, 'calls.log');
  writeFileSync(log, '');
  const real = process.env.PATH!.split(delimiter).map((p) => join(p, 'kubectl')).find((p) => {
    try {
      return readFileSync(p).length > 0;
    } catch {
      return false;
    }
  })!;
  writeFileSync(join(dir, 'kubectl'), `#!/bin/sh\necho "$*" >> ${log}\nexec ${real} "$@"\n`);
  chmodSync(join(dir, 'kubectl'), 0o755);
  return { path: `${dir}${delimiter}${process.env.PATH}`, calls: () => readFileSync(log, 'utf8').split('\n').filter(Boolean).length };
}

/** The lab's params with another target (the lab's cluster is never upgraded by `verify`). */
function paramsWithTarget(l: LabHandle, target: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'up-vlab-params-')), 'params.yaml');
  writeFileSync(file, readFileSync(l.params, 'utf8').replace(/^target: .*$/m, `target: ${target}`));
  return file;
}

describe('verify against the lab', () => {
  it('a cluster not yet upgraded to the params’ target: the profiles and the VM orchestration versions are red; exit 1', async () => {
    lab = await startLab({ scenario: 'healthy', stateDir: mkdtempSync(join(tmpdir(), 'up-vlab-')), speed: 1, seed: 3 });
    const { code, result, byId } = await verify(lab);
    // The lab's past (a week-old eviction, a failed Job's pod) is amber with its age: no session says when an upgrade began.
    expect(result?.results.map((r) => `${r.id}:${r.status}`)).toEqual(['profiles:fail', 'components:fail', 'workloads:pass', 'storage:pass', 'network:pass', 'nodes:warn']);
    expect(byId.profiles?.evidence).toContain('vmo-core-addon: pack virtual-machine-orchestrator at 4.4.10, expected 4.6.3');
    expect(byId.components?.evidence.join('\n')).toMatch(/KubeVirt observed version v1\.2\.0, expected v1\.\d+\.\d+/);
    expect((result as unknown as { notes: string[] }).notes[0]).toMatch(/^Target virtual-machine-orchestrator 4\.6\.3: KubeVirt v1\.\d+\.\d+, CDI v\S+ \(from the virtual-machine-orchestrator 4\.6\.3 defaults in registry "Palette Registry"/);
    expect(code).toBe(1);
  });

  it('a cluster at the params’ target (here the deployed version): every check green', async () => {
    lab = await startLab({ scenario: 'healthy', stateDir: mkdtempSync(join(tmpdir(), 'up-vlab-')), speed: 1, seed: 3 });
    const { code, result } = await verify(lab, {}, [], paramsWithTarget(lab, '4.4.10'));
    expect(result?.results.map((r) => `${r.id}:${r.status}`)).toEqual(['profiles:pass', 'components:pass', 'workloads:pass', 'storage:pass', 'network:pass', 'nodes:warn']);
    expect(code).toBe(0);
    // No session on this cluster: every recorded failure is the past, listed with its age, and the output says why.
    expect(result?.since).toEqual({ source: 'no session on this cluster in the state dir: every recorded failure is listed with its age (pass --since TIME to judge from a time)' });
    const nodes = result?.results.find((r) => r.id === 'nodes');
    expect(nodes?.evidence).toEqual(['pod kube-system/coredns-7c65d6cfc9-x2q7r: Failed (Evicted) 7d00h ago (pre-existing)', 'pod kube-system/etcd-defrag-29012960-8kq4z: Failed 3d00h ago (pre-existing)']);
    // db-01's failures a later success superseded are not even amber.
    expect(result?.results.find((r) => r.id === 'workloads')?.summary).toMatch(/2 failed earlier and superseded by a later success/);
    // With --since the failures before it are "before this session": the eviction a week ago is.
    const since = await verify(lab, {}, ['--since', '2d'], paramsWithTarget(lab, '4.4.10'));
    expect(since.result?.since.source).toMatch(/^--since 2d \(\S+Z, lab time\)$/);
    expect(since.result?.results.find((r) => r.id === 'nodes')?.evidence[0]).toBe('pod kube-system/coredns-7c65d6cfc9-x2q7r: Failed (Evicted) 7d00h ago, before this session (pre-existing)');
  });

  it('degraded: storage, network and nodes red with their evidence; exit 1; --junit fails one test case per red panel', async () => {
    lab = await startLab({ scenario: 'degraded', stateDir: mkdtempSync(join(tmpdir(), 'up-vlab-')), speed: 1, seed: 3 });
    lab.clock.advance(5 * 60_000);
    const junit = join(mkdtempSync(join(tmpdir(), 'up-vlab-junit-')), 'verify.xml');
    const { code, byId, result } = await verify(lab, {}, ['--junit', junit]);
    expect(code).toBe(1);
    const xml = readFileSync(junit, 'utf8');
    const failing = [...xml.matchAll(/<testcase [^>]*name="([^"]+)"[^>]*>\s*<failure /g)].map((m) => m[1]);
    expect(failing).toEqual(result!.results.filter((r) => r.status === 'fail').map((r) => `${r.title} (${r.spec})`));
    expect(xml.match(/<testcase /g)).toHaveLength(result!.results.length);
    expect(xml).toMatch(/<failure message="[^"]*" type="red-panel">[^<]*monitoring\/grafana-external holds 10\.10\.100\.50/);
    expect(byId.storage?.status).toBe('fail');
    expect(byId.storage?.evidence.join('\n')).toMatch(/storage cluster portworx\/px-cluster: phase Degraded/);
    expect(byId.network?.status).toBe('fail');
    expect(byId.network?.evidence.join('\n')).toMatch(/monitoring\/grafana-external holds 10\.10\.100\.50 but should hold no load-balancer address/);
    expect(byId.nodes?.status).toBe('fail');
    expect(byId.nodes?.evidence.join('\n')).toMatch(/node vmo-worker-2: not Ready/);
    expect(byId.nodes?.evidence.join('\n')).toMatch(/pod monitoring\/\S*kube-state-metrics\S*: CrashLoopBackOff \(restarts \d+\)/);
    expect(byId.profiles?.status).toBe('fail'); // and not at the target yet
  });

  it('the number of kubectl processes per round does not grow with the number of VMs', async () => {
    const counts: number[] = [];
    for (const vms of [100, 2000]) {
      lab = await startLab({ scenario: 'large', stateDir: mkdtempSync(join(tmpdir(), 'up-vlab-')), speed: 1, seed: 3, sizes: { vms, nodes: vms / 10, pods: vms * 4 } });
      const wrap = countingKubectl();
      const r = await verify(lab, { PATH: wrap.path });
      expect(r.result?.results).toHaveLength(6);
      counts.push(wrap.calls());
      await lab.close();
      lab = undefined;
    }
    expect(counts[0]).toBe(counts[1]);
    expect(counts[0]).toBeLessThanOrEqual(16);
  }, 120_000);

  it('an expired token stops verification with the fresh-access advice and exit 4', async () => {
    lab = await startLab({ scenario: 'healthy', stateDir: mkdtempSync(join(tmpdir(), 'up-vlab-')), speed: 1, seed: 3 });
    lab.expireToken();
    await expect(verify(lab)).rejects.toMatchObject({ exitCode: 4, message: expect.stringMatching(/refused the credentials .*expired or is not valid/), hint: expect.stringMatching(/fresh cluster access file/) });
  });
});
