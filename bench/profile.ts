/**
 * What a CPU profile of the installed CLI is made of (`node --cpu-prof`): the self time of every
 * sample, grouped by where the code comes from. Bundled code is traced back through the bundle's
 * source maps to its package (zod, yaml, execa, …) or to upgrade-pilot's own folder; Node's own
 * code by what it does (loading modules, starting processes); and V8's pseudo-frames (garbage
 * collection, idle: the process waiting for kubectl, the lab or the profile API).
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';
import { stats } from './stats.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface Breakdown {
  totalMs: number;
  parts: Array<{ what: string; ms: number }>;
}

/** The function that parses kubectl's answers: JSON.parse (a builtin) is counted in its self time. */
const jsonParsers = new Set(['listRaw', 'getObject']);

function packageOf(source: string): string | undefined {
  const at = source.lastIndexOf('node_modules/');
  if (at < 0) return undefined;
  const [scope, name] = source.slice(at + 'node_modules/'.length).split('/');
  return scope?.startsWith('@') ? `${scope}/${name}` : scope;
}

function ownFolder(source: string): string {
  const m = /(?:^|\/)src\/(.+)$/.exec(source);
  if (!m) return 'upgrade-pilot';
  const parts = m[1]!.split('/');
  return `upgrade-pilot src/${parts.length > 1 ? parts[0] : m[1]}`;
}

export function breakdown(profileFile: string): Breakdown {
  const profile = JSON.parse(readFileSync(profileFile, 'utf8')) as CpuProfile;
  const maps = new Map<string, SourceMap | undefined>();
  const mapFor = (url: string) => {
    if (!maps.has(url)) {
      try {
        maps.set(url, new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, 'utf8'))));
      } catch {
        maps.set(url, undefined);
      }
    }
    return maps.get(url);
  };
  const categoryOf = new Map<number, string>();
  const category = (node: ProfileNode): string => {
    const { functionName: fn, url, lineNumber, columnNumber } = node.callFrame;
    if (fn === '(garbage collector)') return 'garbage collection';
    if (fn === '(idle)') return 'idle: waiting for kubectl, the lab, the profile API';
    if (fn === '(program)' || fn === '(root)') return 'V8 and Node native code';
    if (url.startsWith('node:internal/modules') || url.startsWith('node:internal/vm') || fn === 'compileSourceTextModule') return 'module loading (Node\u2019s loader, compiling)';
    if (url.includes('child_process')) return 'starting kubectl processes (spawn)';
    if (url === '') return 'V8 builtins (no script)';
    // Node's own JavaScript, by module: node:internal/streams/readable → "Node: streams"
    if (url.startsWith('node:')) return `Node: ${url.replace(/^node:(internal\/)?/, '').split('/')[0]}`;
    if (url.startsWith('file:')) {
      const entry = mapFor(url)?.findEntry(lineNumber, columnNumber) as { originalSource?: string } | undefined;
      const source = entry?.originalSource ?? url;
      if (jsonParsers.has(fn) && source.endsWith('kube/kubectl.ts')) return 'JSON.parse of kubectl\u2019s answers';
      return packageOf(source) ?? ownFolder(source);
    }
    return 'other';
  };
  const totals = new Map<string, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  profile.samples.forEach((id, i) => {
    let what = categoryOf.get(id);
    if (what === undefined) {
      what = category(byId.get(id)!);
      categoryOf.set(id, what);
    }
    totals.set(what, (totals.get(what) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  const parts = [...totals].map(([what, ms]) => ({ what, ms })).sort((a, b) => b.ms - a.ms);
  return { totalMs: (profile.endTime - profile.startTime) / 1000, parts };
}

/** Part by part, the median over several profiles of the same command (one profile is noisy at this scale). */
export function medianBreakdown(runs: Breakdown[]): Breakdown {
  const median = (xs: number[]) => stats(xs).median;
  const names = new Set(runs.flatMap((r) => r.parts.map((p) => p.what)));
  const parts = [...names].map((what) => ({ what, ms: median(runs.map((r) => r.parts.find((p) => p.what === what)?.ms ?? 0)) })).sort((a, b) => b.ms - a.ms);
  return { totalMs: median(runs.map((r) => r.totalMs)), parts };
}
