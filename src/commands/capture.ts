/**
 * `upgrade-pilot capture --params site.yaml --out FILE`: what upgrade-pilot reads from a site (the
 * Kubernetes objects, the pod log tails of a diagnosis, the profile API's documents, the registry's
 * defaults), read by the product's own reads, redacted, into one file with a manifest, for a
 * support case or the corpus. Read-only. The file is written whole or not at all, 0600, never over
 * another file. Exit 0 written, 2 bad input or over the size cap, 4 the cluster or the API cannot
 * be read (nothing written).
 */
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { CliOptions } from '../cli/args.js';
import { bundledRunbook, loadParams } from '../engine/load.js';
import { loadRunbook } from '../steps/runbook-load.js';
import type { StepRegistry } from '../engine/step-kind.js';
import { readYamlFile } from '../engine/yaml-source.js';
import { ExitCode, InputError } from '../errors.js';
import { formatBytes, LIMITS } from '../io/limits.js';
import { KubeClient } from '../kube/client.js';
import { displayUrl } from '../palette/transport.js';
import { readApiKey } from '../run/api-key.js';
import { buildPalette, kubectlOptions } from '../run/effects.js';
import { clockFor } from '../run/lab-clock.js';
import { makeScratch } from '../run/scratch.js';
import type { RunIO } from '../run/session-run.js';
import { Redactor } from '../session/redact.js';
import { safeOut, sanitizeLines } from '../text/sanitize.js';
import { toolVersion } from '../version.js';
import { assembleCapture } from '../capture/assemble.js';
import { addSecret, registerKubeSecrets } from '../capture/kube-secrets.js';
import { layeredJson } from '../capture/layered-json.js';
import { runPasses, type PassContext } from '../capture/passes.js';
import { CaptureRecorder } from '../capture/recorder.js';
import { RecordingKubectl } from '../capture/recording-kubectl.js';
import { redactValuesText } from '../capture/redact-values.js';
import { captureParams } from '../capture/site-params.js';
import { CAPTURE_DEFAULT_MAX_BYTES, type PassRecord, type PartRecord } from '../capture/types.js';
import { readValuesFolder } from '../capture/values-folder.js';
import { checkCaptureTarget, writeCaptureFile } from '../capture/write-file.js';
import { sinceOf } from './verify.js';
import { chosenKubeconfig } from '../run/kubeconfig-choice.js';
import { formatDuration } from '../text/duration.js';

function tooLarge(cluster: string, size: string, cap: number, reading?: string): InputError {
  return new InputError('capture.too-large', `The capture of ${cluster} ${reading ? `passed ${formatBytes(cap)} while reading for the ${reading} pass` : `is ${size}`}, over its cap of ${formatBytes(cap)} (--max-size). Nothing was written.`, {
    hint: `Pass a larger cap, e.g. --max-size ${formatBytes(Math.min(cap * 2, 500 * 1024 * 1024)).replace(' ', '')} (at most 500MiB); a capture of 5,000 VMs is about 40 MiB.`,
  });
}

export async function runCaptureCommand(options: CliOptions, io: RunIO, registry: StepRegistry): Promise<ExitCode> {
  if (!options.params) throw new InputError('usage.params', '`capture` needs the site parameters.', { hint: 'Pass --params FILE (see params.example.yaml).' });
  if (!options.out) throw new InputError('usage.out', '`capture` needs the file to write.', { hint: 'Pass --out FILE, e.g. --out site.capture.json.gz (.gz: compressed).' });
  const out = resolve(options.out);
  checkCaptureTarget(out);
  const maxBytes = options['max-size'] ?? CAPTURE_DEFAULT_MAX_BYTES;
  const redactor = new Redactor();
  const key = readApiKey(options['api-key-file'], io.env, redactor);
  if (!key.key) throw new InputError('usage.api-key', '`capture` reads the profile API and needs its key.', { hint: 'Set UPGRADE_PILOT_API_KEY in the environment, or pass --api-key-file FILE.' });
  addSecret(redactor, key.key);
  const { params, file: paramsFile } = loadParams(options.params);
  const { runbook } = loadRunbook(options.runbook ?? bundledRunbook(), params, registry);
  const kubeconfig = chosenKubeconfig(options.kubeconfig, params);
  const context = options.context ?? params.cluster.context;
  registerKubeSecrets(redactor, kubeconfig, context, io.env);
  const cluster = params.cluster.name ?? params.cluster.uid;
  const allowInsecureHttp = options['allow-insecure-http'];
  const clock = await clockFor(params, key.key, { allowInsecureHttp });
  const capturedAt = new Date();
  const clusterTime = new Date(clock.now());
  // A replay has no session of this cluster: it is told where the site's verify judged from.
  const since = sinceOf(options, io.env, params.cluster.uid, clock, redactor);

  const controller = new AbortController();
  let passName = 'preflight';
  const recorder = new CaptureRecorder({ redactor, maxBytes, onOverCap: () => controller.abort() });
  const stopped = () => (recorder.over ? tooLarge(cluster, '', maxBytes, passName) : undefined);
  const scratch = makeScratch('kube');
  const started = Date.now();
  try {
    const newPalette = () => buildPalette({ params, apiKey: key.key, redactor, allowInsecureHttp, onReply: (call, reply) => recorder.paletteAnswer(call, reply.status, reply.text) });
    const kubectl = new RecordingKubectl(kubectlOptions({ runbook, kubeconfig, context, redactor, cacheDir: scratch.dir }), recorder);
    scratch.onDispose(() => kubectl.close());
    const ctx: PassContext = { site: params, runbook, newPalette, kube: new KubeClient(kubectl), clock, signal: controller.signal, recorder, state: {} };
    const passes = await runPasses(ctx, stopped, (name) => (passName = name));

    const values = params.valuesDir ? Object.fromEntries(Object.entries(readValuesFolder(params.valuesDir)).map(([k, t]) => [k, redactValuesText(redactor.text(t)).text])) : {};
    const built = recorder.build();
    const document = assembleCapture({
      built,
      passes,
      // `extra` is free-form: a value under a credential's name is blanked like any other.
      params: redactor.value(captureParams(readYamlFile(paramsFile, 'params file', LIMITS.paramsFile).value)),
      values,
      meta: {
        tool: { name: 'upgrade-pilot', version: toolVersion },
        capturedAt: capturedAt.toISOString(),
        clusterTime: clusterTime.toISOString(),
        cluster: { uid: params.cluster.uid, ...(params.cluster.name ? { name: params.cluster.name } : {}) },
        verifySince: { ...(since.at !== undefined ? { at: new Date(since.at).toISOString() } : {}), source: since.source },
        kube: {
          serverVersion: typeof built.kube.version?.gitVersion === 'string' ? built.kube.version.gitVersion : 'unknown',
          // The context's name, never the access file's path: a capture keeps no local path (README).
          ...(context ? { context } : {}),
          readBy: "kubectl (the run's kubectl proxy, or kubectl get --raw): GET only, with the kubeconfig's context and credentials",
        },
        palette: {
          flavor: ctx.state.flavor ?? 'spec',
          baseUrl: displayUrl(params.palette.baseUrl),
          projectUid: params.palette.projectUid,
          clusterCollection: params.palette.clusterCollection,
          readBy: 'the profile API client (ApiKey and ProjectUid headers; GET answers recorded, after redaction)',
        },
      },
    });
    // The last line of defence: every form of every secret known to the redactor, wherever it is.
    const text = redactor.text(layeredJson(document));
    const bytes = Buffer.from(text, 'utf8');
    if (bytes.length > maxBytes) throw tooLarge(cluster, formatBytes(bytes.length), maxBytes);
    const written = out.endsWith('.gz') ? gzipSync(bytes) : bytes;
    writeCaptureFile(out, written);
    report(io, options, { out, cluster, bytes: bytes.length, written: written.length, ms: Date.now() - started, passes, parts: document.manifest ? (document.manifest as { parts: PartRecord[] }).parts : [], redactions: built.redactions, flavor: ctx.state.flavor ?? 'spec', redactor });
    return ExitCode.ok;
  } finally {
    controller.abort();
    scratch.dispose();
  }
}

interface Summary {
  out: string;
  cluster: string;
  bytes: number;
  written: number;
  ms: number;
  passes: PassRecord[];
  parts: PartRecord[];
  redactions: Array<{ what: string; count: number }>;
  flavor: string;
  redactor: Redactor;
}

function report(io: RunIO, options: CliOptions, s: Summary): void {
  const line = (t: string) => io.stdout.write(`${safeOut(s.redactor.text(t), options.json)}\n`);
  const failed = s.passes.filter((p) => !p.ok);
  if (options.json) {
    line(JSON.stringify({ file: s.out, cluster: s.cluster, bytes: s.bytes, written: s.written, ms: s.ms, flavor: s.flavor, passes: s.passes, parts: s.parts.map(({ part, what, count }) => ({ part, what, count })), redactions: s.redactions }));
    return;
  }
  const size = s.written === s.bytes ? formatBytes(s.bytes) : `${formatBytes(s.written)} (${formatBytes(s.bytes)} uncompressed)`;
  line(`upgrade-pilot capture: ${s.cluster} → ${s.out}: ${size}, read in ${formatDuration(s.ms)}`);
  for (const p of s.parts) line(`  ${String(p.count).padStart(6)}  ${p.what}`);
  if (s.redactions.length) line(`  redacted: ${s.redactions.map((r) => `${r.what.replace(/ \(.*\)$/, '')} (${r.count})`).join('; ')}`);
  for (const p of failed) io.stderr.write(sanitizeLines(s.redactor.text(`warning: the ${p.name} pass stopped early: ${p.error ?? 'unknown'}; the capture holds what it read before.\n`)));
  line(`Replay it offline: upgrade-pilot lab --replay ${s.out} --serve --state-dir DIR (profile API: ${s.flavor === 'palette' ? 'a real Palette' : "the spec's service"})`);
}
