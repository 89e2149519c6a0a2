import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseCommandLine } from '../../../src/cli/args.js';
import { runPlanCommand } from '../../../src/commands/plan.js';
import { exitCodeOf } from '../../../src/errors.js';
import type { RunIO } from '../../../src/run/session-run.js';
import { builtinSteps } from '../../../src/steps/index.js';
import { API_KEY } from '../../lab/palette/support.js';
import { seedHealthyCluster } from './support/cluster-seed.js';
import { startDoubles, type Doubles } from './support/doubles.js';

function capture(env: NodeJS.ProcessEnv): { io: RunIO; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  const io = {
    stdout: { write: (s: string) => ((out += s), true) },
    stderr: { write: (s: string) => ((err += s), true) },
    stdin: {},
    env,
  } as unknown as RunIO;
  return { io, out: () => out, err: () => err };
}

describe('upgrade-pilot plan (runPlanCommand)', () => {
  let d: Doubles;
  let dir: string;
  const paramsFile = (name: string, change: (p: Record<string, unknown>) => void = () => undefined) => {
    const s = d.site;
    const doc: Record<string, unknown> = {
      palette: { baseUrl: s.palette.baseUrl, projectUid: s.palette.projectUid, clusterCollection: s.palette.clusterCollection },
      cluster: { uid: s.cluster.uid, name: s.cluster.name, kubeconfig: d.kube.kubeconfig, context: 'lab' },
      profiles: s.profiles,
      target: s.target,
      references: s.references,
      site: { ingressIP: s.site.ingressIP, blockStorageClass: s.site.blockStorageClass },
    };
    change(doc);
    const file = join(dir, `${name}.yaml`);
    writeFileSync(file, stringify(doc));
    return file;
  };
  const plan = (args: string[], env: NodeJS.ProcessEnv = { UPGRADE_PILOT_API_KEY: API_KEY }) => {
    const parsed = parseCommandLine(['plan', ...args]);
    if (parsed.kind !== 'run') throw new Error('not a run');
    const c = capture(env);
    return { c, result: runPlanCommand(parsed.invocation.options, c.io, builtinSteps()) };
  };

  beforeAll(async () => {
    d = await startDoubles({ seed: seedHealthyCluster, dialect: 'palette' });
    dir = mkdtempSync(join(tmpdir(), 'up6-cmd-'));
  });
  afterAll(async () => {
    await d.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints the hops, each profile change and label, and the VM impact as text (exit 0)', async () => {
    const { c, result } = plan(['--params', paramsFile('ok')]);
    expect(await result).toBe(0);
    const text = c.out();
    const refs = d.profiles.references;
    expect(text).toContain('upgrade-pilot plan: vmo-test: virtual-machine-orchestrator 4.4.10 → 4.6.3 in 2 hop(s) of one minor version each\n  4.4.10 ─▶ 4.5.4 ─▶ 4.6.3\n');
    expect(text).toContain(
      [
        'Hop 1: 4.4.10 → 4.5.4 (deploys KubeVirt v1.3.1, CDI v1.60.3); 4.5.4 is the highest 4.5.x tag in the reference profiles in the params file',
        `  vmo-infra: version 1.4.0 → 1.5.0 (reference profile ${refs[1]!.infra.uid})`,
        '    cni-cilium-oss 1.16.6 → 1.16.9',
        '    csi-portworx-generic 3.1.4 → 3.1.8',
        `  vmo-core-addon: version 1.4.0 → 1.5.0 (reference profile ${refs[1]!.addon.uid})`,
        '    lb-metallb-helm 0.14.8 → 0.14.9',
        '    nginx 1.10.1 → 1.11.3',
        '    virtual-machine-orchestrator 4.4.10 → 4.5.4',
        '    prometheus-operator 58.7.2 → 62.3.1',
      ].join('\n'),
    );
    expect(text).toContain(
      [
        'VM impact: 3 live-migrate, 0 evicted, 1 need a restart, 1 not running',
        '  restart      vms/build-cache-01 on node-3: cannot live-migrate (DisksNotLiveMigratable) and Evict is not a workload update method: stays on the old launcher',
        '               DisksNotLiveMigratable: a disk cannot follow it to another node (a ReadWriteOnce volume, a hostDisk, or shared and unshared volumes mixed): give it ReadWriteMany storage to let it live-migrate; evictionStrategy None, runStrategy Always',
        '  not-running  vms/legacy-app-01: not running (runStrategy Halted): it starts on the new launcher when started',
        '  live-migrate 3 VM(s) (listed with --json)',
      ].join('\n'),
    );
    expect(text).not.toContain(API_KEY);
  });

  it('prints the same plan as one JSON object with --json', async () => {
    const { c, result } = plan(['--params', paramsFile('ok-json'), '--json']);
    expect(await result).toBe(0);
    const json = JSON.parse(c.out()) as Record<string, unknown> & { hops: Array<{ to: string }>; impact: Array<{ vm: string; fate: string }> };
    expect(json).toMatchObject({ cluster: 'vmo-test', status: 'planned', pack: 'virtual-machine-orchestrator', deployed: '4.4.10', target: '4.6.3' });
    expect(json.hops.map((h) => h.to)).toEqual(['4.5.4', '4.6.3']);
    expect(json.impact).toContainEqual(expect.objectContaining({ vm: 'vms/build-cache-01', fate: 'restart', reasonCode: 'DisksNotLiveMigratable' }));
    // Issue 27: each hop's window as a range and its parts; each VM's predicted start and duration
    const hop = (json.hops as unknown as Array<{ eta: { p50Seconds: number; p90Seconds: number; parts: Array<{ what: string; p50Seconds: number }> } }>)[0]!;
    expect(hop.eta.parts.map((p) => p.what)).toEqual(['pack-rollout', 'migrations', 'restarts']);
    // vms/build-cache-01 restarts at a gate: its time is in the hop's.
    expect(hop.eta.parts[2]!.p50Seconds).toBeGreaterThan(0);
    expect(hop.eta.p50Seconds).toBe(hop.eta.parts.reduce((a, p) => a + p.p50Seconds, 0));
    expect(hop.eta.p90Seconds).toBeGreaterThan(hop.eta.p50Seconds);
    const moving = (json.impact as Array<{ fate: string; predicted?: { startSeconds: number; durationSeconds: { p50: number; p90: number } } }>).filter((i) => i.fate === 'live-migrate');
    expect(moving.length).toBeGreaterThan(0);
    for (const m of moving) expect(m.predicted!.durationSeconds.p90).toBeGreaterThanOrEqual(m.predicted!.durationSeconds.p50);
    expect(json).toHaveProperty('window.limits.parallelMigrationsPerCluster');
    expect(c.out().trim().split('\n')).toHaveLength(1);
  });

  it('prints the refusal and what to do, exit 2 (bad input), when the plan would skip a minor', async () => {
    const file = paramsFile('skip', (p) => {
      p.references = (p.references as Array<{ version: string }>).filter((r) => r.version !== '4.5.4');
    });
    const { c, result } = plan(['--params', file]);
    expect(await result).toBe(2);
    expect(c.out()).toBe(
      [
        'upgrade-pilot plan: vmo-test: virtual-machine-orchestrator 4.4.10 → 4.6.3: REFUSED',
        '  No 4.5.x version is available to step through from 4.4.10 to 4.6.3; skipping a minor version makes the automatic live migrations of running VMs fail: the old and new launchers are incompatible (spec 9.1.1).',
        '  what to do: Add a reference profile (or a values folder entry) for a 4.5.x version of the pack, then plan again.',
        '',
      ].join('\n'),
    );
  });

  it('exits 4 when the profile API refuses the key, 2 without --params', async () => {
    const { result } = plan(['--params', paramsFile('bad-key')], { UPGRADE_PILOT_API_KEY: 'not-the-key' });
    const err = await result.catch((e: unknown) => e);
    expect(exitCodeOf(err)).toBe(4);
    expect((err as Error).message).toMatch(/did not accept the API key \(401 Unauthorized\)/);
    expect((err as Error).message).not.toContain('not-the-key');
    const missing = plan([]);
    expect(exitCodeOf(await missing.result.catch((e: unknown) => e))).toBe(2);
  });
});
