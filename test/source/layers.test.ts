/**
 * The layer order of src (ARCHITECTURE.md): every import, type-only and on-demand ones too, points
 * down the table below or sideways within its layer. The lab and capture are a side wing: the
 * product reaches them only from the command line (cli/, commands/), through their entry points;
 * they may use the product up to the steps, never the layers that run a session, draw it or parse
 * a command line.
 *
 * Issue 35 moved the code into this order: no import breaks it, and a new one that does fails here
 * with its file:line and the rule it breaks (move the code it needs down, or itself up).
 */
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readImportGraph, SRC, type ImportEdge } from './import-graph.js';

export interface Layer {
  name: string;
  /** Paths relative to src: a folder ends with `/`; a file belongs to the layer of its longest match. */
  paths: string[];
  /** What its modules may know (and so which files go here). */
  knows: string;
}

/** Bottom to top. */
export const LAYERS: Layer[] = [
  { name: 'utilities', paths: ['text/', 'io/', 'net/', 'errors.ts', 'version.ts'], knows: 'strings, files, limits, HTTP, typed errors: nothing of upgrades' },
  { name: 'core', paths: ['engine/', 'session/'], knows: 'runbook frame, reducer, runner, gates, approval policy, journal, lock: no domain names' },
  { name: 'adapters', paths: ['palette/', 'kube/'], knows: 'the profile API (got + zod) and kubectl (execa) with typed reads (what the checks judge among them)' },
  { name: 'domain', paths: ['domain/', 'values/'], knows: 'pure logic over read objects: versions, ladders, impact, windows, room, health judgments, values diff and merge' },
  { name: 'steps', paths: ['steps/', 'report/'], knows: 'step kinds (read through the adapters, call the domain, ask the gates) and the session report built from their outputs' },
  { name: 'session UI', paths: ['screens/'], knows: 'Ink: App, the screens, gates, pickers, the lab shell, the confirm queue they answer: render state, send decisions' },
  { name: 'run', paths: ['run/', 'notify/'], knows: 'one session: its settings, effects, the runner wired to the TUI or plain output, notifications' },
  { name: 'fleet', paths: ['fleet/'], knows: 'many sessions: fleet file, plan, target set, coordinator, journal, report' },
  { name: 'fleet UI', paths: ['fleet-ui/'], knows: "the fleet's screens (a cluster's session drawn by the session UI)" },
  { name: 'commands', paths: ['commands/'], knows: 'one module per command: parse, call, print' },
  { name: 'cli', paths: ['cli/', 'cli.tsx', 'bin.ts'], knows: 'argv to settings, TUI or plain mode, exit codes' },
];

export interface Wing {
  name: string;
  paths: string[];
  /** The highest product layer the wing may import. */
  reaches: string;
  /** The only modules of the wing the product may import, and the only layers that may (the command line's). */
  entryPoints: string[];
  enteredFrom: string[];
}

export const WING: Wing = {
  name: 'side wing',
  paths: ['lab/', 'capture/'],
  reaches: 'steps',
  entryPoints: ['lab/index.ts', 'lab/replay/index.ts', 'lab/fleet/index.ts', 'lab/world/scenarios/index.ts', 'lab/scenario-catalog.ts', 'capture/index.ts'],
  enteredFrom: ['cli', 'commands'],
};

export interface Violation {
  edge: ImportEdge;
  rule: string;
}

type Place = { layer: Layer; index: number } | { wing: true } | undefined;

function placer(layers: Layer[], wing: Wing): (file: string) => Place {
  const spots = [...layers.flatMap((layer, index) => layer.paths.map((path) => ({ path, place: { layer, index } as Place }))), ...wing.paths.map((path) => ({ path, place: { wing: true } as Place }))];
  spots.sort((a, b) => b.path.length - a.path.length);
  return (file) => spots.find((s) => (s.path.endsWith('/') ? file.startsWith(s.path) : file === s.path))?.place;
}

/** Every import that breaks the order, with the rule it breaks; files no layer holds, apart. */
export function layerViolations(edges: ImportEdge[], files: string[], layers: Layer[] = LAYERS, wing: Wing = WING): { violations: Violation[]; unplaced: string[] } {
  const place = placer(layers, wing);
  const ceiling = layers.findIndex((l) => l.name === wing.reaches);
  const violations: Violation[] = [];
  for (const edge of edges) {
    const from = place(edge.from);
    const to = place(edge.to);
    if (!from || !to) continue;
    if ('wing' in from && 'wing' in to) continue;
    if ('wing' in from) {
      if ('layer' in to && to.index > ceiling) violations.push({ edge, rule: `the ${wing.name} (${wing.paths.join(', ')}) uses the product only up to ${wing.reaches}; ${to.layer.name} is above` });
      continue;
    }
    if ('wing' in to) {
      if (!('layer' in from) || !wing.enteredFrom.includes(from.layer.name)) violations.push({ edge, rule: `only ${wing.enteredFrom.join(' and ')} enter the ${wing.name} (${wing.paths.join(', ')}); ${from.layer.name} may not` });
      else if (!wing.entryPoints.includes(edge.to)) violations.push({ edge, rule: `the ${wing.name} is entered only through ${wing.entryPoints.join(', ')}` });
      continue;
    }
    if (to.index > from.index) violations.push({ edge, rule: `${from.layer.name} imports ${to.layer.name}, a layer above it` });
  }
  return { violations, unplaced: files.filter((f) => !place(f)) };
}

const shown = (v: Violation) => `src/${v.edge.from}:${v.edge.line} → ${v.edge.to}${v.edge.dynamic ? ' (on demand)' : ''}: ${v.rule}`;

describe('the source imports only down its layers', () => {
  const { files, edges } = readImportGraph();
  const { violations, unplaced } = layerViolations(edges, files);

  it('places every module in a layer or the side wing', () => {
    expect(files.length).toBeGreaterThan(300); // the walk saw the source, not an empty folder
    expect(unplaced, 'add the folder (or root file) to LAYERS or WING in test/source/layers.test.ts').toEqual([]);
  });

  it('names entry points of the side wing that exist', () => {
    expect(WING.entryPoints.filter((p) => !existsSync(join(SRC, p)))).toEqual([]);
  });

  it('finds no import against the order', () => {
    expect(violations.map(shown), 'each of these imports breaks the layer order (ARCHITECTURE.md): move the code it needs down, or itself up').toEqual([]);
  });

  it('keeps the plan and the hop steps apart: what both need is in the domain, the adapters or a neutral steps/ module', () => {
    const across = (a: string, b: string) => edges.filter((e) => e.from.startsWith(a) && e.to.startsWith(b)).map((e) => `src/${e.from}:${e.line} → ${e.to}`);
    expect(across('steps/plan/', 'steps/hop/'), 'steps/plan imports steps/hop').toEqual([]);
    expect(across('steps/hop/', 'steps/plan/'), 'steps/hop imports steps/plan').toEqual([]);
  });

  it('keeps the domain pure of the layers above it (no step, screen or session in a judgment)', () => {
    const domain = LAYERS.findIndex((l) => l.name === 'domain');
    const above = LAYERS.slice(domain + 1).flatMap((l) => l.paths);
    const up = edges.filter((e) => e.from.startsWith('domain/') && [...above, ...WING.paths].some((p) => (p.endsWith('/') ? e.to.startsWith(p) : e.to === p)));
    expect(up.map((e) => `src/${e.from}:${e.line} → ${e.to}`)).toEqual([]);
  });

  it('would name each kind of violation', () => {
    const edge = (from: string, to: string, line = 1): ImportEdge => ({ from, to, line, dynamic: false });
    const found = layerViolations(
      [
        edge('engine/a.ts', 'steps/b.ts', 3),
        edge('steps/b.ts', 'engine/a.ts'),
        edge('steps/b.ts', 'report/c.ts'),
        edge('screens/d.tsx', 'lab/index.ts'),
        edge('commands/e.ts', 'lab/kube/server.ts'),
        edge('commands/e.ts', 'lab/index.ts'),
        edge('lab/index.ts', 'run/f.ts'),
        edge('capture/g.ts', 'steps/b.ts'),
        edge('lab/index.ts', 'capture/g.ts'),
      ],
      ['engine/a.ts', 'steps/b.ts', 'report/c.ts', 'screens/d.tsx', 'commands/e.ts', 'lab/index.ts', 'run/f.ts', 'capture/g.ts', 'stray/h.ts'],
      LAYERS,
      { ...WING, entryPoints: ['lab/index.ts'] },
    );
    expect(found.violations.map(shown)).toEqual([
      'src/engine/a.ts:3 → steps/b.ts: core imports steps, a layer above it',
      'src/screens/d.tsx:1 → lab/index.ts: only cli and commands enter the side wing (lab/, capture/); session UI may not',
      'src/commands/e.ts:1 → lab/kube/server.ts: the side wing is entered only through lab/index.ts',
      'src/lab/index.ts:1 → run/f.ts: the side wing (lab/, capture/) uses the product only up to steps; run is above',
    ]);
    expect(found.unplaced).toEqual(['stray/h.ts']);
  });
});
