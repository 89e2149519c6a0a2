#!/usr/bin/env node
/**
 * What the product sends, as the lab records it, for three whole runs: `healthy` (spec flavor, two
 * hops), `repave` (palette flavor: clone, draft, publish, apply, node rebuild) and a fleet of four
 * clusters. Each run is the bundled CLI in plain mode against `lab --serve` in a process of its own,
 * every gate approved; the lab's audit (every mutating call) is written as one JSON file per run.
 *
 * For a change that must not change behaviour (a move of code between layers): run it before and
 * after, then compare the files (`diff -r BEFORE AFTER`). Entries keep what the product decided
 * (API, method, path, status, effect, note); the lab makes new uids every time, so each uid is
 * written as what it names (`<profile vmo-infra 1.6.0>`, `<cluster store-002>`), and as a body's
 * digest hides uids, the bodies are compared by their effect instead: every profile the run wrote,
 * read back at the end. The sequence number and the wall-clock time are dropped, and the fleet's
 * entries are sorted, as its clusters run side by side.
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

const key = (e) => JSON.stringify([e.api, e.path, e.method, e.note ?? '', e.status, e.effect]);
const UID = /\b[0-9a-f]{24}\b/g;

/** What each uid of the run names: the lab's own from lab.json, the profiles a clone made from its note. */
function uidNames(json, audit) {
  const names = new Map();
  const name = (uid, what) => uid && !names.has(uid) && names.set(uid, `<${what}>`);
  name(json.profileUids?.addon, 'profile addon');
  name(json.profileUids?.infra, 'profile infra');
  name(json.clusterUid, 'cluster');
  for (const c of json.clusters ?? []) name(c.uid, `cluster ${c.name}`);
  for (const e of audit) {
    const clone = /^clone (.+) to (.+) \(([0-9a-f]{24})\)$/.exec(e.note ?? '');
    if (clone) {
      name(/clusterprofiles\/([0-9a-f]{24})\/clone/.exec(e.path)?.[1], `profile ${clone[1]}`);
      name(clone[3], `profile ${clone[2]}`);
    }
  }
  return (text) => text.replace(UID, (uid) => names.get(uid) ?? '<uid>');
}

/** Every profile the run wrote (PUT), as the lab holds it at the end, uids named, times left out. */
async function writtenProfiles(json, audit, named) {
  const headers = { ApiKey: json.apiKey, ProjectUid: json.projectUid };
  const uids = [...new Set(audit.filter((e) => e.api === 'palette' && e.method === 'PUT' && e.effect === 'applied').map((e) => /^\/v1\/clusterprofiles\/([0-9a-f]{24})$/.exec(e.path)?.[1]).filter(Boolean))];
  const out = {};
  for (const uid of uids) {
    const text = await (await fetch(`${json.paletteUrl}/v1/clusterprofiles/${uid}`, { headers })).text();
    out[named(uid)] = JSON.parse(named(text).replace(/"\d{4}-\d\d-\d\dT[\d:.]+Z"/g, '"<time>"'));
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}

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
    const named = uidNames(json, audit);
    const entries = audit.map(({ seq: _seq, time: _time, bodyDigest: _digest, ...kept }) => ({ ...kept, path: named(kept.path), ...(kept.note ? { note: named(kept.note) } : {}) }));
    if (run.sorted) entries.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    const profiles = await writtenProfiles(json, audit, named);
    writeFileSync(join(out, `${name}.json`), `${JSON.stringify({ exitCode: code, audit: entries, profiles }, null, 1)}\n`);
    writeFileSync(join(out, `${name}.log`), cli.output());
    process.stdout.write(`${name}: exit ${code}, ${entries.length} audit entries\n`);
  } finally {
    lab.proc.kill('SIGTERM');
    await lab.ended;
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const name of names.length ? names : Object.keys(runs)) await one(name);
