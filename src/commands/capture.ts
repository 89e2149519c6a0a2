/**
 * `upgrade-pilot capture --params site.yaml --out FILE`: what upgrade-pilot reads from a site (the
 * Kubernetes objects, the pod log tails of a diagnosis, the profile API's documents, the registry's
 * defaults), read by the product's own reads, redacted, into one file with a manifest, for a
 * support case or the corpus. Read-only. The file is written whole or not at all, 0600, never over
 * another file. Exit 0 written, 2 bad input or over the size cap, 4 the cluster or the API cannot
 * be read (nothing written).
 */
import { resolve } from 'node:path';
import type { CliOptions } from './options.js';
import { bundledRunbook, loadParams } from '../engine/load.js';
import { loadRunbook } from '../steps/runbook-load.js';
import type { StepRegistry } from '../engine/step-kind.js';
import { ExitCode, InputError } from '../errors.js';
import { CAPTURE_DEFAULT_MAX_BYTES, formatBytes } from '../io/limits.js';
import { readApiKey } from '../run/api-key.js';
import { buildPalette, kubectlOptions } from '../run/effects.js';
import { clockFor } from '../run/lab-clock.js';
import { makeScratch } from '../run/scratch.js';
import type { RunIO } from '../run/session-run.js';
import { Redactor } from '../session/redact.js';
import { safeOut, sanitizeLines } from '../text/sanitize.js';
import { captureSite, checkCaptureTarget, type CaptureSummary } from '../capture/index.js';
import { sinceOf } from './verify.js';
import { chosenKubeconfig } from '../run/kubeconfig-choice.js';
import { formatDuration } from '../text/duration.js';

export async function runCaptureCommand(options: CliOptions, io: RunIO, registry: StepRegistry): Promise<ExitCode> {
  if (!options.params) throw new InputError('usage.params', '`capture` needs the site parameters.', { hint: 'Pass --params FILE (see params.example.yaml).' });
  if (!options.out) throw new InputError('usage.out', '`capture` needs the file to write.', { hint: 'Pass --out FILE, e.g. --out site.capture.json.gz (.gz: compressed).' });
  const out = resolve(options.out);
  checkCaptureTarget(out);
  const maxBytes = options['max-size'] ?? CAPTURE_DEFAULT_MAX_BYTES;
  const redactor = new Redactor();
  const key = readApiKey(options['api-key-file'], io.env, redactor);
  if (!key.key) throw new InputError('usage.api-key', '`capture` reads the profile API and needs its key.', { hint: 'Set UPGRADE_PILOT_API_KEY in the environment, or pass --api-key-file FILE.' });
  const apiKey = key.key;
  const { params, file: paramsFile } = loadParams(options.params);
  const { runbook } = loadRunbook(options.runbook ?? bundledRunbook(), params, registry);
  const kubeconfig = chosenKubeconfig(options.kubeconfig, params);
  const context = options.context ?? params.cluster.context;
  const allowInsecureHttp = options['allow-insecure-http'];
  const scratch = makeScratch('kube');
  try {
    const summary = await captureSite({
      out,
      maxBytes,
      params,
      paramsFile,
      runbook,
      kubeconfig,
      context,
      apiKey,
      redactor,
      env: io.env,
      clock: () => clockFor(params, apiKey, { allowInsecureHttp }),
      since: (clock) => sinceOf(options, io.env, params.cluster.uid, clock, redactor),
      newPalette: (onReply) => buildPalette({ params, apiKey, redactor, allowInsecureHttp, onReply }),
      kubectl: kubectlOptions({ runbook, kubeconfig, context, redactor, cacheDir: scratch.dir }),
    });
    report(io, options, summary, redactor);
    return ExitCode.ok;
  } finally {
    scratch.dispose();
  }
}

function report(io: RunIO, options: CliOptions, s: CaptureSummary, redactor: Redactor): void {
  const line = (t: string) => io.stdout.write(`${safeOut(redactor.text(t), options.json)}\n`);
  const failed = s.passes.filter((p) => !p.ok);
  if (options.json) {
    line(JSON.stringify({ file: s.out, cluster: s.cluster, bytes: s.bytes, written: s.written, ms: s.ms, flavor: s.flavor, passes: s.passes, parts: s.parts.map(({ part, what, count }) => ({ part, what, count })), redactions: s.redactions }));
    return;
  }
  const size = s.written === s.bytes ? formatBytes(s.bytes) : `${formatBytes(s.written)} (${formatBytes(s.bytes)} uncompressed)`;
  line(`upgrade-pilot capture: ${s.cluster} → ${s.out}: ${size}, read in ${formatDuration(s.ms)}`);
  for (const p of s.parts) line(`  ${String(p.count).padStart(6)}  ${p.what}`);
  if (s.redactions.length) line(`  redacted: ${s.redactions.map((r) => `${r.what.replace(/ \(.*\)$/, '')} (${r.count})`).join('; ')}`);
  for (const p of failed) io.stderr.write(sanitizeLines(redactor.text(`warning: the ${p.name} pass stopped early: ${p.error ?? 'unknown'}; the capture holds what it read before.\n`)));
  line(`Replay it offline: upgrade-pilot lab --replay ${s.out} --serve --state-dir DIR (profile API: ${s.flavor === 'palette' ? 'a real Palette' : "the spec's service"})`);
}
