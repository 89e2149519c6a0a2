#!/usr/bin/env node
/**
 * The build: the CLI as one esbuild bundle in dist/, with the files it reads at run time beside it.
 *
 *   node scripts/build.mjs [--if-stale]
 *
 * - Entry src/bin.ts becomes dist/cli.js (the package's bin). Every dependency is bundled, so the
 *   installed package needs nothing but Node. Code reached only through `await import()` (each
 *   command, the TUI, the lab) is split into chunk files beside it and evaluated only when used.
 * - Assets: every `new URL('<literal>', import.meta.url)` in src/ names a file or folder the code
 *   reads at run time. The build copies it into dist/ (keeping its place under src/, or under the
 *   repository for top-level folders such as runbooks/) and rewrites the literal to point at the copy.
 *   A new asset needs no list: reference it that way and it ships. A use of import.meta that the
 *   build cannot follow fails the build instead of failing on an operator's machine.
 * - Source maps (dist/*.map, without the sources' text) for error reports: the bin turns them on
 *   with UPGRADE_PILOT_DEBUG=1.
 * - esbuild's metafile (what each output holds and imports) goes to node_modules/.cache/upgrade-pilot/
 *   bundle-meta.json, for the tests (test/package/bundle.test.ts) and for looking at sizes.
 * - `--if-stale` (the tests' global setup) skips the build when dist/ is newer than every input.
 * - The new output replaces the old file by file (renames), so a test already running keeps working.
 */
import { execFileSync } from 'node:child_process';
import { build } from 'esbuild';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const srcDir = join(root, 'src');
const outDir = join(root, 'dist');
const stampFile = join(outDir, '.build-stamp');
const args = process.argv.slice(2);
const metaFile = join(root, 'node_modules', '.cache', 'upgrade-pilot', 'bundle-meta.json');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Newest modification time under the inputs (folders too: a deleted file changes its folder). */
function newestInput() {
  let newest = 0;
  const visit = (path) => {
    let st;
    try {
      st = statSync(path);
    } catch {
      return;
    }
    newest = Math.max(newest, st.mtimeMs);
    if (st.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  for (const p of ['src', 'runbooks', 'package.json', 'package-lock.json', 'scripts/build.mjs']) visit(join(root, p));
  return newest;
}

if (args.includes('--if-stale') && existsSync(stampFile) && existsSync(metaFile) && statSync(stampFile).mtimeMs >= newestInput()) process.exit(0);

/** Ink imports its React DevTools bridge (which needs react-devtools-core) when DEV=true: not shipped. */
const noDevtools = {
  name: 'no-ink-devtools',
  setup(b) {
    b.onResolve({ filter: /^\.\/devtools\.js$/ }, (a) => (a.importer.includes(`${sep}ink${sep}`) ? { path: 'ink-devtools', namespace: 'empty' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

/**
 * yoga-layout (Ink's layout engine) is WebAssembly shipped as a base64 data URL. Its emscripten
 * loader asks `typeof fetch` before decoding it, and in Node that first touch of the global
 * `fetch` loads undici (~30 ms of the TUI's first frame) only to read a data URL. The loader's own
 * synchronous decode is what it falls back to without fetch: make it take that path. The build
 * fails if yoga's loader no longer reads as expected, rather than shipping the slow path unnoticed.
 */
const yogaWithoutFetch = {
  name: 'yoga-without-fetch',
  setup(b) {
    b.onLoad({ filter: /yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/ }, (a) => {
      const text = readFileSync(a.path, 'utf8');
      const probe = '"function"!=typeof fetch';
      const count = text.split(probe).length - 1;
      if (count !== 2) return { errors: [{ text: `yoga-layout's loader changed: expected 2 checks of \`${probe}\`, found ${count} (scripts/build.mjs, yogaWithoutFetch)` }] };
      return { contents: text.replaceAll(probe, '!0'), loader: 'js' };
    });
  },
};

/**
 * zod's `z` namespace re-exports every locale's messages (`z.locales`, about 290 kB of the bundle),
 * so none can be left out by tree-shaking, and every command compiles them at start. The tool speaks
 * English only and never calls `z.locales`: its locales module is bundled with English alone (the
 * default zod registers itself). The build fails if zod no longer has that module where expected.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (a) => {
      const text = readFileSync(a.path, 'utf8');
      if (!text.includes('export { default as en } from "./en.js";')) return { errors: [{ text: `zod's locales index changed: no English export in ${a.path} (scripts/build.mjs, zodEnglishOnly)` }] };
      return { contents: 'export { default as en } from "./en.js";\n', loader: 'js', resolveDir: dirname(a.path) };
    });
  },
};

const assetRef = /new URL\(\s*(['"])([^'"$`]+)\1\s*,\s*import\.meta\.url\s*\)/g;

/** Finds, copies and re-points the files the code reads relative to itself (see the header). */
function assets(copies) {
  return {
    name: 'assets',
    setup(b) {
      b.onLoad({ filter: /\.tsx?$/ }, (a) => {
        if (!a.path.startsWith(srcDir + sep)) return undefined;
        const text = readFileSync(a.path, 'utf8');
        const loader = a.path.endsWith('.tsx') ? 'tsx' : 'ts';
        if (!text.includes('import.meta')) return { contents: text, loader };
        const errors = [];
        const where = (index) => ({ file: relative(root, a.path), line: text.slice(0, index).split('\n').length });
        const contents = text.replace(assetRef, (whole, quote, literal, index) => {
          const target = resolve(dirname(a.path), literal);
          // The version is compiled in (UPGRADE_PILOT_VERSION); package.json is never copied beside the bundle.
          if (target === join(root, 'package.json')) return whole;
          const base = target.startsWith(srcDir + sep) ? srcDir : root;
          const dest = relative(base, target);
          if (!target.startsWith(root + sep) || dest.startsWith('..') || dest === '') {
            errors.push({ text: `asset ${literal} is outside the repository`, location: where(index) });
            return whole;
          }
          if (!existsSync(target)) {
            errors.push({ text: `asset ${literal} does not exist (${relative(root, target)})`, location: where(index) });
            return whole;
          }
          const folder = statSync(target).isDirectory();
          copies.set(dest, target);
          return `new URL(${quote}./${dest.split(sep).join('/')}${folder ? '/' : ''}${quote}, import.meta.url)`;
        });
        // Anything else that reads import.meta would resolve against the bundle, not this file.
        if (/import\.meta\.(url|dirname|filename)/.test(contents.replace(assetRef, ''))) {
          errors.push({
            text: `${relative(root, a.path)} uses import.meta in a way the build cannot follow`,
            detail: "Name the file it reads as new URL('<relative path>', import.meta.url) so the build ships it beside the bundle.",
          });
        }
        return errors.length ? { errors } : { contents, loader };
      });
    },
  };
}

/**
 * The bundled runbook's outline (its title and steps, as the lab's first frame shows them), computed
 * from the sources by their own code (src/run/runbook-outline.ts, bundled and run once here) and
 * compiled into the bundle, so that frame loads neither the YAML parser nor the schemas. A runbook
 * the outline cannot read fails the build: the tests would otherwise meet an empty step list.
 */
async function runbookOutlineOf(staging, runbook) {
  const script = join(staging, 'outline.mjs');
  await build({
    absWorkingDir: root,
    stdin: {
      contents: `import { runbookOutline } from './src/run/runbook-outline.ts'; process.stdout.write(JSON.stringify(runbookOutline(process.argv[2])));`,
      resolveDir: root,
      loader: 'ts',
    },
    outfile: script,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    logLevel: 'warning',
    banner: { js: "import { createRequire as __upgradePilotRequire } from 'node:module'; const require = __upgradePilotRequire(import.meta.url);" },
  });
  const outline = JSON.parse(execFileSync(process.execPath, [script, runbook], { encoding: 'utf8' }));
  rmSync(script);
  if (!outline.entries.length) throw new Error(`the bundled runbook ${relative(root, runbook)} has no steps the outline can read: run \`upgrade-pilot diff\` on it to see why`);
  return outline;
}

const staging = mkdtempSync(join(root, '.dist-'));
try {
  const copies = new Map();
  const outline = await runbookOutlineOf(staging, join(root, 'runbooks', 'vmo-upgrade.yaml'));
  const result = await build({
    absWorkingDir: root,
    entryPoints: { cli: 'src/bin.ts' },
    outdir: staging,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    // Whitespace and syntax only: identifiers keep their names, so a stack is readable even without
    // its source map, and error class names (InputError, …) stay what the code says.
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: 'linked',
    sourcesContent: false,
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
    logOverride: { 'unsupported-dynamic-import': 'error', 'unsupported-require-call': 'error' },
    define: { 'process.env.NODE_ENV': '"production"', UPGRADE_PILOT_VERSION: JSON.stringify(pkg.version), UPGRADE_PILOT_RUNBOOK_OUTLINE: JSON.stringify(outline) },
    // Bundled CommonJS packages (React, the certificate code) call require() for Node's own modules.
    banner: { js: "import { createRequire as __upgradePilotRequire } from 'node:module'; const require = __upgradePilotRequire(import.meta.url);" },
    plugins: [noDevtools, yogaWithoutFetch, zodEnglishOnly, assets(copies)],
  });
  for (const [dest, from] of copies) cpSync(from, join(staging, dest), { recursive: true, filter: (f) => !/\.tsx?$/.test(f) });
  chmodSync(join(staging, 'cli.js'), 0o755);
  mkdirSync(dirname(metaFile), { recursive: true });
  writeFileSync(metaFile, JSON.stringify(result.metafile));

  // Move the new files in (chunks first, the entry last), then drop what the new build no longer has.
  mkdirSync(outDir, { recursive: true });
  const fresh = new Set();
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else files.push(relative(staging, p));
    }
  };
  walk(staging);
  files.sort((x, y) => (x === 'cli.js') - (y === 'cli.js'));
  for (const f of files) {
    mkdirSync(dirname(join(outDir, f)), { recursive: true });
    renameSync(join(staging, f), join(outDir, f));
    fresh.add(f);
  }
  const prune = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      const rel = relative(outDir, p);
      if (e.isDirectory()) {
        prune(p);
        if (readdirSync(p).length === 0) rmSync(p, { recursive: true, force: true });
      } else if (!fresh.has(rel) && rel !== '.build-stamp') rmSync(p, { force: true });
    }
  };
  prune(outDir);
  writeFileSync(stampFile, `${new Date().toISOString()}\n`);
} finally {
  rmSync(staging, { recursive: true, force: true });
}
