/** A session of the embedded lab is not offered again: its lab ended with the process that ran it. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRunbook } from '../../src/steps/runbook-load.js';
import { runbookOf } from '../steps/plan/support/run-steps.js';
import { Redactor } from '../../src/session/redact.js';
import { SessionStore } from '../../src/session/store.js';
import { builtinSteps } from '../../src/steps/index.js';
import { runCli } from '../support/cli-harness.js';
import { createTestSession } from '../support/session-harness.js';

describe('sessions of an embedded lab that has ended', () => {
  it('are listed as such, with why, and resume refuses them (exit 2) saying why and what to do', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'up-lab-ended-'));
    const store = new SessionStore(stateDir, new Redactor());
    const registry = builtinSteps();
    const { runbook } = parseRunbook(runbookOf(['report']), '/test/lab.yaml', undefined, registry);
    const id = createTestSession(store, runbook, registry, 'lab', { lab: true });

    const list = await runCli(['sessions', '--state-dir', stateDir]);
    expect(list.stdout).toMatch(new RegExp(`^${id} .* running, lab ended`, 'm'));
    expect(list.stdout).toMatch(/^lab ended: the embedded lab .* runs inside its process and ends with it/m);

    const resumed = await runCli(['resume', id, '--state-dir', stateDir]);
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toMatch(new RegExp(`Session ${id} ran on the embedded lab, which ran inside its process and ended with it`));
    expect(resumed.stderr).toMatch(/upgrade-pilot lab --serve/);
  });
});
