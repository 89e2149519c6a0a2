/** Builds the real effects for a session (or a one-shot command) from the params, the key and the flags. */
import { systemClock, type Clock } from '../engine/clock.js';
import { unavailable, type Effects } from '../engine/effects.js';
import type { ConfirmFn } from '../engine/gate.js';
import type { Params } from '../engine/params.js';
import type { Runbook } from '../engine/runbook.js';
import type { KubeApi } from '../kube/api.js';
import { KubeClient } from '../kube/client.js';
import { Kubectl, type KubectlCall, type KubectlOptions } from '../kube/kubectl.js';
import type { PaletteApi } from '../palette/api.js';
import { PaletteClient, type PaletteClientOptions } from '../palette/client.js';
import { defaultRateLimits, type Limiter } from '../palette/rate-limit.js';
import type { SharedReads } from '../palette/transport.js';
import type { Redactor } from '../session/redact.js';
import { VariableValues, withVariableValues, type VariableSource } from '../palette/variable-values.js';
import { formatDuration } from '../text/duration.js';

export interface EffectsInput {
  params: Params | undefined;
  runbook: Runbook;
  apiKey: string | undefined;
  kubeconfig: string | undefined;
  context: string | undefined;
  redactor: Redactor;
  confirm: ConfirmFn;
  log: Effects['log'];
  /** A folder for this run's kubectl discovery cache. */
  cacheDir: string;
  onKubectlCall?: (call: KubectlCall) => void;
  /** The clock (the lab's simulated one against the lab); default the system clock. */
  clock?: Clock;
  /** `--allow-insecure-http`: a plain http:// profile API on another host is accepted. */
  allowInsecureHttp?: boolean;
  /** Values of profile variables for this run; default: from the params' `variables:` sources, never asked. */
  variables?: VariableValues;
  /** A Palette rate limiter shared with other runs (a fleet's clusters); default: this run's own. */
  limiter?: Limiter;
  /** Palette reads shared with other runs of this process (a fleet's clusters: the pack registry, the profile versions). */
  sharedReads?: SharedReads;
}

export function buildPalette(input: Pick<EffectsInput, 'params' | 'apiKey' | 'redactor' | 'allowInsecureHttp' | 'limiter' | 'sharedReads'> & Pick<PaletteClientOptions, 'onReply'>, log?: Effects['log']): PaletteApi {
  const { params, apiKey, redactor } = input;
  if (!params) return unavailable<PaletteApi>('profile API', 'Pass the site parameters with --params FILE.');
  if (!apiKey) return unavailable<PaletteApi>('profile API key', 'Set UPGRADE_PILOT_API_KEY in the environment, or pass --api-key-file FILE.');
  return new PaletteClient({
    baseUrl: params.palette.baseUrl,
    projectUid: params.palette.projectUid,
    apiKey,
    clusterCollection: params.palette.clusterCollection,
    timeoutMs: params.palette.timeout,
    maxResponseBytes: params.palette.maxResponse,
    allowInsecureHttp: Boolean(input.allowInsecureHttp) || params.palette.allowInsecureHttp,
    redactor,
    rateLimits: { ...defaultRateLimits, ...params.palette.rateLimits },
    ...(input.limiter ? { limiter: input.limiter } : {}),
    ...(input.sharedReads ? { shared: input.sharedReads } : {}),
    flavor: params.palette.flavor,
    versioning: params.palette.versioning,
    probeUid: params.profiles.addon.uid,
    ...(input.onReply ? { onReply: input.onReply } : {}),
    ...(log ? { onRetry: (info: { attempt: number; reason: string; delayMs: number }) => log({ level: 'warn', message: `profile API: ${info.reason}; retry ${info.attempt} in ${formatDuration(info.delayMs)}` }) } : {}),
  });
}

type KubeInput = Pick<EffectsInput, 'kubeconfig' | 'context' | 'redactor' | 'cacheDir' | 'onKubectlCall'> & { runbook: Pick<Runbook, 'settings'> };

/** The kubectl runner's settings for a run: the runbook's limits, the access file and context. */
export function kubectlOptions(input: KubeInput): KubectlOptions {
  const s = input.runbook.settings;
  return {
    kubeconfig: input.kubeconfig,
    context: input.context,
    requestTimeoutMs: s.kubectlRequestTimeout,
    processTimeoutMs: s.kubectlProcessTimeout,
    cacheDir: input.cacheDir,
    concurrency: s.concurrency,
    maxOutputBytes: s.kubectlMaxOutput,
    readProxy: s.kubectlReadProxy,
    redactor: input.redactor,
    ...(input.onKubectlCall ? { onCall: input.onKubectlCall } : {}),
  };
}

export function buildKube(input: KubeInput): KubeApi {
  return new KubeClient(new Kubectl(kubectlOptions(input)));
}

/** The run's variable values: the params' sources, the flags' after them; every value learned is redacted. */
export function buildVariables(params: Params | undefined, redactor: Redactor, opts: { flags?: Readonly<Record<string, VariableSource>>; canAsk?: boolean; env?: NodeJS.ProcessEnv } = {}): VariableValues {
  return new VariableValues({ sources: { ...params?.variables, ...opts.flags }, env: opts.env ?? process.env, canAsk: opts.canAsk ?? false, onValue: (v) => redactor.add(v) });
}

export function buildEffects(input: EffectsInput): Effects {
  const variables = input.variables ?? buildVariables(input.params, input.redactor);
  // A request that sets a variable holds a marker; the value goes in as it is sent, and nowhere else.
  const palette = withVariableValues(buildPalette(input, input.log), variables);
  return { palette, kube: buildKube(input), clock: input.clock ?? systemClock, confirm: input.confirm, log: input.log, variables };
}
