/**
 * The capture's entry point (the product reaches capture/ only here, from `upgrade-pilot capture`):
 * what upgrade-pilot reads from a site (the Kubernetes objects, the pod log tails of a diagnosis,
 * the profile API's documents, the registry's defaults), read by the product's own reads, redacted,
 * into one file with a manifest. Read-only. The file is written whole or not at all, 0600, never
 * over another file; over its cap, nothing is written.
 *
 * The command gives what the layers that run a session decide (the key, the clock, the kubectl
 * settings, where verify judges from); this module does the capture's work and says what it wrote.
 */
import { gzipSync } from 'node:zlib';
import type { Clock } from '../engine/clock.js';
import type { Params } from '../engine/params.js';
import type { Runbook } from '../engine/runbook.js';
import { readYamlFile } from '../engine/yaml-source.js';
import { InputError } from '../errors.js';
import { formatBytes, LIMITS } from '../io/limits.js';
import { KubeClient } from '../kube/client.js';
import type { KubectlOptions } from '../kube/kubectl.js';
import type { PaletteApi } from '../palette/api.js';
import type { PaletteClientOptions } from '../palette/client.js';
import { displayUrl } from '../palette/transport.js';
import type { Redactor } from '../session/redact.js';
import type { ResolvedSince } from '../steps/verify/verify-since.js';
import { toolVersion } from '../version.js';
import { assembleCapture } from './assemble.js';
import { addSecret, registerKubeSecrets } from './kube-secrets.js';
import { layeredJson } from './layered-json.js';
import { runPasses, type PassContext } from './passes.js';
import { CaptureRecorder } from './recorder.js';
import { RecordingKubectl } from './recording-kubectl.js';
import { redactValuesText } from './redact-values.js';
import { captureParams } from './site-params.js';
import type { PartRecord, PassRecord } from './types.js';
import { readValuesFolder } from './values-folder.js';
import { writeCaptureFile } from './write-file.js';

export { checkCaptureTarget } from './write-file.js';

export interface CaptureRequest {
  /** The file to write (absolute; `.gz`: compressed), checked beforehand with checkCaptureTarget. */
  out: string;
  /** The cap on the capture's uncompressed size. */
  maxBytes: number;
  params: Params;
  paramsFile: string;
  runbook: Runbook;
  /** The kubeconfig in use (its credentials are redacted too); undefined: kubectl's own choice. */
  kubeconfig: string | undefined;
  context: string | undefined;
  apiKey: string;
  /** Every secret met is added to it; every text written passes through it. */
  redactor: Redactor;
  env: NodeJS.ProcessEnv;
  /** The clock the cluster follows (the lab's accelerated one against a lab). */
  clock(): Promise<Clock>;
  /** Where the site's verify judges failures from, on that clock. */
  since(clock: Clock): ResolvedSince;
  /** A new profile API client whose answers go to `onReply`. */
  newPalette(onReply: NonNullable<PaletteClientOptions['onReply']>): PaletteApi;
  /** kubectl's settings for the reads (the runbook's limits, the kubeconfig and context). */
  kubectl: KubectlOptions;
}

/** What was written, for the command to say. */
export interface CaptureSummary {
  out: string;
  cluster: string;
  /** Uncompressed size, and the size written. */
  bytes: number;
  written: number;
  ms: number;
  passes: PassRecord[];
  parts: PartRecord[];
  redactions: Array<{ what: string; count: number }>;
  flavor: string;
}

function tooLarge(cluster: string, size: string, cap: number, reading?: string): InputError {
  return new InputError('capture.too-large', `The capture of ${cluster} ${reading ? `passed ${formatBytes(cap)} while reading for the ${reading} pass` : `is ${size}`}, over its cap of ${formatBytes(cap)} (--max-size). Nothing was written.`, {
    hint: `Pass a larger cap, e.g. --max-size ${formatBytes(Math.min(cap * 2, 500 * 1024 * 1024)).replace(' ', '')} (at most 500MiB); a capture of 5,000 VMs is about 40 MiB.`,
  });
}

export async function captureSite(req: CaptureRequest): Promise<CaptureSummary> {
  const { params, redactor, maxBytes, out, context } = req;
  addSecret(redactor, req.apiKey);
  registerKubeSecrets(redactor, req.kubeconfig, context, req.env);
  const cluster = params.cluster.name ?? params.cluster.uid;
  const clock = await req.clock();
  const capturedAt = new Date();
  const clusterTime = new Date(clock.now());
  // A replay has no session of this cluster: it is told where the site's verify judged from.
  const since = req.since(clock);

  const controller = new AbortController();
  let passName = 'preflight';
  const recorder = new CaptureRecorder({ redactor, maxBytes, onOverCap: () => controller.abort() });
  const stopped = () => (recorder.over ? tooLarge(cluster, '', maxBytes, passName) : undefined);
  const started = Date.now();
  let kubectl: RecordingKubectl | undefined;
  try {
    const newPalette = () => req.newPalette((call, reply) => recorder.paletteAnswer(call, reply.status, reply.text));
    kubectl = new RecordingKubectl(req.kubectl, recorder);
    const ctx: PassContext = { site: params, runbook: req.runbook, newPalette, kube: new KubeClient(kubectl), clock, signal: controller.signal, recorder, state: {} };
    const passes = await runPasses(ctx, stopped, (name) => (passName = name));

    const values = params.valuesDir ? Object.fromEntries(Object.entries(readValuesFolder(params.valuesDir)).map(([k, t]) => [k, redactValuesText(redactor.text(t)).text])) : {};
    const built = recorder.build();
    const document = assembleCapture({
      built,
      passes,
      // `extra` is free-form: a value under a credential's name is blanked like any other.
      params: redactor.value(captureParams(readYamlFile(req.paramsFile, 'params file', LIMITS.paramsFile).value)),
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
    const parts = document.manifest ? (document.manifest as { parts: PartRecord[] }).parts : [];
    return { out, cluster, bytes: bytes.length, written: written.length, ms: Date.now() - started, passes, parts, redactions: built.redactions, flavor: ctx.state.flavor ?? 'spec' };
  } finally {
    controller.abort();
    kubectl?.close();
  }
}
