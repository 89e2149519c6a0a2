/**
 * Values diff + merge at scale: 50 packs of ~3,000 lines (the real Cilium pack values, cut at a
 * top-level key), each with an old and a new version of its defaults and a site's customizations:
 * parse the three documents once, diff 3-way, decide, merge into the new defaults (the merge checks
 * its own output). Goal: under 300 ms for all 50. Also the real VM orchestration pack values (the
 * site's v1.2.0 values, the v1.2.0 and v1.4.0 defaults: a re-indented document, so little is
 * written alike) one pack at a time (goal: 6 ms, the same per pack), and the 50 packs again through
 * the values cache (a review round, or another cluster of a fleet on the same pack versions).
 */
import { existsSync, readFileSync } from 'node:fs';
import { Parser } from 'yaml';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decide } from '../src/values/decide.js';
import { diffValues } from '../src/values/diff.js';
import { mergeValues } from '../src/values/merge.js';
import { ValuesCache } from '../src/values/values-cache.js';
import { parseValues, type ValuesDocument } from '../src/values/values-document.js';

export interface ValuesBenchmarkOptions {
  packs?: number;
  runs?: number;
}

export interface ValuesBenchmarkResult {
  packs: number;
  linesPerPack: number;
  /** Wall time of each run, in ms (after one warm-up run). */
  runs: number[];
  medianMs: number;
  /** Median time per phase over the runs: parsing the three documents, diff and decide, merge. */
  phaseMedianMs: { parse: number; diff: number; merge: number };
  /**
   * The floor with the `yaml` package: only its lexer and parser (no document, no checks) over the
   * four texts each pack needs read (the three inputs and the merged result), median ms.
   */
  yamlFloorMs: number;
  /** The real VMO values, one pack (parse 3, diff, decide, merge): ms per repetition, and their median. */
  vmo: { lines: number; runs: number[]; medianMs: number };
  /** The 50 packs again through a values cache that has read them (median of the runs). */
  cachedMedianMs: number;
}

interface PackTexts {
  deployed: string;
  oldDefaults: string;
  newDefaults: string;
}

/** A values fixture (`real/cilium.values.yaml`), found from this file whether it runs from source or from the compiled bench folder. */
function fixture(name: string): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const file = join(dir, 'test', 'fixtures', 'values', name);
    if (existsSync(file)) return readFileSync(file, 'utf8');
    dir = dirname(dir);
  }
  throw new Error(`values benchmark: test/fixtures/values/${name} not found`);
}

function replaceOnce(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + 1) >= 0) throw new Error(`values benchmark: \`${from}\` is not unique in the Cilium document`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

/** About 3,000 lines: everything before `preflight:`, a key of `charts.cilium`, so the cut is valid YAML. */
function basePack(): string {
  const full = fixture('real/cilium.values.yaml');
  return full.slice(0, full.indexOf('\n    preflight:\n') + 1);
}

/** One pack: the old defaults, a new version of them, and a site's values on the old version. */
function packTexts(base: string, i: number): PackTexts {
  const oldDefaults = replaceOnce(base, 'namespaceOverride: ""', `namespaceOverride: "pack-${i}"`);
  let newDefaults = oldDefaults.replaceAll('1.17.1', '1.17.2');
  newDefaults = replaceOnce(newDefaults, 'ciliumNodeUpdateRate: "15s"', 'ciliumNodeUpdateRate: "30s"');
  newDefaults = replaceOnce(newDefaults, 'bpfClockProbe: false', 'bpfClockProbe: true');
  newDefaults = replaceOnce(newDefaults, '    cleanBpfState: false\n', '    cleanBpfState: false\n    bpfMapDynamicSizeRatio: 0.0025\n');
  let deployed = oldDefaults;
  deployed = replaceOnce(deployed, 'clusterPoolIPv4PodCIDRList: [ "10.0.0.0/8" ]', 'clusterPoolIPv4PodCIDRList: [ "{{ .spectro.pack.kubernetes.pack.podCIDR }}" ]');
  deployed = replaceOnce(deployed, 'clusterPoolIPv4MaskSize: 24', `clusterPoolIPv4MaskSize: ${20 + (i % 5)}`);
  deployed = replaceOnce(deployed, 'ciliumNodeUpdateRate: "15s"', 'ciliumNodeUpdateRate: "20s"');
  deployed = replaceOnce(deployed, 'rollOutCiliumPods: false', 'rollOutCiliumPods: true');
  deployed = replaceOnce(deployed, 'kubeProxyReplacement: "false"', 'kubeProxyReplacement: "true"');
  deployed = replaceOnce(deployed, 'tunnelProtocol: ""', 'tunnelProtocol: "geneve"');
  deployed = replaceOnce(deployed, '    extraConfig: {}\n', '    extraConfig:\n      enable-bpf-masquerade: "true"\n      site-id: "site-' + i + '"\n');
  return { deployed, oldDefaults, newDefaults };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

interface RunTimes {
  total: number;
  parse: number;
  diff: number;
  merge: number;
}

function runOnce(packs: readonly PackTexts[], cache?: ValuesCache): RunTimes {
  const times = { total: 0, parse: 0, diff: 0, merge: 0 };
  const parse = (text: string, what: string) => (cache ? cache.parse(text, what) : parseValues(text, what));
  const start = performance.now();
  for (const pack of packs) {
    const t0 = performance.now();
    const deployed: ValuesDocument = parse(pack.deployed, 'the deployed values');
    const oldDefaults = parse(pack.oldDefaults, 'the old default values');
    const newDefaults = parse(pack.newDefaults, 'the new default values');
    const t1 = performance.now();
    const diff = diffValues({ deployed, oldDefaults, newDefaults });
    const decisions = Object.fromEntries(diff.entries.filter((e) => e.label === 'conflict').map((e) => [e.path, 'keepSite' as const]));
    const carry = decide(diff, decisions);
    const t2 = performance.now();
    mergeValues({ newDefaults, carry, deployed });
    const t3 = performance.now();
    times.parse += t1 - t0;
    times.diff += t2 - t1;
    times.merge += t3 - t2;
  }
  times.total = performance.now() - start;
  return times;
}

/** Lexer and parser only (the CST), for the same four texts per pack the pipeline must read. */
function yamlFloorOnce(packs: readonly PackTexts[]): number {
  const start = performance.now();
  for (const pack of packs) {
    for (const text of [pack.deployed, pack.oldDefaults, pack.newDefaults, pack.newDefaults]) {
      for (const _token of new Parser().parse(text)) {
        // drained: the CST is all this measures
      }
    }
  }
  return performance.now() - start;
}

export async function runValuesBenchmark(options: ValuesBenchmarkOptions = {}): Promise<ValuesBenchmarkResult> {
  const count = options.packs ?? 50;
  const runCount = options.runs ?? 5;
  const base = basePack();
  const packs = Array.from({ length: count }, (_, i) => packTexts(base, i));
  runOnce(packs.slice(0, Math.min(count, 5)));
  const results: RunTimes[] = [];
  for (let r = 0; r < runCount; r++) {
    results.push(runOnce(packs));
    // Let the event loop breathe between runs, as a real caller would.
    await new Promise((resolve) => setImmediate(resolve));
  }
  yamlFloorOnce(packs.slice(0, Math.min(count, 5)));
  const floors: number[] = [];
  for (let r = 0; r < Math.min(runCount, 3); r++) floors.push(yamlFloorOnce(packs));
  // The same packs through a cache that has read them: what a review round or the next cluster costs.
  // (Sized for the 150 texts: the default bound keeps about 25 documents of this size.)
  const cache = new ValuesCache(packs.length * 3 * base.length * 2);
  runOnce(packs, cache);
  const cached: number[] = [];
  for (let r = 0; r < runCount; r++) cached.push(runOnce(packs, cache).total);
  // The real VMO values, one pack at a time, each repetition reading its texts anew.
  const vmo = { deployed: fixture('vmo-kubevirt-v1.2.0.deployed.yaml'), oldDefaults: fixture('real/virtual-machine-orchestrator.kubevirt-v1.2.0.values.yaml'), newDefaults: fixture('real/virtual-machine-orchestrator.kubevirt-v1.4.0.values.yaml') };
  runOnce([vmo]);
  const vmoRuns: number[] = [];
  for (let r = 0; r < Math.max(10, runCount * 10); r++) vmoRuns.push(runOnce([vmo]).total);
  const runs = results.map((t) => Math.round(t.total * 10) / 10);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    packs: count,
    linesPerPack: base.split('\n').length - 1,
    runs,
    medianMs: round(median(results.map((t) => t.total))),
    phaseMedianMs: { parse: round(median(results.map((t) => t.parse))), diff: round(median(results.map((t) => t.diff))), merge: round(median(results.map((t) => t.merge))) },
    yamlFloorMs: round(median(floors)),
    vmo: { lines: vmo.newDefaults.split('\n').length - 1, runs: vmoRuns.map(round), medianMs: round(median(vmoRuns)) },
    cachedMedianMs: round(median(cached)),
  };
}
