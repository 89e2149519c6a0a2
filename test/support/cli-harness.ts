/** Runs `main()` in-process with captured, non-TTY output, test step kinds and scripted effects. */
import { PassThrough } from 'node:stream';
import { main } from '../../src/cli.js';
import type { ExitCode } from '../../src/errors.js';
import { fakeEffects, type FakeWorld } from './fake-effects.js';
import { testSteps } from './test-steps.js';

export interface CliResult {
  code: ExitCode;
  stdout: string;
  stderr: string;
}

export async function runCli(argv: string[], opts: { world?: FakeWorld; env?: NodeJS.ProcessEnv; program?: string } = {}): Promise<CliResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  const io = { stdout: stdout as unknown as NodeJS.WriteStream, stderr: stderr as unknown as NodeJS.WriteStream, stdin: process.stdin, env: { ...opts.env } };
  const world = opts.world;
  const code = await main(argv, io, {
    registry: testSteps(),
    ...(opts.program ? { program: opts.program } : {}),
    ...(world ? { effects: (input) => fakeEffects(world, input.confirm) } : {}),
  });
  return { code, stdout: out, stderr: err };
}
