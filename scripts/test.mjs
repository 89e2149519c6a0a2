#!/usr/bin/env node
/**
 * `npm test`: the type check and the test run side by side. The tests leave a core idle for a good
 * part of their run (they wait on child processes, servers, timers), which the type check fills, so
 * the two together end sooner than one after the other. A type error fails the run at once: its
 * report is printed and the tests are stopped. Arguments go to vitest (`npm test -- test/values`).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = (path) => fileURLToPath(new URL(`../node_modules/${path}`, import.meta.url));
const tsc = spawn(process.execPath, [bin('typescript/bin/tsc'), '-p', 'tsconfig.json', '--noEmit'], { stdio: ['ignore', 'pipe', 'pipe'] });
const vitest = spawn(process.execPath, [bin('vitest/vitest.mjs'), 'run', ...process.argv.slice(2)], { stdio: 'inherit' });

let typeErrors = '';
tsc.stdout.on('data', (d) => (typeErrors += d));
tsc.stderr.on('data', (d) => (typeErrors += d));
const ended = (p) => new Promise((resolve) => p.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0))));

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => [tsc, vitest].forEach((p) => p.kill(signal)));
const typeCheck = ended(tsc).then((code) => {
  if (code !== 0) {
    process.stderr.write(`\nThe type check failed; the tests are stopped:\n${typeErrors}\n`);
    vitest.kill('SIGTERM');
  } else {
    process.stdout.write('\nType check: no errors.\n');
  }
  return code;
});
const [types, tests] = await Promise.all([typeCheck, ended(vitest)]);
process.exit(types !== 0 ? types : tests);
