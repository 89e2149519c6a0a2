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
