/**
 * A process that owns a kubectl read proxy (test/kube/read-proxy.test.ts): it reads once through
 * it, says so, then either exits without closing the proxy (`exit`: once a line arrives on stdin,
 * so the test can see the proxy running first) or waits to be killed (`hang`).
 * Run through bundleChild() (node runs JavaScript, this is TypeScript over the sources).
 *
 *   node proxy-owner.mjs KUBECONFIG CACHE_DIR exit|hang
 */
import { Kubectl } from '../../src/kube/kubectl.js';

const [kubeconfig, cacheDir, mode] = process.argv.slice(2) as [string, string, 'exit' | 'hang'];
const k = new Kubectl({ kubeconfig, requestTimeoutMs: 10_000, processTimeoutMs: 15_000, cacheDir, concurrency: 2, readProxy: true });
const text = await k.getRaw('/api/v1/nodes', 'list nodes');
process.stdout.write(`read ${text.length}\n`);
if (mode === 'hang') setInterval(() => undefined, 1_000);
// Nothing else keeps the process: once stdin is let go, it ends with the proxy never closed.
else process.stdin.once('data', () => process.stdin.destroy());
