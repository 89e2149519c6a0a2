/**
 * The read-only commands against a served lab (a real Palette, the pack registry, the real
 * kubectl), as an operator runs them: what they print on stderr is theirs alone. Node's own
 * warnings are noise on an operator's terminal and read like a bug: `plan` and `diff` printed
 * MaxListenersExceededWarning when their cluster reads through the kubectl proxy and their
 * registry reads shared one abort signal (src/net/shared-signal.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, serveLab, type ServedLab } from './support.js';

let lab: ServedLab;
beforeAll(async () => {
  lab = await serveLab('healthy', 300, 'palette');
}, 90_000);
afterAll(async () => {
  await lab?.stop();
});

describe('read-only commands print no warnings of Node’s', () => {
  it.each([['plan'], ['diff'], ['verify']])('%s', async (command) => {
    const r = await cli([command, '--params', lab.json.params], { UPGRADE_PILOT_API_KEY: lab.json.apiKey });
    expect(r.code, r.stderr).toBeLessThanOrEqual(1);
    expect(r.stdout.length).toBeGreaterThan(0);
    expect(r.stderr).not.toMatch(/Warning|\(node:\d+\)|trace-warnings/);
  }, 120_000);
});
