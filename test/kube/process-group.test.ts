/**
 * The process runner under children that misbehave the way exec credential plugins do: one that
 * hangs, one that starts a helper holding the pipes, one that ignores SIGTERM, one that prints
 * without end. Each ends within its bound, and nothing of its process group is left running.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInGroup } from '../../src/kube/process-group.js';
import { until, within } from '../support/wait.js';

const dir = mkdtempSync(join(tmpdir(), 'i17-group-'));
function script(name: string, body: string): string {
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

/** Processes (not zombies) whose command line names `marker`. */
function running(marker: string): string[] {
  const ps = execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
  return ps.split('\n').filter((l) => l.includes(marker) && !/^\s*\d+\s+Z/.test(l) && !l.includes('ps -eo'));
}

/** What is left of `marker`'s processes once they are gone, or after a limit that only a leak reaches. */
async function settled(marker: string, ms = 15_000): Promise<string[]> {
  const end = Date.now() + ms;
  let left = running(marker);
  while (left.length && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 50));
    left = running(marker);
  }
  return left;
}

const base = { env: process.env, maxStdout: 1 << 20, maxStderr: 1 << 16, killGraceMs: 500, drainMs: 300 };

describe('runInGroup: every child ends with its whole process group, within its bound', () => {
  it('a plain command: output and exit code', async () => {
    const r = await runInGroup({ ...base, file: script('ok.sh', 'echo out; echo err >&2; exit 3'), args: [], timeoutMs: 5_000 });
    expect(r).toMatchObject({ exitCode: 3, timedOut: false, canceled: false, tooLarge: false });
    expect(r.stdout.toString()).toBe('out\n');
    expect(r.stderr).toBe('err\n');
  });

  it('input on stdin', async () => {
    const r = await runInGroup({ ...base, file: script('cat.sh', 'cat'), args: [], stdin: 'hello', timeoutMs: 5_000 });
    expect(r.stdout.toString()).toBe('hello');
  });

  it('a hung child whose helper holds the pipes and ignores SIGTERM: ended at the limit, nothing left', async () => {
    const marker = `marker-hung-${process.pid}`;
    // The helper inherits the pipes; both ignore SIGTERM, so only the group's SIGKILL ends them.
    const file = script('hung.sh', `trap '' TERM\n(trap '' TERM; while :; do sleep 1; done) &\nexec sh -c 'trap "" TERM; while :; do sleep 1; done' ${marker}`);
    // Nothing in the group ever ends by itself: only the limit can end this run (a wait for the
    // pipes would never return; 15 s is a hang, not a loaded machine).
    const r = await within(runInGroup({ ...base, file, args: [marker], timeoutMs: 500 }), 15_000, 'the hung child');
    expect(r.timedOut).toBe(true);
    expect(r.signal).toBe('SIGKILL');
    expect(await settled(marker)).toEqual([]);
  });

  it('a child that exits at once but leaves a helper holding stdout: the result does not wait for the helper', async () => {
    const marker = `marker-helper-${process.pid}`;
    const file = script('helper.sh', `sh -c 'while :; do sleep 1; done' ${marker} &\necho done`);
    // The helper never ends and the limit is far: a result at all means it did not wait for the helper.
    const r = await within(runInGroup({ ...base, file, args: [], timeoutMs: 600_000 }), 15_000, 'the run with a helper');
    expect(r.exitCode).toBe(0);
    expect(r.timedOut).toBe(false);
    expect(r.stdout.toString()).toBe('done\n');
    expect(await settled(marker)).toEqual([]);
  });

  it('output past the cap ends the group (an answer that never ends)', async () => {
    const r = await runInGroup({ ...base, file: script('yes.sh', 'exec yes aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'), args: [], timeoutMs: 10_000, maxStdout: 1 << 20 });
    expect(r.tooLarge).toBe(true);
    expect(r.stdout.length).toBe(0);
  });

  it('keeps the end of a long error output (where the error is), bounded', async () => {
    const r = await runInGroup({ ...base, file: script('noisy.sh', 'i=0; while [ $i -lt 3000 ]; do echo "noise line $i" >&2; i=$((i+1)); done; echo "error: the real one" >&2; exit 1'), args: [], timeoutMs: 10_000, maxStderr: 4096 });
    expect(r.stderr.length).toBeLessThanOrEqual(4096 + 65_536);
    expect(r.stderr.trim().split('\n').pop()).toBe('error: the real one');
  });

  it('a cancel ends the group at once', async () => {
    const marker = `marker-cancel-${process.pid}`;
    const controller = new AbortController();
    const p = runInGroup({ ...base, file: script('long.sh', `exec sh -c 'while :; do sleep 1; done' ${marker}`), args: [], timeoutMs: 600_000, signal: controller.signal });
    await until('the child to run', () => running(marker).length > 0);
    controller.abort();
    const r = await within(p, 15_000, 'the canceled run');
    expect(r.canceled).toBe(true);
    expect(r.timedOut).toBe(false);
    expect(await settled(marker)).toEqual([]);
  });

  it('a program that does not exist', async () => {
    const r = await runInGroup({ ...base, file: join(dir, 'no-such-program'), args: [], timeoutMs: 5_000 });
    expect(r.enoent).toBe(true);
  });
});
