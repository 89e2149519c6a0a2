import type { DecisionSource } from './gate.js';

/**
 * Every change the tool makes to the outside world is a MutationRequest. Steps build them; the
 * engine journals an intent, sends them through one executor (or records them in a rehearsal),
 * and journals the result. That single choke point is what makes dry runs honest and crashes safe.
 */

export type PaletteMutation = {
  target: 'palette';
  method: 'PUT' | 'PATCH' | 'POST' | 'DELETE';
  /** Path relative to the API base URL, e.g. `/v1/clusterprofiles/abc/publish`. */
  path: string;
  body?: unknown;
  /** One line an operator can read: "write draft of vmo-core 1.3.0". */
  summary: string;
};

export type KubeMutation = {
  target: 'kube';
  /** Program to run; `kubectl` gets `--kubeconfig`/`--context` pinned by the runner. */
  program: 'kubectl' | 'virtctl';
  argv: string[];
  stdin?: string;
  summary: string;
};

export type MutationRequest = PaletteMutation | KubeMutation;

export type MutationOutcome =
  /** Sent to the real system. */
  | 'sent'
  /** Rehearsal: recorded, not sent. */
  | 'recorded'
  /** After a crash between intent and result, reading the real state showed it had happened. */
  | 'settled'
  /** The journal already held a result for this key: nothing was sent again. */
  | 'replayed';

export interface MutationRecord {
  key: string;
  stepId: string;
  request: MutationRequest;
  /** The gate approval that covered it, if any (gate key). */
  approval?: { gateKey: string; by: DecisionSource; at: string; key?: string; flag?: string };
  intentAt: string;
  resultAt?: string;
  outcome?: MutationOutcome | 'failed';
  error?: string;
  dryRun: boolean;
}

export function describeRequest(req: MutationRequest): string {
  if (req.target === 'palette') return `${req.method} ${req.path}`;
  return `${req.program} ${req.argv.join(' ')}`;
}
