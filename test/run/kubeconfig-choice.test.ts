/**
 * A kubeconfig the operator named (`--kubeconfig`, the params file's `cluster.kubeconfig`) that does
 * not exist is bad input (exit 2, as a missing params file is), said before anything runs; one left
 * unnamed is kubectl's to find ($KUBECONFIG); one that exists goes on to the access file's own checks.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../src/cli/args.js';
import { runCaptureCommand } from '../../src/commands/capture.js';
import { runDiffCommand } from '../../src/commands/diff.js';
import { runPlanCommand } from '../../src/commands/plan.js';
import { runVerifyCommand } from '../../src/commands/verify.js';
import { exitCodeOf } from '../../src/errors.js';
import { chosenKubeconfig } from '../../src/run/kubeconfig-choice.js';
import { builtinSteps } from '../../src/steps/index.js';

const dir = mkdtempSync(join(tmpdir(), 'up-kubeconfig-choice-'));
const present = join(dir, 'present.kubeconfig');
writeFileSync(present, 'apiVersion: v1\nkind: Config\n');
const missing = join(dir, 'missing.kubeconfig');
const params = (kubeconfig?: string) => ({ cluster: { uid: 'c-1', ...(kubeconfig ? { kubeconfig } : {}) } });

describe('chosenKubeconfig', () => {
  it.each<[string, string | undefined, string | undefined, string | undefined]>([
    ['none named: kubectl reads $KUBECONFIG', undefined, undefined, undefined],
    ['the flag over the params file', present, missing, present],
    ['the params file', undefined, present, present],
  ])('%s', (_what, flag, inParams, chosen) => {
    expect(chosenKubeconfig(flag, params(inParams))).toBe(chosen);
  });

  it.each<[string, string | undefined, string | undefined, RegExp, RegExp]>([
    ['named by the flag', missing, undefined, /named by --kubeconfig does not exist/, /--kubeconfig FILE/],
    ['named by the params file', undefined, missing, /named by cluster\.kubeconfig in the params file \/site\.yaml does not exist/, /cluster\.kubeconfig, or --kubeconfig FILE/],
  ])('a file %s that is not there: exit 2, named, with what to do', (_what, flag, inParams, message, hint) => {
    let err: unknown;
    try {
      chosenKubeconfig(flag, params(inParams), '/site.yaml');
    } catch (e) {
      err = e;
    }
    expect(exitCodeOf(err)).toBe(2);
    expect((err as Error).message).toMatch(message);
    expect((err as { hint: string }).hint).toMatch(hint);
  });
});

describe('every command that reads the cluster says so, exit 2', () => {
  const site = join(dir, 'site.yaml');
  writeFileSync(site, 'palette: { baseUrl: http://127.0.0.1:9, projectUid: p-1 }\ncluster: { uid: c-1 }\nprofiles: { addon: { uid: a-1 }, infra: { uid: i-1 } }\ntarget: 4.6.3\nsite: { blockStorageClass: px }\n');
  it.each([
    ['plan', runPlanCommand, []],
    ['diff', runDiffCommand, []],
    ['verify', runVerifyCommand, []],
    ['capture', runCaptureCommand, ['--out', join(dir, 'c.json')]],
  ] as const)('%s', async (name, run, extra) => {
    const parsed = parseCommandLine([name, '--params', site, '--kubeconfig', missing, ...extra]);
    if (parsed.kind !== 'run') throw new Error('argv');
    const io = { stdout: new PassThrough() as unknown as NodeJS.WriteStream, stderr: new PassThrough() as unknown as NodeJS.WriteStream, stdin: process.stdin, env: { UPGRADE_PILOT_API_KEY: 'k' } };
    let err: unknown;
    try {
      await run(parsed.invocation.options, io, builtinSteps());
    } catch (e) {
      err = e;
    }
    expect(exitCodeOf(err)).toBe(2);
    expect((err as Error).message).toMatch(/missing\.kubeconfig named by --kubeconfig does not exist/);
  });
});
