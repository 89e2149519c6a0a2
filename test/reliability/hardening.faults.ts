/**
 * Hardening (issue 17), the long part (`npm run test:faults`); the sample is hardening.test.ts.
 *
 * - memory: the peak RSS of a run against an answer that never ends, per cap (palette.maxResponse
 *   8, 64 and 256 MiB), and of `start` against it; the figures go to RELIABILITY.md;
 * - text: an error body of terminal escapes through every writer (plan, diff, verify, start in
 *   plain and JSON mode, the report): no raw control character in any output or report file;
 * - leftovers: five killed runs in a row never pile up more than one scratch folder;
 * - rate limits: a whole upgrade where every publish meets 429s and 503s with Retry-After: no stop,
 *   each publish applied once;
 * - input: a 50,000-key params mapping parses in seconds (the library's own key check took 95 s).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadParams } from '../../src/engine/load.js';
import { paletteProxy, type PaletteProxy } from './support/palette-proxy.js';
import { paramsVia, peaks } from './support/hostile.js';
import { isStopped, RAW_CONTROL, runTool, serveLab, sessionIds, spawnTool, tempDir, waitFor, walk, type ServedLab } from './support/processes.js';
import { appliedMutations, duplicates, expectedHealthyMutations, keyEnv, startArgs } from './support/upgrade.js';

let lab: ServedLab;
const proxies: PaletteProxy[] = [];
const figures: string[] = [];
beforeAll(async () => {
  lab = await serveLab({ scenario: 'healthy', speed: 600 });
});
afterAll(async () => {
  await Promise.all(proxies.map((p) => p.close()));
  await lab?.stop();
  console.log(`hardening figures:\n${figures.join('\n')}`);
});

async function proxy(): Promise<PaletteProxy> {
  const p = await paletteProxy(lab.json.paletteUrl);
  proxies.push(p);
  return p;
}

describe('memory against an answer that never ends', () => {
  it('the peak RSS follows the cap, not the answer', async () => {
    const p = await proxy();
    p.setRewrite((req) => (req.method === 'GET' && req.path.startsWith('/v1/clusterprofiles/') ? 'stream' : undefined));
    const rss = join(tempDir('rss'), 'rss.ndjson');
    const normal = await runTool(['plan', '--params', lab.json.params], { env: keyEnv(lab), rssLog: rss });
    expect(normal.code, normal.stderr).toBe(0);
    const caps = ['8MiB', '64MiB', '256MiB'];
    for (const cap of caps) {
      const r = await runTool(['plan', '--params', paramsVia(lab, p.url, (d) => (d.palette.maxResponse = cap))], { env: keyEnv(lab), rssLog: rss, timeoutMs: 180_000 });
      expect(r.code, r.stderr).toBe(4);
      expect(r.stderr).toMatch(new RegExp(`is larger than ${cap.replace('MiB', ' MiB')}; it was not read`));
    }
    const session = await runTool(['start', '--params', paramsVia(lab, p.url), '--non-interactive', '--state-dir', tempDir('rss-state')], { env: keyEnv(lab), rssLog: rss, timeoutMs: 180_000 });
    expect(session.code, session.stderr).toBe(4);
    const [plain, ...rest] = peaks(rss).map((k) => Math.round(k / 1024));
    figures.push(`  plan peak RSS: ${plain} MiB normally; against an endless answer: ${caps.map((c, i) => `${rest[i]} MiB at cap ${c}`).join(', ')}; start (cap 64 MiB): ${rest[3]} MiB`);
    // Up to two profile reads at once, each holding at most the cap (and its text).
    caps.forEach((c, i) => expect(rest[i]!).toBeLessThan(plain! + 4 * Number.parseInt(c, 10) + 64));
  }, 600_000);
});

describe('server text through every writer', () => {
  it('an error body of terminal escapes: no raw control character in any output or report', async () => {
    const p = await proxy();
    p.setRewrite((req) =>
      req.method === 'GET' && req.path.startsWith('/v1/')
        ? { status: 500, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: 'X\u001b[2J\u009b2J', message: `\u001b]0;owned\u0007\u001b[31m\u202eevil ${'z'.repeat(1_000_000)}`, ref: '\u0007' }) }
        : undefined,
    );
    const params = paramsVia(lab, p.url);
    const stateDir = tempDir('escapes-state');
    const runs = await Promise.all([
      runTool(['plan', '--params', params], { env: keyEnv(lab) }),
      runTool(['plan', '--params', params, '--json'], { env: keyEnv(lab) }),
      runTool(['diff', '--params', params], { env: keyEnv(lab) }),
      runTool(['verify', '--params', params], { env: keyEnv(lab) }),
      runTool(['verify', '--params', params, '--json'], { env: keyEnv(lab) }),
      runTool(['start', '--params', params, '--non-interactive', '--state-dir', stateDir], { env: keyEnv(lab) }),
      runTool(['start', '--params', params, '--json', '--state-dir', stateDir], { env: keyEnv(lab) }),
    ]);
    const report = await runTool(['report', '--state-dir', stateDir], {});
    const reportJson = await runTool(['report', '--json', '--state-dir', stateDir], {});
    for (const r of [...runs, report, reportJson]) {
      expect(`${r.stdout}${r.stderr}`).not.toMatch(RAW_CONTROL);
      expect(r.stdout.length + r.stderr.length).toBeLessThan(200_000);
    }
    expect(runs.map((r) => r.code)).toEqual([4, 4, 4, 4, 4, 4, 4]);
    for (const f of walk(stateDir).filter((e) => !e.dir && /report\.(md|json)$/.test(e.path))) expect(readFileSync(f.path, 'utf8'), f.path).not.toMatch(RAW_CONTROL);
    figures.push(`  escapes: ${runs.length + 2} outputs and the report files searched; 0 raw control characters`);
  }, 300_000);
});

describe('leftovers', () => {
  it('five killed runs: each next run removes what the one before left; the last one\'s goes with the next command, which leaves none', async () => {
    const tmp = tempDir('tmpdir-many');
    mkdirSync(tmp, { recursive: true });
    const scratch = () => readdirSync(tmp).filter((n) => n.startsWith('upgrade-pilot-kube-'));
    for (let i = 0; i < 5; i++) {
      const report = join(tempDir('many-report'), 'stop.json');
      const tool = spawnTool(['start', '--params', lab.json.params, '--non-interactive', '--state-dir', tempDir('many-state')], {
        env: { ...keyEnv(lab), TMPDIR: tmp },
        crash: { targets: ['step.started|snapshot|'], mode: 'stop', report },
      });
      await waitFor('the run to stop', () => existsSync(report) && isStopped(tool.pid));
      // While it lives, its folder (and only its: the dead ones' are gone) is there.
      expect(scratch()).toEqual([expect.stringMatching(new RegExp(`^upgrade-pilot-kube-${tool.pid}-`))]);
      tool.proc.kill('SIGKILL');
      await tool.done;
    }
    expect(scratch()).toHaveLength(1);
    expect((await runTool(['plan', '--params', lab.json.params], { env: { ...keyEnv(lab), TMPDIR: tmp } })).code).toBe(0);
    expect(scratch()).toEqual([]);
    figures.push('  leftovers: 5 killed runs in a row, never more than 1 scratch folder, 0 after the next command');
  }, 300_000);
});

describe('rate limits on every publish of a whole upgrade', () => {
  it('429s and 503s with Retry-After: no stop, each publish applied exactly once', async () => {
    const other = await serveLab({ scenario: 'healthy', speed: 600 });
    try {
      const { infra, addon } = other.json.profileUids;
      await other.faults([
        { route: `PATCH /v1/clusterprofiles/${infra}/publish`, faults: { rateLimit: { burst: 2, every: 3, retryAfterSeconds: 1 } } },
        { route: `PATCH /v1/clusterprofiles/${addon}/publish`, faults: { rateLimit: { burst: 3, every: 4, retryAfterSeconds: 1, status: 503 } } },
      ]);
      const stateDir = tempDir('rate-all');
      const r = await runTool(startArgs(other, stateDir), { env: keyEnv(other), timeoutMs: 300_000 });
      expect(r.code, r.stderr).toBe(0);
      const audit = await other.audit();
      const applied = appliedMutations(audit);
      expect(duplicates(applied)).toEqual([]);
      expect(applied).toEqual(expectedHealthyMutations(other));
      const refused = audit.filter((e) => e.method === 'PATCH' && e.effect === 'rejected');
      expect(refused.length).toBe(2 * 2 + 2 * 3);
      expect(sessionIds(stateDir)).toHaveLength(1);
      figures.push(`  rate limits: ${refused.length} publishes refused (429/503 with Retry-After) over a whole upgrade, 0 stops, 4 publishes applied once each`);
    } finally {
      await other.stop();
    }
  }, 400_000);
});

describe('input that is large but legitimate', () => {
  it('a params mapping of 50,000 keys (700 KB) parses in seconds, not minutes', () => {
    const dir = tempDir('many-keys');
    const base = readFileSync(lab.json.params, 'utf8');
    const file = join(dir, 'params.yaml');
    writeFileSync(file, `${base}${Array.from({ length: 50_000 }, (_, i) => `  k${i}: v`).join('\n')}\n`);
    const started = Date.now();
    expect(loadParams(file).params.extra).toHaveProperty('k49999', 'v');
    const ms = Date.now() - started;
    figures.push(`  a 50,000-key params mapping: parsed in ${ms} ms (the yaml library's own key check took 95 s)`);
    expect(ms).toBeLessThan(30_000);
  }, 60_000);
});
