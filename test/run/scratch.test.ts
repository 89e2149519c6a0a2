import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanStaleScratch, clearingsStarted, makeScratch } from '../../src/run/scratch.js';
import { until } from '../support/wait.js';

/** A pid that certainly belonged to a process that is gone. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('per-run scratch folders: named after their run, cleaned when that run is gone', () => {
  it('removes what dead runs left, keeps what live ones use and anything else', async () => {
    const base = mkdtempSync(join(tmpdir(), 'i17-scratch-'));
    const dead = join(base, `upgrade-pilot-kube-${deadPid()}-abc123`);
    const live = join(base, `upgrade-pilot-kube-${process.ppid}-def456`);
    const mine = join(base, `upgrade-pilot-kube-${process.pid}-ghi789`);
    const legacyOld = join(base, 'upgrade-pilot-kube-Xy12Zw');
    const legacyNew = join(base, 'upgrade-pilot-kube-Ab34Cd');
    const other = join(base, 'something-else-1');
    for (const d of [dead, live, mine, legacyOld, legacyNew, other]) mkdirSync(join(d, 'http'), { recursive: true });
    const dayAgo = (Date.now() - 25 * 3_600_000) / 1000;
    utimesSync(legacyOld, dayAgo, dayAgo);
    expect(await cleanStaleScratch('kube', base)).toBe(2);
    expect([dead, live, mine, legacyOld, legacyNew, other].map(existsSync)).toEqual([false, true, true, false, true, true]);
  });

  it('a new one clears what dead runs left once the run is under way', async () => {
    const base = mkdtempSync(join(tmpdir(), 'i17-scratch-'));
    const dead = join(base, `upgrade-pilot-kube-${deadPid()}-abc123`);
    mkdirSync(join(dead, 'http'), { recursive: true });
    const s = makeScratch('kube', base);
    await until('the dead run\'s folder cleared', () => !existsSync(dead));
    expect(existsSync(s.dir)).toBe(true);
    s.dispose();
  });

  it('clears a temp folder once per process: the next scratch folders (a fleet\'s other clusters) do not read it again', async () => {
    const base = mkdtempSync(join(tmpdir(), 'i36-scratch-'));
    const before = join(base, `upgrade-pilot-kube-${deadPid()}-before`);
    mkdirSync(before);
    const first = makeScratch('kube', base);
    await until('the first clearing done', () => !existsSync(before));
    const later = join(base, `upgrade-pilot-kube-${deadPid()}-later1`);
    mkdirSync(later);
    const started = clearingsStarted();
    const second = makeScratch('kube', base);
    expect(clearingsStarted()).toBe(started);
    // Another temp folder is cleared as the first was; the folder cleared already is not read again.
    const other = mkdtempSync(join(tmpdir(), 'i36-scratch-'));
    const dead = join(other, `upgrade-pilot-kube-${deadPid()}-other1`);
    mkdirSync(dead);
    const third = makeScratch('kube', other);
    expect(clearingsStarted()).toBe(started + 1);
    await until('the other temp folder cleared', () => !existsSync(dead));
    expect(existsSync(later)).toBe(true);
    for (const s of [first, second, third]) s.dispose();
  });

  it('a new one is named after this process; dispose never throws', () => {
    const base = mkdtempSync(join(tmpdir(), 'i17-scratch-'));
    const s = makeScratch('kube', base);
    expect(s.dir).toMatch(new RegExp(`/upgrade-pilot-kube-${process.pid}-\\w+$`));
    s.dispose();
    expect(existsSync(s.dir)).toBe(false);
    expect(() => s.dispose()).not.toThrow();
  });
});
