/** The fleet coordinator keeps its heap near what is live (fleet/heap-growth.ts), and this Node's V8 honours it. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { boundHeapGrowth } from '../../src/fleet/heap-growth.js';

describe('the coordinator’s heap growth', () => {
  it('is set to twice what is live, and V8 sizes the heap so when it is set in a running process', () => {
    let flags = '';
    boundHeapGrowth((f) => (flags = f));
    expect(flags).toBe('--heap-growing-percent=100');
    // A process that allocates and collects: V8 says which factor each new limit came from.
    const code = `require('node:v8').setFlagsFromString(${JSON.stringify(flags)}); const keep = []; for (let i = 0; i < 3; i++) { for (let j = 0; j < 100000; j++) keep.push({ j }); gc(); }`;
    const run = spawnSync(process.execPath, ['--expose-gc', '--trace-gc-verbose', '-e', code], { encoding: 'utf8' });
    const said = `${run.stdout}${run.stderr}`;
    expect(said).not.toMatch(/unrecognized flag/);
    const limits = said.split('\n').filter((l) => l.includes('[HeapController] Limit:'));
    expect(limits.length).toBeGreaterThan(0);
    for (const l of limits) expect(l).toMatch(/\(2\.0\)$/);
  });
});
