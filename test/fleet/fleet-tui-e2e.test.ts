/**
 * The fleet screen end to end: the CLI in this process on a terminal of 120x40 (a TTY stdout and
 * stdin the test types into), `fleet start` against a served fleet lab of 2 clusters (canary 1,
 * wave-1 of 1) with every gate approved by flag but the VM restarts. Each cluster's restart gate
 * is queued on the fleet screen with its cluster named, opened with `a`, answered with `r` (keys
 * inside the gate's guard time are dropped, so `r` is typed until the restart is sent), and Esc
 * leads back; the fleet ends upgraded, the lab's audit shows one restart per cluster and the
 * fleet report each restart decided by key.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import type { FleetReport } from '../../src/fleet/report-schema.js';
import { keys, plain, press, SizedStdout, TestStdin, waitForFrame } from '../support/ui.js';
import { serveFleetLab, type ServedFleetLab } from './support.js';

describe('fleet screen: lab --fleet 2, restarts answered on the screen', () => {
  let lab: ServedFleetLab;
  beforeAll(async () => {
    lab = await serveFleetLab(2, []);
  });
  afterAll(async () => {
    await lab?.stop();
  });

  it('queues each cluster’s restart gate with its cluster named; a key on its own screens answers it; the fleet ends upgraded', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'up-fleet-tui-'));
    const stdout = new SizedStdout(120, 40);
    const stdin = new TestStdin();
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, UPGRADE_PILOT_API_KEY: lab.json.apiKey };
    const io = { stdout: stdout as unknown as NodeJS.WriteStream, stderr: new SizedStdout(120, 40) as unknown as NodeJS.WriteStream, stdin: stdin as unknown as NodeJS.ReadStream, env };
    const run = main(['fleet', 'start', '--fleet', lab.json.fleet, '--state-dir', stateDir, '--approve', 'draft,publish,apply,repave,cancel-migrations'], io, { inkDebug: true });
    const frame = () => stdout.lastFrame();
    for (const cluster of ['store-001', 'store-002']) {
      await waitForFrame(frame, (f) => f.includes(`${cluster}: Restart VM`) && f.includes('Gates waiting (1)'), 240_000);
      await press(stdin, 'a');
      await waitForFrame(frame, (f) => f.includes('GATE: Restart VM') && f.includes(`cluster ${cluster}`));
      // r until the restart is sent: one typed inside the guard time is dropped, as it should be.
      for (const started = Date.now(); !plain(frame()).includes('Sent: restart VM'); ) {
        if (Date.now() - started > 30_000) throw new Error(`${cluster}'s restart was never sent; last frame:\n${plain(frame())}`);
        await press(stdin, 'r');
        await new Promise((r) => setTimeout(r, 50));
      }
      await press(stdin, keys.escape);
      await waitForFrame(frame, (f) => f.includes('CLUSTER') && f.includes('▸ canary'));
    }
    await waitForFrame(frame, (f) => f.includes('the fleet ended (exit 0)'), 240_000);
    expect(plain(frame())).toMatch(/▸ wave-1: done · 1\/1 done/);
    // The report is written as the fleet ends, and the screen names it while it waits for q.
    const reportFile = join(stateDir, 'fleets', 'lab-fleet', 'report.md');
    expect(plain(frame())).toContain(`the fleet ended (exit 0); report: ${reportFile}`);
    expect(existsSync(reportFile)).toBe(true);
    await press(stdin, 'q');
    expect(await run).toBe(0);

    const audit = await lab.audit();
    const restarts = audit.filter((e) => e.api !== 'palette' && e.method !== 'GET' && e.path.endsWith('/restart'));
    expect(restarts.length).toBe(2);
    const report = JSON.parse(readFileSync(join(stateDir, 'fleets', 'lab-fleet', 'report.json'), 'utf8')) as FleetReport;
    for (const c of report.clusters) {
      expect(c.fate, c.cluster).toBe('upgraded');
      expect(c.decisions.filter((d) => d.gate === 'restart'), c.cluster).toEqual([expect.objectContaining({ choice: 'approve', by: 'key', detail: 'r' })]);
    }
  }, 600_000);
});
