/**
 * `npm run bench`: every benchmark of issues 10 and 19 in one run, its figures (minimum / median /
 * maximum over several runs, and ratios from the same run), a table of goals met or missed, and
 * `bench-results.json`. Not part of `npm test`. The CLI measured is the installed package: `npm
 * pack`, then `npm install -g` of the tarball into a temporary prefix (scripts/package.mjs).
 *
 *   node --expose-gc dist-bench/bench/run.js [--only startup,verify,scaling,values,tui,journal,registry,fleet] [--quick]
 *
 * The fleet section (`--only fleet`) serves 200 lab clusters and runs a fleet over them at maxConcurrency 20.
 *
 * `--quick` runs fewer repetitions and smaller sizes, to try the harness; its figures are not the
 * ones to publish.
 */
// First: React is loaded below (section 4) and must be the production build, as the package ships it.
import './production-env.js';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runJournalBenchmark } from './journal-bench.js';
import { liveLabPids, sizesFor, startLabProcess, type LabProcess } from './lab-process.js';
import { cpuMark, othersCores } from './load.js';
import { hasGnuTime } from './measure.js';
import { breakdown, medianBreakdown, type Breakdown } from './profile.js';
import { startupTimes } from './startup-bench.js';
import { mb, ms, range, stats, table, type Goal, type Stats } from './stats.js';
import { runRegistryBenchmark } from './registry-bench.js';
import { runFleetBenchmark } from './fleet-bench.js';
import { firstFrames, keyToFrame } from './tui-bench.js';
import { runValuesBenchmark } from './values-bench.js';
import { realKubectl, VerifyBench, type Sample, type VerifySample } from './verify-bench.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const hook = join(here, 'rss-hook.js');

const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const onlyArg = argv.find((a) => a.startsWith('--only'));
const only = onlyArg ? new Set((onlyArg.includes('=') ? onlyArg.split('=')[1]! : argv[argv.indexOf(onlyArg) + 1] ?? '').split(',')) : undefined;
const wanted = (name: string) => !only || only.has(name);

const runStarted = performance.now();
const root = mkdtempSync(join(tmpdir(), 'upgrade-pilot-bench-'));

interface Installed {
  version: string;
  tarball: string;
  packedBytes: number;
  unpackedBytes: number;
  files: number;
  bins: Record<string, string>;
  cli: string;
}

/** The package as an operator installs it (scripts/package.mjs): every figure below is of this copy. */
function installPackage(): Installed {
  const dir = mkdtempSync(join(root, 'package-'));
  const r = spawnSync(process.execPath, [join(repo, 'scripts', 'package.mjs'), dir], { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error('npm pack / npm install -g of the package failed');
  return JSON.parse(r.stdout) as Installed;
}

// Set by main() before any section runs.
let installed: Installed;
let cli: string;
let bin: string;
const goals: Goal[] = [];
const results: Record<string, unknown> = {};
const load: Array<{ section: string; loadAverageStart: number[]; loadAverageEnd: number[]; othersCores: number | undefined; seconds: number }> = [];

const say = (line = '') => process.stdout.write(`${line}\n`);
const kb = (s: Sample[], f: (x: Sample) => number | undefined): Stats | undefined => {
  const v = s.map(f).filter((x): x is number => x !== undefined);
  return v.length ? stats(v) : undefined;
};
const wall = (s: Sample[]) => stats(s.map((x) => x.wallMs));
const memRange = (s: Stats | undefined) => (s ? range(s, mb) : 'n/a');
const ratio = (a: number, b: number) => `${(a / b).toFixed(a / b >= 10 ? 0 : 2)}×`;
const round = (n: number) => Math.round(n * 10) / 10;
const statsJson = (s: Stats | undefined) => (s ? { min: round(s.min), median: round(s.median), max: round(s.max), n: s.n } : undefined);
const heading = (s: string) => say(`\n## ${s}\n`);
const ratioGoals: Array<{ what: string; ratio: string; goal: string }> = [];

/** Per part, --help's time next to the floor's, largest difference first. */
function gapRows(a: Breakdown, floor: Breakdown): string[][] {
  const parts = new Set([...a.parts.map((p) => p.what), ...floor.parts.map((p) => p.what)]);
  const get = (b: Breakdown, what: string) => b.parts.find((p) => p.what === what)?.ms ?? 0;
  return [...parts]
    .map((what) => ({ what, a: get(a, what), f: get(floor, what) }))
    .sort((x, y) => y.a - y.f - (x.a - x.f))
    .map((r) => [r.what, ms(r.a), ms(r.f), `${r.a - r.f >= 0 ? '+' : '−'}${ms(Math.abs(r.a - r.f))}`]);
}

/** A CPU profile's parts (bench/profile.ts), largest first, as table rows. */
function profileRows(b: Breakdown, top = 10): string[][] {
  const sampled = b.parts.reduce((n, p) => n + p.ms, 0);
  const shown = b.parts.slice(0, top);
  const rest = b.parts.slice(top).reduce((n, p) => n + p.ms, 0);
  return [...shown.map((p) => [p.what, ms(p.ms), `${((p.ms / sampled) * 100).toFixed(0)}%`]), ...(rest ? [['everything else', ms(rest), `${((rest / sampled) * 100).toFixed(0)}%`]] : [])];
}

function goal(name: string, target: string, measured: string, met: boolean): void {
  goals.push({ name, target, measured, met });
}

async function section(name: string, fn: () => Promise<void>): Promise<void> {
  if (!wanted(name)) return;
  const start = loadavg().map(round);
  const t0 = performance.now();
  const mark = cpuMark(liveLabPids());
  await fn();
  const others = othersCores(mark, cpuMark(liveLabPids()));
  const end = loadavg().map(round);
  load.push({ section: name, loadAverageStart: start, loadAverageEnd: end, othersCores: others === undefined ? undefined : Math.round(others * 100) / 100, seconds: round((performance.now() - t0) / 1000) });
  say(`\n(${name}: ${ms(performance.now() - t0)}; load average before ${start.join(' ')}, after ${end.join(' ')}; other processes used ${others === undefined ? 'n/a' : `${others.toFixed(2)} of ${cpus().length} cores`} meanwhile)`);
  if (others !== undefined && others > 0.25) say(`WARNING: other work took ${((others / cpus().length) * 100).toFixed(0)}% of the machine during "${name}": its times are inflated; rerun on an idle machine.`);
}

/**
 * Verify, the bare baseline and the proxy floor (and `plan`, when asked) alternate run by run, so a
 * change of load hits them alike.
 */
async function verifyAndBare(b: VerifyBench, runs: number, withPlan = false): Promise<{ verify: VerifySample[]; bare: Sample[]; floor: Sample[]; plan: Sample[] }> {
  await b.bare(); // warm-up
  await b.proxyFloor();
  if (withPlan) await b.plan();
  const verify: VerifySample[] = [];
  const bare: Sample[] = [];
  const floor: Sample[] = [];
  const plan: Sample[] = [];
  for (let i = 0; i < runs; i++) {
    verify.push(await b.verify());
    bare.push(await b.bare());
    floor.push(await b.proxyFloor());
    if (withPlan) plan.push(await b.plan());
  }
  return { verify, bare, floor, plan };
}

function machine() {
  const kubectl = realKubectl();
  let kubectlVersion = 'unknown';
  try {
    kubectlVersion = execFileSync(kubectl, ['version', '--client'], { encoding: 'utf8' }).trim().split('\n')[0] ?? 'unknown';
  } catch {
    // reported as unknown
  }
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: round(totalmem() / 2 ** 30),
    node: process.version,
    kubectl: kubectlVersion,
    gnuTime: hasGnuTime,
    date: new Date().toISOString(),
  };
}

// ---------------------------------------------------------------------------------------------
// 1 and 6: verification at scale on the large lab; lab start; raw pods

let large: LabProcess | undefined;
const verifyRuns = quick ? 2 : 5;
const largeVms = quick ? 1000 : 5000;

async function verificationAtScale(): Promise<void> {
  heading(`1. Verification at scale (large lab: ${largeVms} VMs, ${sizesFor(largeVms).nodes} nodes, ${sizesFor(largeVms).pods} pods)`);
  large = await startLabProcess(root, cli, sizesFor(largeVms));
  const b = new VerifyBench({ root, cli, hook }, large);
  const learnt = await b.learnPaths();
  const versions = b.kubectlVersions();
  say(`kubectl against the lab: client ${versions.client}, server ${versions.server}`);
  say(
    `verify reads ${learnt.calls} API paths (learnt from a run with its read proxy off: ${learnt.calls} \`kubectl get --raw\` calls, the paths the bare baseline fetches) plus one profile API read; as measured it starts ${learnt.processes} kubectl process${learnt.processes === 1 ? '' : 'es'} (one \`kubectl proxy\` for its reads); overall ${learnt.sample.overall}`,
  );
  const { verify, bare, floor, plan } = await verifyAndBare(b, verifyRuns, true);
  b.warmDiscovery();
  const jsonRuns = quick ? 1 : 3;
  const json: Sample[] = [];
  for (let i = 0; i < jsonRuns; i++) json.push(await b.json());
  const loopVms = quick ? 20 : 100;
  const targets = b.loopTargets(loopVms);
  const loop: Sample[] = [];
  for (let i = 0; i < (quick ? 1 : 3); i++) loop.push(await b.loop(targets));
  const scale = large.sizes.vms / targets.length;

  const v = wall(verify);
  const a = wall(bare);
  const f = wall(floor);
  const pl = wall(plan);
  const j = wall(json);
  const l = wall(loop);
  const vOwn = kb(verify, (x) => x.ownPeakKb);
  const vTree = kb(verify, (x) => x.peakKb);
  const inner = stats(verify.map((x) => x.innerMs ?? NaN));
  const rows = [
    ['upgrade-pilot verify', range(v), `${memRange(vOwn)} (node)${vOwn && vTree && vTree.max > vOwn.max ? ` · ${memRange(vTree)} (largest)` : ''}`, '1×', String(verify.length)],
    ['(a) bare: parallel get --raw', range(a), memRange(kb(bare, (x) => x.peakKb)), ratio(a.median, v.median), String(bare.length)],
    ["(a') floor: one kubectl proxy + curl", range(f), memRange(kb(floor, (x) => x.peakKb)), ratio(f.median, v.median), String(floor.length)],
    ['upgrade-pilot plan (the same lab)', range(pl), `${memRange(kb(plan, (x) => x.ownPeakKb))} (node)`, ratio(pl.median, v.median), String(plan.length)],
    ['(b) kubectl get -A -o json per kind', range(j), memRange(kb(json, (x) => x.peakKb)), ratio(j.median, v.median), String(json.length)],
    [`(c) per-VM loop, ${targets.length} VMs`, range(l), memRange(kb(loop, (x) => x.peakKb)), ratio(l.median, v.median), String(loop.length)],
    [`(c) scaled to ${large.sizes.vms} VMs (×${scale})`, range({ ...l, min: l.min * scale, median: l.median * scale, max: l.max * scale }), memRange(kb(loop, (x) => x.peakKb)), ratio(l.median * scale, v.median), '-'],
  ];
  for (const line of table(['what', 'wall min / median / max', 'peak RSS min / median / max', 'time vs verify (median)', 'runs'], rows)) say(line);
  say(`\nverify's own reported time (reads and checks, without process start): ${range(inner)}`);
  say(`verify / its transport's floor (one kubectl proxy, the same reads with curl, nothing parsed): ${ratio(v.median, f.median)}; what is left above it is starting node and loading the tool, reading the params and runbook, parsing and checking`);
  say(`verify / bare baseline (median): ${ratio(v.median, a.median)} · -o json / verify: ${ratio(j.median, v.median)} · per-VM loop (scaled) / verify: ${ratio(l.median * scale, v.median)}`);
  say(`plan / verify (median, the same lab, run by run beside it): ${ratio(pl.median, v.median)}; plan reads the VMs and the VM instances whole (their fates, memory and owners' limits), verify only each instance's phase`);
  say(`the same data without upgrade-pilot: -o json / bare: ${ratio(j.median, a.median)} · per-VM loop (scaled) / bare: ${ratio(l.median * scale, a.median)}`);
  if (vOwn && vTree) say(`verify's largest process is ${vTree.max > vOwn.max ? 'a kubectl it starts' : 'the node process itself'} (peak RSS of the node process ${memRange(vOwn)})`);
  const jsonPeak = kb(json, (x) => x.peakKb);
  if (jsonPeak && vOwn) say(`memory: -o json's largest process / verify's node process (median): ${ratio(jsonPeak.median, vOwn.median)}`);
  say(`(b) kinds: ${b.jsonKinds().join(', ')}`);
  // What verify spends beyond the bare baseline: one more run under the CPU profiler (slower than
  // the measured runs; the proportions are the point), traced back through the bundle's source maps.
  const verifyProfile = breakdown(await b.profile());
  say(`\nwhere verify's time goes (one run under node --cpu-prof, ${ms(verifyProfile.totalMs)} in all, self time by origin):`);
  for (const line of table(['what', 'time', 'share'], profileRows(verifyProfile))) say(line);
  const planProfile = breakdown(await b.profile('plan'));
  say(`\nwhere plan's time goes (one run under node --cpu-prof, ${ms(planProfile.totalMs)} in all, self time by origin):`);
  for (const line of table(['what', 'time', 'share'], profileRows(planProfile))) say(line);

  results.verification = {
    lab: large.sizes,
    kubectl: versions,
    kubectlCalls: learnt.calls,
    kubectlProcesses: learnt.processes,
    apiPaths: b.rawPaths,
    overall: learnt.sample.overall,
    verify: { wallMs: statsJson(v), nodePeakKb: statsJson(vOwn), largestPeakKb: statsJson(vTree), innerMs: statsJson(inner), samples: verify, profile: verifyProfile },
    bare: { wallMs: statsJson(a), peakKb: statsJson(kb(bare, (x) => x.peakKb)), samples: bare },
    proxyFloor: { wallMs: statsJson(f), peakKb: statsJson(kb(floor, (x) => x.peakKb)), samples: floor },
    plan: { wallMs: statsJson(pl), nodePeakKb: statsJson(kb(plan, (x) => x.ownPeakKb)), samples: plan, profile: planProfile },
    json: { kinds: b.jsonKinds(), wallMs: statsJson(j), peakKb: statsJson(jsonPeak), samples: json },
    loop: { vms: targets.length, scaledTo: large.sizes.vms, wallMs: statsJson(l), scaledMedianMs: round(l.median * scale), peakKb: statsJson(kb(loop, (x) => x.peakKb)), samples: loop },
    ratios: {
      verifyOverBare: round((v.median / a.median) * 100) / 100,
      verifyOverProxyFloor: round((v.median / f.median) * 100) / 100,
      planOverVerify: round((pl.median / v.median) * 100) / 100,
      jsonOverVerify: round(j.median / v.median),
      loopScaledOverVerify: round((l.median * scale) / v.median),
      jsonOverBare: round(j.median / a.median),
      jsonPeakOverVerifyPeak: jsonPeak && vOwn ? round(jsonPeak.median / vOwn.median) : undefined,
    },
  };
  goal('verify within 1.5× of the bare baseline', '≤ 1.5×', `${ratio(v.median, a.median)} (${ms(v.median)} vs ${ms(a.median)})`, v.median <= 1.5 * a.median);
  ratioGoals.push({ what: `verify / bare kubectl get --raw, ${large.sizes.vms} VMs`, ratio: ratio(v.median, a.median), goal: '≤ 1.5×' });
  goal('verify within 1.2× of the bare baseline (issue 36)', '≤ 1.2×', `${ratio(v.median, a.median)}`, v.median <= 1.2 * a.median);
  goal(`verify within 2.5× of its transport's floor`, '≤ 2.5×', `${ratio(v.median, f.median)} (${ms(v.median)} vs ${ms(f.median)})`, v.median <= 2.5 * f.median);
  goal(`plan, ${large.sizes.vms} VMs, within 2× verify`, '≤ 2×', `${ratio(pl.median, v.median)} (${ms(pl.median)} vs ${ms(v.median)})`, pl.median <= 2 * v.median);
  goal(`verify ≥ 20× faster than -o json at ${large.sizes.pods} pods`, '≥ 20×', `${ratio(j.median, v.median)} (${ms(j.median)} vs ${ms(v.median)})`, j.median >= 20 * v.median);
  goal(`verify's node process under 400 MB (${large.sizes.vms} VMs)`, '< 400 MB', vOwn ? `${mb(vOwn.max)} max` : 'n/a', vOwn !== undefined && vOwn.max < 400 * 1024);

  heading(`6. Issue 3's acceptance: lab start and raw pods (${large.sizes.pods} pods)`);
  const raw: Sample[] = [];
  await b.rawPods();
  for (let i = 0; i < (quick ? 2 : 5); i++) raw.push(await b.rawPods());
  const starts = [large.startMs];
  for (let i = 0; i < (quick ? 0 : 2); i++) {
    const again = await startLabProcess(root, cli, large.sizes);
    starts.push(again.startMs);
    await again.stop();
  }
  const st = stats(starts);
  const r = wall(raw);
  for (const line of table(
    ['what', 'min / median / max', 'peak RSS', 'runs'],
    [
      [`lab start, large (${large.sizes.vms} VMs, ${large.sizes.nodes} nodes, ${large.sizes.pods} pods), spawn → serving`, range(st), `${mb(large.rssKb)} (lab, once started)`, String(starts.length)],
      [`kubectl get --raw /api/v1/pods (${large.sizes.pods} pods)`, range(r), memRange(kb(raw, (x) => x.peakKb)), String(raw.length)],
    ],
  ))
    say(line);
  results.issue3 = { labStartMs: statsJson(st), labRssKb: large.rssKb, rawPodsMs: statsJson(r), rawPodsPeakKb: statsJson(kb(raw, (x) => x.peakKb)) };
  goal('large lab start', '< 10 s', `${ms(st.median)} median, ${ms(st.max)} max`, st.max < 10_000);
  goal(`kubectl get --raw /api/v1/pods at ${large.sizes.pods} pods`, '< 2 s', `${ms(r.median)} median, ${ms(r.max)} max`, r.max < 2000);
}

// ---------------------------------------------------------------------------------------------
// 2: scaling

async function scaling(): Promise<void> {
  const sizes = quick ? [500, 1000] : [500, 1000, 5000, 10000];
  heading(`2. Scaling: verify at ${sizes.join(', ')} VMs (10 nodes and 4 pods per VM)`);
  const rows: string[][] = [];
  const points: Array<{ vms: number; pods: number; verifyMs: Stats; nodePeakKb: Stats | undefined; bareMs: Stats; labStartMs: number; labRssKb: number | undefined }> = [];
  for (const vms of sizes) {
    let lab: LabProcess;
    let owned = false;
    if (large && large.sizes.vms === vms) lab = large;
    else {
      lab = await startLabProcess(root, cli, sizesFor(vms));
      owned = true;
    }
    try {
      const b = new VerifyBench({ root, cli, hook }, lab);
      await b.learnPaths();
      const { verify, bare } = await verifyAndBare(b, quick ? 2 : 5);
      const p = { vms, pods: lab.sizes.pods, verifyMs: wall(verify), nodePeakKb: kb(verify, (x) => x.ownPeakKb), bareMs: wall(bare), labStartMs: lab.startMs, labRssKb: lab.rssKb };
      points.push(p);
      rows.push([String(vms), String(lab.sizes.nodes), String(lab.sizes.pods), range(p.verifyMs), memRange(p.nodePeakKb), range(p.bareMs), ratio(p.verifyMs.median, p.bareMs.median), ms(lab.startMs)]);
    } finally {
      if (owned) await lab.stop();
    }
  }
  for (const line of table(['VMs', 'nodes', 'pods', 'verify min / median / max', 'node peak RSS', 'bare baseline', 'verify / bare', 'lab start'], rows)) say(line);
  // Growth between neighbours: how much time and memory grow for how much more cluster. On the
  // minimums: each size runs against its own lab at its own time, and the minimum is the figure
  // least disturbed by other work on the machine.
  const growth: Array<{ from: number; to: number; size: number; time: number; memory: number | undefined }> = [];
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]!;
    const c = points[i]!;
    growth.push({ from: a.vms, to: c.vms, size: c.vms / a.vms, time: c.verifyMs.min / a.verifyMs.min, memory: a.nodePeakKb && c.nodePeakKb ? c.nodePeakKb.min / a.nodePeakKb.min : undefined });
  }
  say('');
  for (const line of table(
    ['from → to VMs', 'size ×', 'verify time × (minimums)', 'node memory × (minimums)'],
    growth.map((g) => [`${g.from} → ${g.to}`, ratio(g.size, 1), ratio(g.time, 1), g.memory ? ratio(g.memory, 1) : 'n/a']),
  ))
    say(line);
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const slope = (f: (p: (typeof points)[number]) => number) => Math.log(f(last) / f(first)) / Math.log(last.vms / first.vms);
  const timeSlope = slope((p) => p.verifyMs.min);
  const memSlope = first.nodePeakKb && last.nodePeakKb ? slope((p) => p.nodePeakKb!.min) : NaN;
  say(`\nlog-log slope ${first.vms} → ${last.vms} VMs (1 = linear): time ${timeSlope.toFixed(2)}, memory ${Number.isNaN(memSlope) ? 'n/a' : memSlope.toFixed(2)}`);
  results.scaling = { points: points.map((p) => ({ ...p, verifyMs: statsJson(p.verifyMs), nodePeakKb: statsJson(p.nodePeakKb), bareMs: statsJson(p.bareMs), labStartMs: round(p.labStartMs) })), growth, slope: { time: round(timeSlope * 100) / 100, memory: round(memSlope * 100) / 100 } };
  // No step may grow faster than the cluster (10% allowance for noise between runs)
  const linear = growth.every((g) => g.time <= g.size * 1.1 && (g.memory === undefined || g.memory <= g.size * 1.1));
  goal(`verify growth ${first.vms} → ${last.vms} VMs no worse than linear`, 'each step ≤ size ratio', `time slope ${timeSlope.toFixed(2)}, memory slope ${Number.isNaN(memSlope) ? 'n/a' : memSlope.toFixed(2)}`, linear);
  const biggest = last.nodePeakKb;
  if (biggest) say(`verify's node process at ${last.vms} VMs: ${memRange(biggest)}`);
}

// ---------------------------------------------------------------------------------------------
// 3: values diff and merge

async function values(): Promise<void> {
  heading('3. Customization diff and merge (50 packs of ~3,000 lines)');
  const r = await runValuesBenchmark({ runs: quick ? 2 : 5 });
  const s = stats(r.runs);
  for (const line of table(
    ['what', 'min / median / max', 'parse', 'diff + decide', 'merge', 'runs'],
    [[`${r.packs} packs × ${r.linesPerPack} lines: parse 3, diff, decide, merge`, range(s), ms(r.phaseMedianMs.parse), ms(r.phaseMedianMs.diff), ms(r.phaseMedianMs.merge), String(r.runs.length)]],
  ))
    say(line);
  const vmo = stats(r.vmo.runs);
  for (const line of table(
    ['what', 'min / median / max', 'runs'],
    [
      [`real VMO values, one pack (site's v1.2.0 values, v1.2.0 → v1.4.0 defaults, ${r.vmo.lines} lines): parse 3, diff, decide, merge`, range(vmo), String(r.vmo.runs.length)],
      [`the ${r.packs} packs again through the values cache (a review round; another cluster on the same versions)`, ms(r.cachedMedianMs), String(r.runs.length)],
    ],
  ))
    say(line);
  say(`per pack (median): ${ms(s.median / r.packs)}`);
  say(`floor with the yaml package: its lexer and parser alone over the 4 texts per pack (3 inputs, 1 merged result): ${ms(r.yamlFloorMs)} for ${r.packs} packs; the whole pipeline / that floor: ${ratio(s.median, r.yamlFloorMs)}`);
  results.values = { ...r, wallMs: statsJson(s), vmoMs: statsJson(vmo) };
  goal(`diff and merge, ${r.packs} packs`, '< 300 ms', `${ms(s.median)} median`, s.median < 300);
  goal('diff and merge, real VMO values, per pack', '< 6 ms', `${ms(vmo.median)} median`, vmo.median < 6);
}

// ---------------------------------------------------------------------------------------------
// 4: TUI

async function tui(): Promise<void> {
  heading('4. TUI responsiveness');
  const ff = await firstFrames(cli, root, quick ? 2 : 5);
  const k = await keyToFrame(5000, quick ? 10 : 40, quick ? 3 : 10);
  const f = stats(ff.tui);
  const full = stats(ff.interactive);
  const ready = stats(ff.ready);
  const n = stats(ff.nodeFloor);
  const key = stats(k.keyMs);
  const poll = stats(k.pollMs);
  for (const line of table(
    ['what', 'min / median / max', 'samples'],
    [
      ['first frame: `upgrade-pilot lab` in a pseudo-terminal, spawn → first line on screen', range(f), String(ff.tui.length)],
      ['first TUI frame: spawn → Ink draws the runbook\'s steps (the lab still starting)', range(full), String(ff.interactive.length)],
      ['lab ready: spawn → the session\'s first screen (the lab\'s guide, keys live)', range(ready), String(ff.ready.length)],
      ['floor: `node -e` printing one line in the same pseudo-terminal', range(n), String(ff.nodeFloor.length)],
      [`key ↓ → new frame, migrations table of ${k.rows} rows`, range(key), String(k.keyMs.length)],
      [`new poll (${k.rows} fresh rows) → new frame`, range(poll), String(k.pollMs.length)],
      [`first render of the screen with ${k.rows} rows`, ms(k.mountMs), '1'],
    ],
  ))
    say(line);
  results.tui = { firstFrameMs: statsJson(f), firstTuiFrameMs: statsJson(full), labReadyMs: statsJson(ready), nodeFloorMs: statsJson(n), keyToFrameMs: statsJson(key), pollToFrameMs: statsJson(poll), mountMs: round(k.mountMs), rows: k.rows };
  goal('first frame (first line on screen)', '< 500 ms', `${ms(f.median)} median`, f.median < 500);
  goal('first TUI frame (Ink draws the steps)', '< 500 ms', `${ms(full.median)} median`, full.median < 500);
  ratioGoals.push({ what: 'first TUI frame / 500 ms', ratio: ratio(full.median, 500), goal: '< 1×' });
  goal(`key to frame, ${k.rows} rows`, '< 50 ms', `${ms(key.median)} median, ${ms(key.max)} max`, key.max < 50);
}

// ---------------------------------------------------------------------------------------------
// 7: start-up (issue 19)

async function startup(): Promise<void> {
  heading('7. Start-up of the installed package');
  const s = await startupTimes(bin, quick ? 3 : 20);
  const floor = stats(s.nodeFloor);
  const help = stats(s.help);
  const version = stats(s.version);
  const maps = stats(s.helpWithSourceMaps);
  for (const line of table(
    ['what', 'min / median / max', 'vs node -e 0 (median)', 'runs'],
    [
      ['floor: `node -e 0`', range(floor), '1×', String(s.nodeFloor.length)],
      ['`upgrade-pilot --help` (the installed bin)', range(help), ratio(help.median, floor.median), String(s.help.length)],
      ['`upgrade-pilot --version`', range(version), ratio(version.median, floor.median), String(s.version.length)],
      ['`--help` with UPGRADE_PILOT_DEBUG=1 (source maps on)', range(maps), ratio(maps.median, floor.median), String(s.helpWithSourceMaps.length)],
    ],
  ))
    say(line);
  // The gap to the floor, part by part: --help and `node -e 0`, each profiled a few times (medians).
  const profiled = (args: string[]) => {
    const runsOf = Array.from({ length: quick ? 3 : 9 }, () => {
      const dir = mkdtempSync(join(root, 'prof-'));
      execFileSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', dir, ...args], { stdio: 'ignore' });
      return breakdown(join(dir, readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))!));
    });
    return medianBreakdown(runsOf);
  };
  const helpProfile = profiled([cli, '--help']);
  const floorProfile = profiled(['-e', '0']);
  say(`\nwhat --help spends beyond \`node -e 0\` (each under node --cpu-prof, median of the runs; ${ms(helpProfile.totalMs)} against ${ms(floorProfile.totalMs)}):`);
  for (const line of table(['what', '--help', 'node -e 0', 'difference'], gapRows(helpProfile, floorProfile))) say(line);
  say(`\npackage: ${installed.tarball.split('/').pop()}, ${(installed.packedBytes / 1024).toFixed(0)} kB packed, ${(installed.unpackedBytes / 1024).toFixed(0)} kB installed, ${installed.files} files, no dependencies`);
  results.startup = {
    package: { packedBytes: installed.packedBytes, unpackedBytes: installed.unpackedBytes, files: installed.files },
    nodeFloorMs: statsJson(floor),
    helpMs: statsJson(help),
    versionMs: statsJson(version),
    helpWithSourceMapsMs: statsJson(maps),
    helpProfile,
    floorProfile,
  };
  goal('--help within 2× of `node -e 0`', '≤ 2×', `${ratio(help.median, floor.median)} (${ms(help.median)} vs ${ms(floor.median)})`, help.median <= 2 * floor.median);
  ratioGoals.push({ what: '--help / node -e 0', ratio: ratio(help.median, floor.median), goal: '≤ 2×' });
}

// ---------------------------------------------------------------------------------------------
// 5: journal

async function journal(): Promise<void> {
  heading('5. Session journal');
  const r = await runJournalBenchmark(root, { events: quick ? 2000 : 10_000, appendEvents: quick ? 300 : 2000, runs: quick ? 2 : 5 });
  const a = stats(r.appendMs);
  const sorted = [...r.appendMs].sort((x, y) => x - y);
  const p99 = sorted[Math.floor(sorted.length * 0.99)]!;
  const res = stats(r.resumeMs);
  const late = stats(r.resumeFromSnapshotMs);
  for (const line of table(
    ['what', 'min / median / max', 'samples'],
    [
      [`append one record (redact, JSON, write, fsync); p99 ${ms(p99)}`, range(a), String(r.appendMs.length)],
      [`resume ${r.events} records (${(r.journalBytes / 2 ** 20).toFixed(1)} MB), ${r.replayed} replayed after the snapshot`, range(res), String(r.resumeMs.length)],
      [`resume ${r.events} records, snapshot after the last`, range(late), String(r.resumeFromSnapshotMs.length)],
    ],
  ))
    say(line);
  results.journal = { events: r.events, vmsRestarted: r.vmsRestarted, journalBytes: r.journalBytes, replayed: r.replayed, appendMs: { ...statsJson(a), p99: round(p99 * 1000) / 1000 }, resumeMs: statsJson(res), resumeFromSnapshotMs: statsJson(late) };
  goal(`resume, ${r.events} records`, '< 1 s', `${ms(res.median)} median, ${ms(res.max)} max`, res.max < 1000);
}

// ---------------------------------------------------------------------------------------------
// 8: the pack registry (issue 16)

async function registry(): Promise<void> {
  // This section starts the lab in process from dist-bench, and tsc copies no data files: the lab's
  // pack values go beside its compiled code, where src/lab/data/assets.ts looks.
  cpSync(fileURLToPath(new URL('../../src/lab/data/packs/', import.meta.url)), fileURLToPath(new URL('../src/lab/data/packs/', import.meta.url)), { recursive: true });
  heading('8. Pack registry reads (healthy lab, Palette\'s rate limits on: 10 requests/s for /v1/packs)');
  const r = await runRegistryBenchmark(root, { runs: quick ? 2 : 5 });
  const row = (what: string, v: number[]) => [what, range(stats(v)), String(v.length)];
  for (const line of table(
    ['what', 'min / median / max', 'runs'],
    [
      row(`cold tag lists of the ${r.tagReads} moving packs (every tag's values come with them)`, r.tagListMs),
      row(`the same ${r.valueReads} (pack, tag) defaults, one filters query each`, r.valuesMs),
      row('cold `plan`, registry (no references)', r.planRegistryMs),
      row('cold `plan`, reference profiles', r.planReferencesMs),
      row('cold `diff`, registry (no references)', r.diffRegistryMs),
      row('cold `diff`, reference profiles', r.diffReferencesMs),
    ],
  ))
    say(line);
  results.registry = { tagReads: r.tagReads, tagListMs: statsJson(stats(r.tagListMs)), valueReads: r.valueReads, valuesMs: statsJson(stats(r.valuesMs)), planRegistryMs: statsJson(stats(r.planRegistryMs)), planReferencesMs: statsJson(stats(r.planReferencesMs)), diffRegistryMs: statsJson(stats(r.diffRegistryMs)), diffReferencesMs: statsJson(stats(r.diffReferencesMs)) };
  goal('registry reads of a cold plan + diff', '< 2 s', `${ms(stats(r.tagListMs).median)} median`, stats(r.tagListMs).median < 2000);
}

// ---------------------------------------------------------------------------------------------

async function fleet(): Promise<void> {
  const clusters = quick ? 20 : 200;
  const concurrency = quick ? 5 : 20;
  const speed = 300;
  heading(`9. A fleet of ${clusters} lab clusters (small worlds), one stage at maxConcurrency ${concurrency}, lab speed ${speed}`);
  const single = await runFleetBenchmark(root, cli, { clusters: 1, concurrency: 1, speed });
  const r = await runFleetBenchmark(root, cli, { clusters, concurrency, speed });
  const per = stats(r.perClusterMs);
  const one = single.perClusterMs[0]!;
  // Judged by what the coordinator sent (its shared limiter's work); the lab's count of arrivals is shown beside it (a busy lab bunches them).
  const sent = r.sent ?? r.rate;
  const over = Object.entries(sent).filter(([, v]) => v.peakPerSecond > v.limit);
  for (const line of table(
    ['what', 'figure'],
    [
      ['fleet lab start (one Palette, a Kubernetes API server per cluster under its own path)', `${ms(r.labStartMs)}, ${r.labRssKb ? mb(r.labRssKb) : 'n/a'} resident`],
      ['fleet start to the end, every gate approved', `${ms(r.wallMs)} (exit ${r.exitCode}), ${r.perClusterMs.length} cluster(s) ran`],
      ['time per cluster (its session, start to end): min / median / max', range(per)],
      ['a one-cluster fleet, the same cluster', ms(one)],
      ['per cluster in the fleet / alone (median; p90 by the max)', `${ratio(per.median, one)}; ${ratio(per.max, one)}`],
      [`wall time / (clusters / ${concurrency}) per cluster alone`, ratio(r.wallMs, (clusters / concurrency) * one)],
      ['coordinator peak resident memory / heap peak', `${r.coordinatorMaxRssKb ? mb(r.coordinatorMaxRssKb) : 'n/a'} / ${r.coordinatorHeapPeakBytes ? mb(r.coordinatorHeapPeakBytes / 1024) : 'n/a'} (one cluster: ${single.coordinatorMaxRssKb ? mb(single.coordinatorMaxRssKb) : 'n/a'})`],
      ['kubectl processes alive at once under the coordinator (max)', `${r.kubectlMax} (one cluster: ${single.kubectlMax})`],
      ...Object.entries(sent).map(([cls, v]) => [
        `Palette ${cls}: most requests in any one second, sent / arrived at the lab / limit (requests in all)`,
        `${r.sent ? v.peakPerSecond : 'n/a'} / ${r.rate[cls]?.peakPerSecond ?? 'n/a'} / ${v.limit} (${v.requests})`,
      ]),
    ],
  ))
    say(line);
  if (r.exitCode !== 0) {
    for (const line of ['', `The fleet stopped (exit ${r.exitCode}); clusters not done and not pending:`, ...r.notDone.map((c) => `- ${JSON.stringify(c)}`), '', "The coordinator's last lines:", ...r.tail.map((l) => `    ${l}`)]) say(line);
  }
  results.fleet = { clusters, concurrency, speed, labStartMs: Math.round(r.labStartMs), labRssKb: r.labRssKb, wallMs: Math.round(r.wallMs), exitCode: r.exitCode, perClusterMs: statsJson(per), singleClusterMs: one, coordinatorMaxRssKb: r.coordinatorMaxRssKb, coordinatorHeapPeakBytes: r.coordinatorHeapPeakBytes, kubectlMax: r.kubectlMax, rate: r.rate, sent: r.sent, notDone: r.notDone, single: { coordinatorMaxRssKb: single.coordinatorMaxRssKb, kubectlMax: single.kubectlMax } };
  goal(`fleet of ${clusters}: every cluster done`, 'exit 0', `exit ${r.exitCode}, ${r.perClusterMs.length} ran`, r.exitCode === 0 && r.perClusterMs.length === clusters);
  goal(`fleet of ${clusters}: Palette requests sent within the limit in every second`, 'no class above its limit', over.length ? over.map(([c, v]) => `${c} ${v.peakPerSecond}/${v.limit}`).join(', ') : 'none above', over.length === 0);
  goal(`fleet of ${clusters}: kubectl processes at once`, `<= ${concurrency * 4} (bounded by the concurrency)`, String(r.kubectlMax), r.kubectlMax <= concurrency * 4);
  // Issue 36: a fleet costs what its clusters cost (the one-cluster fleet and the fleet in this run, side by side).
  goal(`fleet of ${clusters} at ${concurrency}: per cluster / a one-cluster fleet (median)`, '≤ 1.5×', `${ratio(per.median, one)} (${ms(per.median)} vs ${ms(one)})`, per.median <= 1.5 * one);
  ratioGoals.push({ what: `fleet of ${clusters} at ${concurrency}, per cluster / one-cluster fleet`, ratio: ratio(per.median, one), goal: '≤ 1.5×' });
  goal(`fleet of ${clusters} at ${concurrency}: coordinator resident memory`, '< 300 MB', r.coordinatorMaxRssKb ? `${mb(r.coordinatorMaxRssKb)} peak` : 'n/a', (r.coordinatorMaxRssKb ?? Infinity) < 300 * 1024);
  const registryReads = (x: typeof r) => (x.sent?.['/v1/packs']?.requests ?? 0) + (x.sent?.['/v1/registries']?.requests ?? 0);
  goal(`fleet of ${clusters}: the pack registry read once for the fleet`, "no more reads than a one-cluster fleet's", `${registryReads(r)} (one cluster: ${registryReads(single)})`, r.sent !== undefined && registryReads(r) <= registryReads(single));
}

async function main(): Promise<number> {
  const m = machine();
  say(`# upgrade-pilot benchmarks${quick ? ' (--quick: not for publishing)' : ''}`);
  say(`${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, node ${m.node}, ${m.kubectl}; ${m.date}; load average ${loadavg().map(round).join(' ')}`);
  if (!m.gnuTime) say('GNU time (/usr/bin/time) is missing: peak memory of child processes is not measured.');
  let failed: unknown;
  try {
    installed = installPackage();
    cli = installed.cli;
    bin = installed.bins['upgrade-pilot']!;
    say(`measured: the installed package ${installed.tarball.split('/').pop()} (npm install -g of the tarball into a temporary prefix)`);
    await section('startup', startup);
    await section('verify', verificationAtScale);
    await section('scaling', scaling);
    // The large lab's server is not needed any more: stop it before the in-process benchmarks
    await large?.stop();
    large = undefined;
    await section('values', values);
    await section('tui', tui);
    await section('journal', journal);
    await section('registry', registry);
    await section('fleet', fleet);
  } catch (err) {
    failed = err;
  } finally {
    await large?.stop();
    rmSync(root, { recursive: true, force: true });
  }
  const totalMs = performance.now() - runStarted;
  heading('Goals');
  for (const line of table(
    ['goal', 'target', 'measured', 'met'],
    goals.map((g) => [g.name, g.target, g.measured, g.met ? 'met' : 'MISSED']),
  ))
    say(line);
  if (ratioGoals.length) {
    say('\nThe three ratios of issue 19:');
    for (const r of ratioGoals) say(`  ${r.what}: ${r.ratio} (goal ${r.goal})`);
  }
  const missed = goals.filter((g) => !g.met).length;
  say(`\n${goals.length - missed} of ${goals.length} goals met${missed ? `; ${missed} missed (see BENCHMARKS.md for why and what would fix each)` : ''}. Total bench time ${ms(totalMs)}.`);
  const file = join(repo, 'bench-results.json');
  const previous = (() => {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as unknown;
    } catch {
      return undefined;
    }
  })();
  if (!quick && !only) writeFileSync(file, `${JSON.stringify({ machine: m, command: 'npm run bench', totalMs: round(totalMs), load, goals, results }, null, 2)}\n`);
  else {
    const partial = join(repo, 'dist-bench', 'bench-results.partial.json');
    writeFileSync(partial, `${JSON.stringify({ machine: m, quick, only: only ? [...only] : undefined, totalMs: round(totalMs), load, goals, results }, null, 2)}\n`);
    say(`(partial run: results in ${partial}; bench-results.json ${previous ? 'kept as it was' : 'not written'})`);
  }
  if (failed) {
    process.stderr.write(`bench failed: ${failed instanceof Error ? (failed.stack ?? failed.message) : String(failed)}\n`);
    return 1;
  }
  return 0;
}

process.exitCode = await main();
