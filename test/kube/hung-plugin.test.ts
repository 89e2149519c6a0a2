/**
 * The real kubectl with a kubeconfig whose exec credential plugin never returns (as a browser-login
 * plugin does) and starts a helper that keeps the pipes: each call ends at the process limit with
 * its whole process group, the calls queued behind it fail at once with the same cause, and no
 * process is left behind.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KubeError } from '../../src/kube/errors.js';
import { Kubectl } from '../../src/kube/kubectl.js';

const dir = mkdtempSync(join(tmpdir(), 'i17-plugin-'));
const marker = `i17-hung-plugin-${process.pid}`;
const plugin = join(dir, `${marker}.sh`);
writeFileSync(plugin, `#!/bin/sh\ntrap '' TERM\n(trap '' TERM; while :; do sleep 1; done) &\nwhile :; do sleep 1; done\n`);
chmodSync(plugin, 0o755);
const kubeconfig = join(dir, 'kubeconfig');
writeFileSync(
  kubeconfig,
  `apiVersion: v1
kind: Config
clusters: [{ name: c, cluster: { server: "https://127.0.0.1:9" } }]
users: [{ name: u, user: { exec: { apiVersion: client.authentication.k8s.io/v1, command: ${plugin}, interactiveMode: Never } } }]
contexts: [{ name: x, context: { cluster: c, user: u } }]
current-context: x
`,
);

function left(): string[] {
  const ps = execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
  return ps.split('\n').filter((l) => l.includes(marker) && !/^\s*\d+\s+Z/.test(l));
}

describe('a hung exec credential plugin', () => {
  it('each call ends at the process limit; the queued ones fail at once; nothing is left running', async () => {
    const kubectl = new Kubectl({ kubeconfig, requestTimeoutMs: 1_000, processTimeoutMs: 1_500, cacheDir: join(dir, 'cache'), concurrency: 2 });
    const started = Date.now();
    const results = await Promise.allSettled(['a', 'b', 'c', 'd', 'e', 'f'].map((r) => kubectl.getRaw(`/api/v1/${r}`, `list ${r}`)));
    const took = Date.now() - started;
    // Two in flight hit the limit together; the four queued behind them fail at once (not 3 more rounds).
    expect(took).toBeLessThan(1_500 + 2_000 + 1_000 + 2_000);
    expect(kubectl.callCount()).toBe(2);
    for (const r of results) {
      expect(r.status).toBe('rejected');
      const err = (r as PromiseRejectedResult).reason as KubeError;
      expect(err).toBeInstanceOf(KubeError);
      expect(err.failure).toBe('timeout');
      expect(err.exitCode).toBe(4);
      // The plugin the access file runs is named: it, not the network, may be what hangs.
      expect(err.message).toMatch(/^The cluster did not answer in time \(1s\) \(or its credential plugin \S+i17-hung-plugin-\d+\.sh did not return\) while trying to list [a-f]\.$/);
    }
    const until = Date.now() + 5_000;
    while (left().length && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(left()).toEqual([]);
    // The next call (queued after the limit was hit) is tried again, normally.
    await expect(kubectl.getRaw('/api/v1/g', 'list g')).rejects.toMatchObject({ failure: 'timeout' });
    expect(kubectl.callCount()).toBe(3);
  }, 30_000);
});
