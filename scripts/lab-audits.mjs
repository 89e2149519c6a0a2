#!/usr/bin/env node
/**
 * What the product sends, as the lab records it, for three whole runs: `healthy` (spec flavor, two
 * hops), `repave` (palette flavor: clone, draft, publish, apply, node rebuild) and a fleet of four
 * clusters. Each run is the bundled CLI in plain mode against `lab --serve` in a process of its own,
 * every gate approved; the lab's audit (every mutating call) is written as one JSON file per run.
 *
 * For a change that must not change behaviour (a move of code between layers): run it before and
 * after, then compare the files (`diff -r BEFORE AFTER`). Entries keep what the product decided
 * (API, method, path, status, body digest, effect, note); the sequence number and the wall-clock
 * time are dropped, and the fleet's entries are sorted, as its clusters run side by side.
 *
 *   node scripts/build.mjs && node scripts/lab-audits.mjs OUT_DIR [healthy|repave|fleet ...]
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const allGates = 'draft,publish,apply,repave,cancel-migrations';

const runs = {
  healthy: { lab: ['--scenario', 'healthy'], command: (lab, state) => ['start', '--params', lab.params, '--state-dir', state, '--approve', allGates, '--approve-all-restarts'] },
  repave: { lab: ['--scenario', 'repave', '--flavor', 'palette'], command: (lab, state) => ['start', '--params', lab.params, '--state-dir', state, '--approve', allGates, '--approve-all-restarts'] },
  fleet: { lab: ['--fleet', '4'], sorted: true, command: (lab, state) => ['fleet', 'start', '--fleet', lab.fleet, '--state-dir', state, '--approve', `${allGates},stage`, '--approve-all-restarts'] },
};

const [out, ...names] = process.argv.slice(2);
if (!out || names.some((n) => !(n in runs))) {
  process.stderr.write(`usage: node scripts/lab-audits.mjs OUT_DIR [${Object.keys(runs).join('|')} ...]\n`);
  process.exit(2);
}
if (!existsSync(CLI)) {
  process.stderr.write('dist/cli.js is missing: run `node scripts/build.mjs` first\n');
  process.exit(2);
}
mkdirSync(out, { recursive: true });

function started(args, env = {}) {
  const proc = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, CI: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  proc.stdout.on('data', (d) => (output += d));
  proc.stderr.on('data', (d) => (output += d));
  const ended = new Promise((resolve) => proc.on('close', (code, signal) => resolve(code ?? signal)));
  return { proc, ended, output: () => output };
}

async function labJson(dir, lab) {
  const file = join(dir, 'lab.json');
  const since = Date.now();
  while (!existsSync(file)) {
    if (lab.proc.exitCode !== null) throw new Error(`the lab exited with ${lab.proc.exitCode}:\n${lab.output()}`);
    if (Date.now() - since > 180_000) throw new Error('the lab did not start in 180 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  return JSON.parse(readFileSync(file, 'utf8'));
}

const key = (e) => JSON.stringify([e.api, e.path, e.method, e.note ?? '', e.bodyDigest ?? '', e.status, e.effect]);

async function one(name) {
  const run = runs[name];
  const dir = mkdtempSync(join(tmpdir(), `lab-audits-${name}-`));
  const state = join(dir, 'state');
  const lab = started(['lab', '--serve', '--state-dir', join(dir, 'lab'), '--speed', '300', ...run.lab]);
  try {
    const json = await labJson(join(dir, 'lab'), lab);
    const cli = started(run.command(json, state), { UPGRADE_PILOT_API_KEY: json.apiKey });
    const code = await cli.ended;
    const headers = { ApiKey: json.apiKey, ProjectUid: json.projectUid };
    const audit = await (await fetch(json.auditUrl, { headers })).json();
    const entries = audit.map(({ seq: _seq, time: _time, ...kept }) => kept);
    if (run.sorted) entries.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    writeFileSync(join(out, `${name}.json`), `${JSON.stringify({ exitCode: code, audit: entries }, null, 1)}\n`);
    writeFileSync(join(out, `${name}.log`), cli.output());
    process.stdout.write(`${name}: exit ${code}, ${entries.length} audit entries\n`);
  } finally {
    lab.proc.kill('SIGTERM');
    await lab.ended;
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const name of names.length ? names : Object.keys(runs)) await one(name);
