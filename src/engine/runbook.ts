/**
 * The runbook's frame: its metadata, the settings of a run, and the steps in order (some repeated
 * per upgrade hop). Step kinds are code; the runbook composes them. The sections the layers above
 * own (the customization rules of spec 9.2, the checks of 9.3, the known-issue signatures of
 * 9.1.3) are composed onto this frame where those layers are known (steps/runbook-schema.ts).
 */
import { z } from 'zod';
import { Duration } from './duration-schema.js';
import { ByteSize } from './byte-size.js';
import { LIMITS } from '../io/limits.js';

export const StepId = z.string().regex(/^[a-z][a-z0-9-]*$/, 'expected a lower-case id such as draft-addon');

export const StepSpecSchema = z.strictObject({
  id: StepId,
  kind: z.string().min(1),
  title: z.string().min(1).optional(),
  /** Parameters for the step kind; validated by the kind's own schema at load. */
  with: z.record(z.string(), z.unknown()).default({}),
});
export type StepSpec = z.output<typeof StepSpecSchema>;

export const GroupSpecSchema = z.strictObject({
  id: StepId,
  title: z.string().min(1).optional(),
  /** Repeat `steps` once per upgrade hop planned by the `plan` step. */
  forEach: z.literal('hops'),
  steps: z.array(StepSpecSchema).min(1),
  /** Run instead when there are no hops (the pack is already at the target). */
  ifEmpty: z.array(StepSpecSchema).default([]),
});
export type GroupSpec = z.output<typeof GroupSpecSchema>;

export const RunbookFrameSchema = z.strictObject({
  apiVersion: z.literal('upgrade-pilot/v1'),
  kind: z.literal('Runbook'),
  metadata: z.strictObject({
    name: StepId,
    title: z.string().min(1),
    description: z.string().optional(),
  }),
  settings: z
    .strictObject({
      /** Timeout passed to every kubectl call (`--request-timeout`). */
      kubectlRequestTimeout: Duration.default(20_000),
      /** Hard limit on any kubectl process. */
      kubectlProcessTimeout: Duration.default(60_000),
      /** Most bytes one kubectl process may print (a list of 20,000 pods is tens of MB). */
      kubectlMaxOutput: ByteSize.default(LIMITS.kubectlOutput),
      /** How many checks or list calls run at once. */
      concurrency: z.number().int().min(1).max(32).default(6),
      /**
       * Reads go through one `kubectl proxy` of the run (a Unix socket in its private folder, GET
       * only) instead of one `kubectl get --raw` process each. false: one process per read.
       */
      kubectlReadProxy: z.boolean().default(true),
      /**
       * How long a gate is on screen before a key counts: a key typed just before it appeared (meant
       * for what was there before) must not answer it. 0 turns the guard off (tests).
       */
      gateGuard: Duration.default(500),
    })
    .prefault({}),
  steps: z.array(z.union([StepSpecSchema, GroupSpecSchema])).min(1),
});

/**
 * The sections of a runbook beyond its frame, each declared by the layer that composes it
 * (`declare module '../engine/runbook.js' { interface RunbookSections { ... } }` in
 * steps/runbook-schema.ts), as the effects ports are: the engine carries them to the steps
 * without naming them.
 */
export interface RunbookSections {}

export type Runbook = z.output<typeof RunbookFrameSchema> & RunbookSections;

export function isGroup(spec: StepSpec | GroupSpec): spec is GroupSpec {
  return 'forEach' in spec;
}
