/**
 * Runs the real kubectl against a lab server: an argument array (never a shell line), a kubeconfig
 * of its own, a throwaway discovery cache, and a process timeout so a hung server fails the test
 * instead of the suite.
 */
import { spawn } from 'node:child_process';

export interface KubectlResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Wall time of the kubectl process. */
  ms: number;
}

export interface KubectlOptions {
  kubeconfig: string;
  cacheDir: string;
  input?: string;
  timeoutMs?: number;
  /** Added unless the arguments already carry their own --request-timeout. */
  requestTimeout?: string;
}

export function runKubectl(args: string[], opts: KubectlOptions): Promise<KubectlResult> {
  const requestTimeout = args.some((a) => a.startsWith('--request-timeout')) ? [] : [`--request-timeout=${opts.requestTimeout ?? '10s'}`];
  const full = [`--kubeconfig=${opts.kubeconfig}`, `--cache-dir=${opts.cacheDir}`, ...requestTimeout, ...args];
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn('kubectl', full, {
      env: { ...process.env, KUBECONFIG: opts.kubeconfig, KUBECACHEDIR: opts.cacheDir, HOME: opts.cacheDir },
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: opts.timeoutMs ?? 20_000,
      killSignal: 'SIGKILL',
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), ms: Date.now() - started }));
    child.stdin.end(opts.input ?? '');
  });
}

export interface PrintedTable {
  header: string[];
  rows: string[][];
}

/** kubectl's human output: columns are separated by at least three spaces, cells may hold one. */
export function parsePrintedTable(stdout: string): PrintedTable {
  const [head = '', ...lines] = stdout.split('\n').filter((l) => l.trim() !== '');
  const split = (line: string): string[] => line.trim().split(/\s{2,}/);
  return { header: split(head), rows: lines.map(split) };
}
