/** `upgrade-pilot plan` against a started lab, with its params and key: the exit code and what it printed. */
import { parseCommandLine } from '../../../../src/cli/args.js';
import { runPlanCommand } from '../../../../src/commands/plan.js';
import type { LabHandle } from '../../../../src/lab/index.js';
import type { RunIO } from '../../../../src/run/session-run.js';
import { builtinSteps } from '../../../../src/steps/index.js';

export async function planOnLab(lab: LabHandle, extra: string[] = []): Promise<{ code: number; out: string }> {
  const parsed = parseCommandLine(['plan', '--params', lab.params, ...extra]);
  if (parsed.kind !== 'run') throw new Error('not a run');
  let out = '';
  const io = { stdout: { write: (s: string) => ((out += s), true) }, stderr: { write: () => true }, stdin: {}, env: { UPGRADE_PILOT_API_KEY: lab.apiKey } } as unknown as RunIO;
  const code = await runPlanCommand(parsed.invocation.options, io, builtinSteps());
  return { code, out };
}
