#!/usr/bin/env node
/**
 * The package as an operator gets it (`npm run test:package`, run by .ci/run): `npm pack`, then
 * `npm install -g` of the tarball into a temporary prefix, offline and with an empty npm cache (so
 * nothing but the tarball can be installed), then every command run from that prefix with a PATH
 * holding only the installed bins, node and kubectl, from a folder outside the clone:
 * --help, --version, `lab --serve`, verify, plan, diff, rehearse, start (to its first gate), resume,
 * sessions, report, the TUI (`lab` in a pseudo-terminal, to its first screen), completion, and the
 * kubectl plugin through the real kubectl (--kubeconfig/--context, $KUBECONFIG, flags before the
 * command). Prints the package's size. About a minute.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { packAndInstall } from '../../scripts/package.mjs';

const tmp = mkdtempSync(join(tmpdir(), 'upgrade-pilot-package-'));
const results = [];
let lab;

const which = (name) => {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const file = join(dir, name);
    if (existsSync(file)) return file;
  }
  throw new Error(`${name} is not on the PATH`);
};

function check(name, fn) {
  const started = Date.now();
  try {
    fn();
    results.push({ name, ok: true });
    process.stdout.write(`ok   ${name} (${Date.now() - started} ms)\n`);
  } catch (err) {
    results.push({ name, ok: false });
    process.stdout.write(`FAIL ${name}: ${err instanceof Error ? err.message : String(err)}\n`);
  }
}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

// ---------------------------------------------------------------------------------------------
// Pack and install

let installed;
check('npm pack, then npm install -g of the tarball: offline, empty cache, no dependency installed', () => {
  installed = packAndInstall(tmp);
  const kb = (n) => `${(n / 1024).toFixed(0)} kB`;
  process.stdout.write(`     package ${installed.tarball.split('/').pop()}: ${kb(installed.packedBytes)} packed, ${kb(installed.unpackedBytes)} unpacked, ${installed.files} files\n`);
  assert(existsSync(installed.cli), 'dist/cli.js is not installed');
  const deps = join(installed.packageDir, 'node_modules');
  assert(!existsSync(deps), `the package installed dependencies: ${existsSync(deps) ? readdirSync(deps).join(', ') : ''}`);
  for (const [name, path] of Object.entries(installed.bins)) assert(existsSync(path), `bin ${name} is missing`);
});
if (!installed) {
  rmSync(tmp, { recursive: true, force: true });
  process.stdout.write('package: 0 passed, 1 failed\n');
  process.exit(1);
}
const prefix = installed.prefix;

// A machine with only Node and kubectl: a PATH of the installed bins and those two, a fresh HOME,
// a working folder outside the clone (nothing resolves from its node_modules).
const only = join(tmp, 'only');
mkdirSync(only);
symlinkSync(realpathSync(process.execPath), join(only, 'node'));
symlinkSync(which('kubectl'), join(only, 'kubectl'));
const home = join(tmp, 'home');
const work = join(tmp, 'work');
mkdirSync(home);
mkdirSync(work);
const env = { PATH: [join(prefix, 'bin'), only].join(delimiter), HOME: home, TERM: 'xterm-256color', NO_COLOR: '1', LANG: process.env.LANG ?? 'C.UTF-8' };
const bin = join(prefix, 'bin', 'upgrade-pilot');

function run(file, args, opts = {}) {
  const r = spawnSync(file, args, { cwd: work, env: { ...env, ...opts.env }, encoding: 'utf8', timeout: opts.timeoutMs ?? 60_000 });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function expectExit(r, code, what) {
  assert(r.code === code, `${what} exited ${r.code}, expected ${code}:\n${r.stderr.slice(-1500)}${r.stdout.slice(-500)}`);
}

// ---------------------------------------------------------------------------------------------
// Commands without a cluster

check('upgrade-pilot --version', () => {
  const r = run(bin, ['--version']);
  expectExit(r, 0, '--version');
  assert(r.stdout.trim() === installed.version, `printed ${r.stdout.trim()}, expected ${installed.version}`);
});

check('upgrade-pilot --help', () => {
  const r = run(bin, ['--help']);
  expectExit(r, 0, '--help');
  for (const c of ['start', 'verify', 'lab', 'completion']) assert(r.stdout.includes(`  ${c} `), `the help does not list ${c}`);
});

check('upgrade-pilot completion bash|zsh|fish: scripts that parse', () => {
  for (const shell of ['bash', 'zsh', 'fish']) {
    const r = run(bin, ['completion', shell]);
    expectExit(r, 0, `completion ${shell}`);
    const file = join(tmp, `completion.${shell}`);
    writeFileSync(file, r.stdout);
    const shellPath = ['/bin', '/usr/bin'].map((d) => join(d, shell)).find((p) => existsSync(p));
    if (!shellPath) {
      process.stdout.write(`     (${shell} is not installed: its script is not parsed)\n`);
      continue;
    }
    const syntax = spawnSync(shellPath, ['-n', file], { encoding: 'utf8' });
    assert(syntax.status === 0, `${shell} -n refused the script:\n${syntax.stderr}`);
  }
});

// ---------------------------------------------------------------------------------------------
// The lab, and every command against it

function startLab() {
  const stateDir = join(tmp, 'lab');
  const child = spawn(bin, ['lab', '--serve', '--scenario', 'healthy', '--speed', '600', '--state-dir', stateDir], { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((done) => child.on('exit', (code, signal) => done({ code, signal })));
  const ready = new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`the lab did not start within 60 s:\n${stderr}`)), 60_000);
    child.stderr.on('data', () => {
      if (stderr.includes(' serving ')) {
        clearTimeout(timer);
        done();
      }
    });
    exited.then(({ code }) => {
      clearTimeout(timer);
      fail(new Error(`the lab exited (${code}) before serving:\n${stderr}`));
    });
  });
  return { child, stateDir, ready, exited, stderr: () => stderr };
}

async function main() {
  lab = startLab();
  await lab.ready;
  const json = JSON.parse(readFileSync(join(lab.stateDir, 'lab.json'), 'utf8'));
  const keyEnv = { UPGRADE_PILOT_API_KEY: json.apiKey };
  const params = json.params;
  const state = join(tmp, 'state');
  check('lab --serve: lab.json and params.yaml written', () => {
    assert(existsSync(params) && existsSync(json.kubeconfig), 'params or kubeconfig missing');
  });

  // verify checks the params' target: the served lab still runs 4.4.10, so that is the target here.
  const atTarget = join(tmp, 'params-at-target.yaml');
  writeFileSync(atTarget, readFileSync(params, 'utf8').replace(/^target: .*$/m, 'target: 4.4.10'));
  // The lab has a past, as real clusters do (a pod evicted a week ago, a failed Job's pod): those are
  // listed as pre-existing (amber), never red.
  check('verify against the lab: green but for the past, exit 0', () => {
    const r = run(bin, ['verify', '--params', atTarget], { env: keyEnv });
    expectExit(r, 0, 'verify');
    assert(/5 green, 0 red, 1 amber, 0 unknown/.test(r.stdout) && /Failed \(Evicted\) 7d00h ago \(pre-existing\)/.test(r.stdout), `unexpected panels:\n${r.stdout}`);
  });
  check('plan: two hops, exit 0', () => {
    const r = run(bin, ['plan', '--params', params], { env: keyEnv });
    expectExit(r, 0, 'plan');
    assert(/in 2 hop\(s\)/.test(r.stdout), r.stdout);
  });
  check('diff: the rules hold, exit 0', () => {
    const r = run(bin, ['diff', '--params', params], { env: keyEnv });
    expectExit(r, 0, 'diff');
    assert(/PASS rule/.test(r.stdout), r.stdout.slice(-500));
  });
  check('rehearse: nothing sent, exit 0', () => {
    const r = run(bin, ['rehearse', '--params', params, '--state-dir', state], { env: keyEnv, timeoutMs: 120_000 });
    expectExit(r, 0, 'rehearse');
  });
  let gateSession = '';
  check('start: stops at the first gate without approval, exit 3', () => {
    const r = run(bin, ['start', '--params', params, '--state-dir', state], { env: keyEnv, timeoutMs: 120_000 });
    expectExit(r, 3, 'start');
    gateSession = /upgrade-pilot resume (\S+)/.exec(r.stderr)?.[1] ?? '';
    assert(gateSession, `no resume command in:\n${r.stderr}`);
  });
  check('resume: reopens the session, still at the gate, exit 3', () => {
    const r = run(bin, ['resume', gateSession, '--state-dir', state], { env: keyEnv, timeoutMs: 120_000 });
    expectExit(r, 3, 'resume');
  });
  check('sessions and report', () => {
    const s = run(bin, ['sessions', '--state-dir', state]);
    expectExit(s, 0, 'sessions');
    assert(s.stdout.includes(gateSession), s.stdout);
    const r = run(bin, ['report', gateSession, '--state-dir', state]);
    expectExit(r, 0, 'report');
  });
  check('completion of session ids: __complete sessions --state-dir', () => {
    const r = run(bin, ['__complete', 'sessions', '--state-dir', state]);
    expectExit(r, 0, '__complete');
    assert(r.stdout.split('\n').includes(gateSession), r.stdout);
  });

  // kubectl finds the plugin on the PATH and passes the words after its name through unchanged.
  const kubectl = join(only, 'kubectl');
  const clusterless = join(tmp, 'params-without-cluster-access.yaml');
  writeFileSync(clusterless, readFileSync(atTarget, 'utf8').replace(/^(\s+)(kubeconfig|context):.*\n/gm, ''));
  check('kubectl plugin list shows kubectl-upgrade_pilot', () => {
    const r = run(kubectl, ['plugin', 'list']);
    assert(r.stdout.includes('kubectl-upgrade_pilot'), `${r.stdout}${r.stderr}`);
  });
  check('kubectl upgrade-pilot --help names itself so', () => {
    const r = run(kubectl, ['upgrade-pilot', '--help']);
    expectExit(r, 0, 'kubectl upgrade-pilot --help');
    assert(r.stdout.includes('Usage: kubectl upgrade-pilot <command>'), r.stdout);
  });
  check('kubectl upgrade-pilot verify --kubeconfig K --context C', () => {
    const r = run(kubectl, ['upgrade-pilot', 'verify', '--params', clusterless, `--kubeconfig=${json.kubeconfig}`, '--context', 'upgrade-pilot-lab'], { env: keyEnv });
    expectExit(r, 0, 'kubectl upgrade-pilot verify');
  });
  check('kubectl upgrade-pilot --context C verify, with $KUBECONFIG', () => {
    const r = run(kubectl, ['upgrade-pilot', '--context', 'upgrade-pilot-lab', 'verify', '--params', clusterless], { env: { ...keyEnv, KUBECONFIG: `${join(tmp, 'absent')}${delimiter}${json.kubeconfig}` } });
    expectExit(r, 0, 'kubectl upgrade-pilot --context C verify');
  });
  check('kubectl upgrade-pilot verify --context of no such context: exit 2, naming it', () => {
    const r = run(kubectl, ['upgrade-pilot', 'verify', '--params', clusterless, '--context', 'no-such-context'], { env: { ...keyEnv, KUBECONFIG: json.kubeconfig } });
    expectExit(r, 2, 'verify with an unknown context');
    assert(r.stderr.includes('no-such-context'), r.stderr);
  });

  check('lab (the TUI) in a pseudo-terminal: its first screens, then Ctrl+C', () => tui());

  lab.child.kill('SIGTERM');
  const end = await lab.exited;
  check('lab --serve stops on SIGTERM, exit 0', () => assert(end.code === 0, `exited ${end.code ?? end.signal}:\n${lab.stderr()}`));
}

/** `upgrade-pilot lab` under `script`: the shell (steps, "Starting the embedded lab"), then the lab's guide. */
function tui() {
  const script = ['/usr/bin/script', '/bin/script'].find((p) => existsSync(p));
  if (!script) {
    process.stdout.write('     (script(1) is not installed: the TUI is not started)\n');
    return;
  }
  const stateDir = join(tmp, 'tui-lab');
  // Keys arrive on the pseudo-terminal's input: none until the guide shows, then Ctrl+C, which
  // stops the session and leaves.
  const out = join(tmp, 'tui.out');
  const driver = `i=0; while [ $i -lt 600 ] && ! grep -q 'Welcome to the upgrade-pilot lab' ${JSON.stringify(out)} 2>/dev/null; do sleep 0.1; i=$((i+1)); done; printf '\\003'; sleep 3`;
  const started = Date.now();
  // The driver uses the machine's tools (grep, sleep); the program gets the PATH of Node and kubectl only.
  // The scenario named: without it, `lab` on a terminal first asks which one.
  const command = `PATH=${JSON.stringify(env.PATH)} exec ${bin} lab --scenario healthy --state-dir ${stateDir}`;
  const r = spawnSync('/bin/sh', ['-c', `(${driver}) | ${script} -qfec ${JSON.stringify(command)} ${JSON.stringify(out)}`], {
    cwd: work,
    env: { ...env, PATH: process.env.PATH, SHELL: '/bin/sh' },
    encoding: 'utf8',
    timeout: 90_000,
  });
  const screen = readFileSync(out, 'utf8').replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
  assert(screen.includes('Starting the embedded lab'), `the first frame never showed:\n${screen.slice(-1500)}`);
  assert(screen.includes('Preflight checks'), 'the first frame has no steps');
  assert(screen.includes('Welcome to the upgrade-pilot lab'), `the lab's guide never showed (exit ${r.status}):\n${screen.slice(-1500)}`);
  assert(r.status !== null && Date.now() - started < 60_000, 'the TUI did not end on Ctrl+C');
}

try {
  await main();
} catch (err) {
  results.push({ name: 'the package test itself', ok: false });
  process.stdout.write(`FAIL ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
} finally {
  if (lab && lab.child.exitCode === null && lab.child.signalCode === null) lab.child.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
}
const failed = results.filter((r) => !r.ok).length;
process.stdout.write(`package: ${results.length - failed} passed, ${failed} failed\n`);
process.exitCode = failed ? 1 : 0;
