/**
 * The bundle the package ships (dist/, built by the tests' global setup): its assets beside it,
 * nothing left to install at run time, and source maps that turn a bug's stack into src/ lines
 * when UPGRADE_PILOT_DEBUG asks for them (and only then).
 */
import { builtinModules } from 'node:module';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledRunbook } from '../../src/engine/bundled-runbook.js';
import { runbookOutline } from '../../src/run/runbook-outline.js';
import { CLI } from '../e2e/support.js';

const dist = dirname(CLI);
const repo = dirname(dist);

describe('the bundle in dist/', () => {
  it('carries the runbooks and every lab data file beside it', () => {
    expect(readdirSync(join(dist, 'runbooks')).sort()).toEqual(readdirSync(join(repo, 'runbooks')).sort());
    const packs = readdirSync(join(repo, 'src/lab/data/packs')).filter((f) => !f.endsWith('.ts'));
    expect(readdirSync(join(dist, 'lab/data/packs')).sort()).toEqual(packs.sort());
  });

  it('imports nothing but Node itself and its own chunks (no dependency to install)', () => {
    // esbuild's account of the build (scripts/build.mjs): every import that stayed outside the bundle.
    const meta = JSON.parse(readFileSync(join(repo, 'node_modules/.cache/upgrade-pilot/bundle-meta.json'), 'utf8')) as {
      outputs: Record<string, { imports: Array<{ path: string; external?: boolean }> }>;
    };
    const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
    const external = Object.entries(meta.outputs).flatMap(([file, o]) => o.imports.filter((i) => i.external).map((i) => `${file} → ${i.path}`));
    expect(external.length).toBeGreaterThan(0);
    expect(external.filter((e) => !builtins.has(e.split(' → ')[1]!))).toEqual([]);
    // and nothing in dist/ that the build did not make
    const outputs = new Set(Object.keys(meta.outputs).map((f) => f.split('/').pop()));
    expect(readdirSync(dist).filter((f) => /\.js(\.map)?$/.test(f) && !outputs.has(f))).toEqual([]);
  });

  it('is an executable ESM file with a node shebang', () => {
    const head = readFileSync(CLI, 'utf8').split('\n')[0];
    expect(head).toBe('#!/usr/bin/env node');
  });
});

type Meta = { outputs: Record<string, { bytes: number; entryPoint?: string; inputs: Record<string, unknown>; imports: Array<{ path: string; kind: string; external?: boolean }> }> };
const bundleMeta = (): Meta => JSON.parse(readFileSync(join(repo, 'node_modules/.cache/upgrade-pilot/bundle-meta.json'), 'utf8')) as Meta;

/** Every source file evaluated when the output holding `input` is imported (its static imports, transitively). */
function loadedWith(meta: Meta, input: string): string[] {
  const start = Object.keys(meta.outputs).find((k) => k.endsWith('.js') && input in meta.outputs[k]!.inputs);
  if (!start) throw new Error(`no output holds ${input}`);
  const seen = new Set<string>();
  const visit = (k: string) => {
    if (seen.has(k)) return;
    seen.add(k);
    for (const i of meta.outputs[k]!.imports) if (i.kind === 'import-statement' && !i.external) visit(i.path);
  };
  visit(start);
  return [...seen].flatMap((k) => Object.keys(meta.outputs[k]!.inputs));
}

const outputFile = (meta: Meta, input: string) => join(dist, Object.keys(meta.outputs).find((k) => k.endsWith('.js') && input in meta.outputs[k]!.inputs)!.split('/').pop()!);

// BENCHMARKS.md, "first TUI frame": what is on the path to the lab's first frame is all that loads before it.
describe("the path to the lab's first frame", () => {
  it('parses the command line without zod or the YAML parser', () => {
    const loaded = loadedWith(bundleMeta(), 'src/cli/args.ts');
    expect(loaded.filter((f) => /node_modules\/(zod|yaml)\//.test(f))).toEqual([]);
  });

  it('loads Ink for the shell, but neither zod, the YAML parser, the scenarios nor the runbook loader', () => {
    const meta = bundleMeta();
    const loaded = [...loadedWith(meta, 'src/commands/lab.ts'), ...loadedWith(meta, 'src/run/lab-shell.ts')];
    expect(loaded.some((f) => f.includes('node_modules/ink/'))).toBe(true);
    expect(loaded.filter((f) => /node_modules\/(zod|yaml)\/|src\/lab\/data\/|src\/engine\/(load|runbook|yaml-source)\.ts/.test(f))).toEqual([]);
  });

  it("carries the bundled runbook's outline, the same the sources compute", () => {
    const shell = outputFile(bundleMeta(), 'src/run/lab-shell.ts');
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', `const m = await import(${JSON.stringify(shell)}); process.stdout.write(JSON.stringify(await m.bundledOutline()));`], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    const compiled = JSON.parse(r.stdout) as ReturnType<typeof runbookOutline>;
    expect(compiled).toEqual(runbookOutline(bundledRunbook()));
    expect(compiled.entries.map((e) => e.title)).toContain('Preflight checks');
  });

  it("decodes the layout engine's WebAssembly without loading Node's fetch (undici)", () => {
    const shell = outputFile(bundleMeta(), 'src/run/lab-shell.ts');
    const code = `await import(${JSON.stringify(shell)}); process.stdout.write(JSON.stringify(process.moduleLoadList.filter((m) => /undici/.test(m))));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual([]);
  });

  it('draws the shell with that layout engine: the steps side by side with what is happening', () => {
    const shell = outputFile(bundleMeta(), 'src/run/lab-shell.ts');
    const code = `
      import { PassThrough } from 'node:stream';
      const { openLabShell } = await import(${JSON.stringify(shell)});
      const stdout = new PassThrough(); stdout.isTTY = true; stdout.columns = 100; stdout.rows = 30;
      const stdin = new PassThrough(); stdin.isTTY = true; stdin.setRawMode = () => stdin; stdin.ref = () => stdin; stdin.unref = () => stdin;
      let screen = ''; stdout.on('data', (d) => (screen += d));
      const s = await openLabShell({ stdout, stdin, stderr: process.stderr, env: {} }, { scenario: 'healthy', rehearsal: false, flavor: 'palette' });
      // Ink under CI (vitest sets it) draws one frame, the last, as it ends: no wait is needed for it.
      s.close();
      process.stdout.write(screen);`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 });
    expect(r.stderr).toBe('');
    const line = r.stdout.split('\n').find((l) => l.includes('Preflight checks'));
    expect(line).toMatch(/Preflight checks.*│.*Starting the embedded lab/);
  }, 90_000);
});

// BENCHMARKS.md, issue 36 item 3: what `verify` (and `plan`, `diff`) load before their first read.
describe("the path to a read-only command's first read", () => {
  const beforeFirstRead = () => {
    const meta = bundleMeta();
    return ['src/cli.tsx', 'src/cli/args.ts', 'src/steps/index.ts', 'src/commands/verify.ts', 'src/commands/plan.ts', 'src/commands/diff.ts'].flatMap((f) => loadedWith(meta, f));
  };

  it("checks the runbook against the step kinds' cards without loading any kind's code", () => {
    const loaded = beforeFirstRead();
    expect(loaded).toContain('src/steps/cards.ts');
    const stepCode = ['src/steps/hop/draft.ts', 'src/steps/migrations/monitor-step.ts', 'src/steps/migrations/recover-step.ts', 'src/steps/customize/customize.ts', 'src/steps/report.ts', 'src/steps/preflight/preflight.ts', 'src/steps/verify/verify.ts'];
    expect(loaded.filter((f) => stepCode.includes(f))).toEqual([]);
  });

  it('loads got with the first request, not at start (its load overlaps kubectl starting)', () => {
    expect(beforeFirstRead().filter((f) => /node_modules\/got\//.test(f))).toEqual([]);
  });
});

describe('a bug report', () => {
  // Makes one write of `sessions` throw a plain error: a bug, as far as the CLI can tell.
  const preload = join(mkdtempSync(join(tmpdir(), 'up-bundle-')), 'bug.mjs');
  writeFileSync(
    preload,
    `const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => { if (String(chunk).startsWith('No saved sessions')) throw new TypeError('a bug planted by the test'); return write(chunk, ...rest); };
`,
  );
  const run = (env: NodeJS.ProcessEnv) =>
    spawnSync(process.execPath, ['--import', preload, CLI, 'sessions', '--state-dir', mkdtempSync(join(tmpdir(), 'up-bundle-state-'))], {
      encoding: 'utf8',
      env: { ...process.env, ...env },
    });

  it('names the bug and how to get more, without a stack by default', () => {
    const r = run({ UPGRADE_PILOT_DEBUG: '' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('error: a bug planted by the test');
    expect(r.stderr).toContain('UPGRADE_PILOT_DEBUG=1');
    expect(r.stderr).not.toContain('    at ');
  });

  it('with UPGRADE_PILOT_DEBUG=1, adds the stack mapped to the sources', () => {
    const r = run({ UPGRADE_PILOT_DEBUG: '1' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/at (Module\.)?listSessions \(.*src\/commands\/sessions\.ts:\d+:\d+\)/);
    expect(r.stderr).toMatch(/at main \(.*src\/cli\.tsx:\d+:\d+\)/);
  });
});
