/**
 * Verification at scale: `upgrade-pilot verify` (the real CLI process) against a `large` lab, and
 * the alternatives an operator has, all against the same lab in the same run:
 *
 *  - bare: the very API paths verify reads (learnt from a PATH wrapper that logs verify's kubectl
 *    calls), fetched with parallel `kubectl get --raw` into /dev/null, plus the same profile API read
 *    with curl. Nothing parsed: the cost of moving the bytes.
 *  - json: `kubectl get KIND -A -o json` for each kind verify reads (one call per kind, in parallel,
 *    warm discovery cache), plus the same profile read.
 *  - loop: a per-VM script (`kubectl get vmi NS/NAME -o json` and the VM's launcher pod by label),
 *    timed on 100 VMs and scaled to the lab's VM count.
 *
 * Memory is the peak RSS of the largest process of each (GNU time), and for verify also the node
 * process's own peak (rss-hook.ts).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LabProcess } from './lab-process.js';
import { measure, type Measured } from './measure.js';

export interface VerifyEnv {
  /** Folder for scripts, caches and wrappers (removed by the caller). */
  root: string;
  /** The installed package's dist/cli.js */
  cli: string;
  /** dist-bench/bench/rss-hook.js */
  hook: string;
}

export interface Sample {
  wallMs: number;
  /** Largest process of the tree, KiB. */
  peakKb: number | undefined;
  /** The node process alone (verify only), KiB. */
  ownPeakKb?: number | undefined;
}

export interface VerifySample extends Sample {
  /** Verify's own reported time (fetch and checks, without process start), ms. */
  innerMs: number | undefined;
  overall: string | undefined;
}

const sample = (m: Measured): Sample => ({ wallMs: m.wallMs, peakKb: m.peakKb, ...(m.ownPeakKb !== undefined ? { ownPeakKb: m.ownPeakKb } : {}) });

function fail(what: string, m: Measured): never {
  throw new Error(`${what} exited ${m.code}:\n${m.stderr.slice(-2000)}`);
}

const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/** The kubectl on the PATH, resolved once (the wrapper must not find itself). */
export function realKubectl(): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const file = join(dir, 'kubectl');
    try {
      if (readFileSync(file).length > 0) return file;
    } catch {
      // not here
    }
  }
  throw new Error('kubectl is not on the PATH');
}

export class VerifyBench {
  private readonly kubectl = realKubectl();
  private readonly dir: string;
  private readonly cacheDir: string;
  private readonly headerFile: string;
  /** Verify's kubectl API paths, learnt by the wrapper on the first run. */
  rawPaths: string[] = [];
  profilePath: string;

  constructor(
    private readonly env: VerifyEnv,
    readonly lab: LabProcess,
  ) {
    this.dir = mkdtempSync(join(env.root, `verify-${lab.sizes.vms}-`));
    this.cacheDir = join(this.dir, 'kube-cache');
    mkdirSync(this.cacheDir);
    this.headerFile = join(this.dir, 'palette-headers');
    writeFileSync(this.headerFile, `ApiKey: ${lab.json.apiKey}\nProjectUid: ${lab.json.projectUid}\n`, { mode: 0o600 });
    const collection = /clusterCollection:\s*(\S+)/.exec(readFileSync(lab.json.params, 'utf8'))?.[1] ?? 'spectroclusters';
    this.profilePath = `${lab.json.paletteUrl}/v1/${collection}/${lab.json.clusterUid}/profiles`;
  }

  private flags(): string {
    return `--kubeconfig ${q(this.lab.json.kubeconfig)} --context upgrade-pilot-lab --request-timeout=60s --cache-dir=${q(this.cacheDir)}`;
  }

  private curl(): string {
    return `curl -sf -o /dev/null -H @${q(this.headerFile)} ${q(this.profilePath)}`;
  }

  /** A shell script that runs every line in parallel and fails when any does. */
  private parallelScript(name: string, lines: string[]): string {
    const body = lines.map((l, i) => `${l} > /dev/null & p${i}=$!`);
    const waits = `s=0\nfor p in ${lines.map((_, i) => `$p${i}`).join(' ')}; do wait $p || s=1; done\nexit $s`;
    const file = join(this.dir, name);
    writeFileSync(file, `#!/bin/sh\n${body.join('\n')}\n${waits}\n`);
    return file;
  }

  private verifyArgs(extra: string[] = []): string[] {
    return ['--import', pathToFileURL(this.env.hook).href, this.env.cli, 'verify', '--params', this.lab.json.params, '--json', ...extra];
  }

  private async runVerify(extraEnv: NodeJS.ProcessEnv = {}, extraArgs: string[] = []): Promise<VerifySample> {
    const m = await measure(process.execPath, this.verifyArgs(extraArgs), { env: { UPGRADE_PILOT_API_KEY: this.lab.json.apiKey, ...extraEnv }, ownRss: true, timeoutMs: 300_000 });
    if (m.code !== 0 && m.code !== 1) fail('upgrade-pilot verify', m);
    let innerMs: number | undefined;
    let overall: string | undefined;
    try {
      const out = JSON.parse(m.stdout) as { ms?: number; overall?: string };
      innerMs = out.ms;
      overall = out.overall;
    } catch {
      fail('upgrade-pilot verify (output is not JSON)', m);
    }
    return { ...sample(m), innerMs, overall };
  }

  /** Runs verify with a kubectl first on the PATH that logs each call; the calls, split into arguments. */
  private async logKubectlCalls(name: string, extraArgs: string[] = []): Promise<{ calls: string[][]; sample: VerifySample }> {
    const wrapDir = join(this.dir, name);
    mkdirSync(wrapDir);
    const log = join(wrapDir, 'calls.log');
    writeFileSync(log, '');
    writeFileSync(join(wrapDir, 'kubectl'), `#!/bin/sh\nfor a in "$@"; do printf '%s\\t' "$a"; done >> ${q(log)}\necho >> ${q(log)}\nexec ${q(this.kubectl)} "$@"\n`);
    chmodSync(join(wrapDir, 'kubectl'), 0o755);
    const s = await this.runVerify({ PATH: `${wrapDir}${delimiter}${process.env.PATH ?? ''}` }, extraArgs);
    const calls = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((line) => line.split('\t').filter(Boolean));
    return { calls, sample: s };
  }

  /**
   * The warm-up runs. Verify reads through one `kubectl proxy`, so its API paths are learnt from a
   * run with the proxy turned off (a copy of the bundled runbook with `kubectlReadProxy: false`):
   * one `kubectl get --raw` per path. A second run, as measured, counts its kubectl processes.
   */
  async learnPaths(): Promise<{ calls: number; processes: number; sample: VerifySample }> {
    const bundled = join(dirname(this.env.cli), 'runbooks', 'vmo-upgrade.yaml');
    const noProxy = join(this.dir, 'runbook-no-proxy.yaml');
    writeFileSync(noProxy, readFileSync(bundled, 'utf8').replace(/^settings:\n/m, 'settings:\n  kubectlReadProxy: false\n'));
    const learnt = await this.logKubectlCalls('wrap-no-proxy', ['--runbook', noProxy]);
    this.rawPaths = learnt.calls.map((args) => {
      const at = args.indexOf('--raw');
      if (args[at - 1] !== 'get' || at < 0 || !args[at + 1]) throw new Error(`verify made a kubectl call that is not \`get --raw\`: ${args.join(' ')}`);
      return args[at + 1]!;
    });
    const measured = await this.logKubectlCalls('wrap');
    if (!measured.calls.some((args) => args.includes('proxy'))) throw new Error(`verify did not read through a kubectl proxy: ${measured.calls.map((a) => a.join(' ')).join('; ')}`);
    return { calls: learnt.calls.length, processes: measured.calls.length, sample: measured.sample };
  }

  verify(): Promise<VerifySample> {
    return this.runVerify();
  }

  /** `upgrade-pilot plan --json` against the same lab (issue 36: within 2× verify, taken beside it). */
  async plan(): Promise<Sample> {
    const m = await measure(process.execPath, ['--import', pathToFileURL(this.env.hook).href, this.env.cli, 'plan', '--params', this.lab.json.params, '--json'], {
      env: { UPGRADE_PILOT_API_KEY: this.lab.json.apiKey },
      ownRss: true,
      timeoutMs: 300_000,
    });
    if (m.code !== 0) fail('upgrade-pilot plan', m);
    return sample(m);
  }

  /** One more verify (or plan) under `node --cpu-prof` (slower than the measured runs): the profile's path. */
  async profile(command: 'verify' | 'plan' = 'verify'): Promise<string> {
    const dir = mkdtempSync(join(this.dir, 'cpu-prof-'));
    const m = await measure(process.execPath, ['--cpu-prof', '--cpu-prof-dir', dir, this.env.cli, command, '--params', this.lab.json.params, '--json'], {
      env: { UPGRADE_PILOT_API_KEY: this.lab.json.apiKey },
      noPeak: true,
      timeoutMs: 300_000,
    });
    if (m.code !== 0 && (command === 'plan' || m.code !== 1)) fail(`upgrade-pilot ${command} --cpu-prof`, m);
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) throw new Error(`${command} wrote no CPU profile`);
    return join(dir, file);
  }

  /** (a) the same API paths, parallel `kubectl get --raw`, nothing parsed; plus the profile read. */
  async bare(): Promise<Sample> {
    if (!this.rawPaths.length) throw new Error('learnPaths() first');
    const script = this.parallelScript('bare.sh', [...this.rawPaths.map((p) => `${q(this.kubectl)} ${this.flags()} get --raw ${q(p)}`), this.curl()]);
    const m = await measure('sh', [script], { timeoutMs: 300_000 });
    if (m.code !== 0) fail('the bare baseline', m);
    return sample(m);
  }

  /**
   * (a') The floor of verify's own transport: one `kubectl proxy` on a Unix socket and the same
   * reads with curl, in parallel, as verify asks for them (VM instances as the server's table with
   * each object's metadata); nothing parsed. Includes the proxy's start, as verify's run does.
   */
  async proxyFloor(): Promise<Sample> {
    if (!this.rawPaths.length) throw new Error('learnPaths() first');
    const sock = join(this.dir, 'floor.sock');
    const table = 'Accept: application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
    const reads = this.rawPaths.map((p) =>
      /\/virtualmachineinstances$/.test(p)
        ? `curl -sf -o /dev/null --unix-socket ${q(sock)} -H ${q(table)} ${q(`http://localhost${p}?includeObject=Metadata`)}`
        : `curl -sf -o /dev/null --unix-socket ${q(sock)} ${q(`http://localhost${p}`)}`,
    );
    const file = join(this.dir, 'proxy-floor.sh');
    writeFileSync(
      file,
      `#!/bin/sh\nrm -f ${q(sock)}\n${q(this.kubectl)} ${this.flags()} proxy --unix-socket=${q(sock)} > /dev/null & k=$!\nwhile [ ! -S ${q(sock)} ]; do sleep 0.005; done\n` +
        `${[...reads, this.curl()].map((l, i) => `${l} & p${i}=$!`).join('\n')}\ns=0\nfor p in ${[...reads, this.curl()].map((_, i) => `$p${i}`).join(' ')}; do wait $p || s=1; done\nkill $k\nexit $s\n`,
    );
    const m = await measure('sh', [file], { timeoutMs: 300_000 });
    if (m.code !== 0) fail('the proxy floor', m);
    return sample(m);
  }

  /** The kinds verify reads, each as `kubectl get -A -o json` of the whole kind. */
  jsonKinds(): string[] {
    const kinds = new Set<string>();
    for (const p of this.rawPaths) {
      const path = p.split('?')[0]!;
      const parts = path.split('/').filter(Boolean);
      // /api/v1/[namespaces/NS/]RESOURCE[/NAME] or /apis/GROUP/VERSION/[namespaces/NS/]RESOURCE[/NAME]
      const [group, version, rest] = parts[0] === 'api' ? ['', parts[1]!, parts.slice(2)] : [parts[1]!, parts[2]!, parts.slice(3)];
      const resource = rest[0] === 'namespaces' && rest.length >= 3 ? rest[2]! : rest[0]!;
      kinds.add(group ? `${resource}.${version}.${group}` : resource);
    }
    return [...kinds];
  }

  /** Warms kubectl's discovery cache for the -o json and loop alternatives (an operator's is warm). */
  warmDiscovery(): void {
    execFileSync(this.kubectl, [...this.flagArgs(), 'get', 'virtualmachineinstances.v1.kubevirt.io', '-n', 'default', '-o', 'name'], { stdio: 'ignore' });
  }

  /** The kubectl the dispatcher picks for this server, and the server's version. */
  kubectlVersions(): { client: string; server: string } {
    try {
      const out = JSON.parse(execFileSync(this.kubectl, [...this.flagArgs(), 'version', '-o', 'json'], { encoding: 'utf8' })) as { clientVersion?: { gitVersion?: string }; serverVersion?: { gitVersion?: string } };
      return { client: out.clientVersion?.gitVersion ?? 'unknown', server: out.serverVersion?.gitVersion ?? 'unknown' };
    } catch {
      return { client: 'unknown', server: 'unknown' };
    }
  }

  private flagArgs(): string[] {
    return ['--kubeconfig', this.lab.json.kubeconfig, '--context', 'upgrade-pilot-lab', '--request-timeout=60s', `--cache-dir=${this.cacheDir}`];
  }

  /** (b) `kubectl get KIND -A -o json` for each kind, in parallel; plus the profile read. */
  async json(): Promise<Sample> {
    const script = this.parallelScript('json.sh', [...this.jsonKinds().map((k) => `${q(this.kubectl)} ${this.flags()} get ${q(k)} -A -o json`), this.curl()]);
    const m = await measure('sh', [script], { timeoutMs: 300_000 });
    if (m.code !== 0) fail('kubectl get -o json', m);
    return sample(m);
  }

  /** VMIs to loop over: `count` of them spread over the namespaces. */
  loopTargets(count: number): Array<{ namespace: string; name: string }> {
    const out = execFileSync(this.kubectl, [...this.flagArgs(), 'get', '--raw', '/apis/kubevirt.io/v1/virtualmachineinstances'], { maxBuffer: 1 << 30 }).toString();
    const items = (JSON.parse(out) as { items: Array<{ metadata: { namespace: string; name: string } }> }).items;
    const step = Math.max(1, Math.floor(items.length / count));
    return items.filter((_, i) => i % step === 0).slice(0, count).map((i) => i.metadata);
  }

  /** (c) a per-VM script: two kubectl calls per VM, one after the other, as a shell loop does. */
  async loop(targets: Array<{ namespace: string; name: string }>): Promise<Sample> {
    const lines = targets.flatMap((t) => [
      `${q(this.kubectl)} ${this.flags()} get vmi -n ${q(t.namespace)} ${q(t.name)} -o json > /dev/null || s=1`,
      `${q(this.kubectl)} ${this.flags()} get pods -n ${q(t.namespace)} -l ${q(`kubevirt.io/domain=${t.name}`)} -o json > /dev/null || s=1`,
    ]);
    const file = join(this.dir, 'loop.sh');
    writeFileSync(file, `#!/bin/sh\ns=0\n${lines.join('\n')}\nexit $s\n`);
    const m = await measure('sh', [file], { timeoutMs: 600_000 });
    if (m.code !== 0) fail('the per-VM loop', m);
    return sample(m);
  }

  /** `kubectl get --raw /api/v1/pods` (issue 3's acceptance: under 2 s at 20,000 pods). */
  async rawPods(): Promise<Sample> {
    const file = join(this.dir, 'raw-pods.sh');
    writeFileSync(file, `#!/bin/sh\nexec ${q(this.kubectl)} ${this.flags()} get --raw /api/v1/pods > /dev/null\n`);
    const m = await measure('sh', [file], { timeoutMs: 120_000 });
    if (m.code !== 0) fail('kubectl get --raw /api/v1/pods', m);
    return sample(m);
  }
}
