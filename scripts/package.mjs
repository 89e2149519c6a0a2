#!/usr/bin/env node
/**
 * The package as an operator installs it: `npm pack` (which builds), then `npm install --global`
 * of the tarball into a prefix of its own, offline and with an empty npm cache, so nothing but the
 * tarball can be installed. Used by the package test (test/package/install-test.mjs) and by the
 * benchmarks, which measure the installed package.
 *
 *   node scripts/package.mjs DIR     installs into DIR/prefix and prints what packAndInstall returns, as JSON
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * @param {string} dir an empty folder for the tarball, the npm cache and the prefix
 * @returns {{ name: string, version: string, tarball: string, packedBytes: number, unpackedBytes: number, files: number,
 *   prefix: string, packageDir: string, bins: Record<string, string>, cli: string }}
 */
export function packAndInstall(dir) {
  const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
  const env = { ...process.env, npm_config_cache: join(dir, 'npm-cache'), npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: repo, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }))[0];
  const tarball = join(dir, packed.filename);
  const prefix = join(dir, 'prefix');
  execFileSync('npm', ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tarball], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const packageDir = join(prefix, 'lib', 'node_modules', pkg.name);
  return {
    name: pkg.name,
    version: pkg.version,
    tarball,
    packedBytes: statSync(tarball).size,
    unpackedBytes: packed.unpackedSize,
    files: packed.entryCount,
    prefix,
    packageDir,
    bins: Object.fromEntries(Object.keys(pkg.bin).map((b) => [b, join(prefix, 'bin', b)])),
    cli: join(packageDir, pkg.bin[pkg.name]),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) {
    process.stderr.write('usage: node scripts/package.mjs DIR\n');
    process.exit(2);
  }
  process.stdout.write(`${JSON.stringify(packAndInstall(resolve(dir)))}\n`);
}
