/**
 * The runbook as data: steps in order (some repeated per upgrade hop), the customization rules of
 * spec 9.2, the checks of 9.3 and the known-issue signatures of 9.1.3. Step kinds are code; the
 * runbook composes them. Each section's own schema lives with the module that uses it.
 */
import { z } from 'zod';
import { RuleSpecSchema } from '../values/rule-schema.js';
import { ValuesSettingsSchema } from '../values/settings-schema.js';
import { VersionNoteSchema } from '../values/version-notes-schema.js';
import { CheckSpecSchema } from '../kube/check-schema.js';
import { KnownIssueSchema } from '../steps/known-issue-schema.js';
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

export const RunbookSchema = z.strictObject({
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
  values: ValuesSettingsSchema.prefault({}),
  rules: z.array(RuleSpecSchema).default([]),
  /** What the packs' vendors say changes between versions: moved and removed keys, stepping stones, new variables. */
  versionNotes: z.array(VersionNoteSchema).default([]),
  checks: z.array(CheckSpecSchema).default([]),
  knownIssues: z.array(KnownIssueSchema).default([]),
});

export type Runbook = z.output<typeof RunbookSchema>;
export type RuleSpec = Runbook['rules'][number];
export type CheckSpec = Runbook['checks'][number];
export type KnownIssue = Runbook['knownIssues'][number];
export type VersionNote = Runbook['versionNotes'][number];

export function isGroup(spec: StepSpec | GroupSpec): spec is GroupSpec {
  return 'forEach' in spec;
}
