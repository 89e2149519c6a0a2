/**
 * The fleet report's JSON, as a schema: the builder's types are inferred from it, and the JSON Schema
 * shipped in `schemas/fleet-report.schema.json` is generated from it (a test keeps the two equal).
 * Per cluster, what its own session report says (versions, VM fates, downtime, decisions) beside
 * what the fleet journal says (stage, fate, runs, skips); per stage, its approval and outcome.
 */
import { z } from 'zod';
import { TimelineSchema } from '../report/timeline/schema.js';

const Time = z.iso.datetime().describe('Wall-clock time, ISO 8601 UTC');
const Seconds = z.number().min(0);

const Who = z
  .object({
    by: z.enum(['key', 'flag', 'policy']).describe('key: the operator at the keyboard; flag: a command-line flag; policy: a written policy (a stage of the fleet file) or a rule of the tool'),
    detail: z.string().describe('The key pressed, the exact flag, or the rule in words'),
    operator: z.string().optional().describe('user@host who typed the key or gave the flag (the run it was decided in)'),
    where: z.string().optional().describe('by policy: where it is written (`edge.yaml:42`), or `upgrade-pilot` for a rule of the tool'),
  })
  .describe('Who made a decision, and how');

const StageApproval = Who.extend({ at: Time }).describe("The answer at a stage's gate `stage`");

const Decision = Who.extend({
  at: Time,
  gate: z.string().describe('draft, publish, apply, restart, ... as the session report names it'),
  subject: z.string().optional().describe('namespace/name of the VM, for a restart'),
  choice: z.enum(['approve', 'decline', 'skip', 'abort']),
}).describe("One answer at one of the cluster session's gates");

const Run = z
  .object({
    attempt: z.number().int().min(1).describe('1 for the first run; each `fleet retry` adds one'),
    resumed: z.boolean().describe('This run continued the session (after a stop, a crash, or as a retry)'),
    at: Time,
    endedAt: Time.nullable(),
    outcome: z.string().nullable().describe('done | failed | gate | interrupted | error; null: no end recorded (the coordinator was killed)'),
    message: z.string().optional(),
    by: z.string().optional().describe('user@host whose fleet run (start, resume, retry) ran it'),
  })
  .describe('One run of the cluster by the fleet');

const Vms = z
  .object({
    migrated: z.number().int().describe('VMs whose latest hop live-migrated them (or evicted them to another node)'),
    restarted: z.number().int(),
    outstanding: z.number().int().describe('VMs left on the old version (a declined or skipped restart, a migration that did not finish)'),
    restartedVms: z.array(z.string()),
    outstandingVms: z.array(z.object({ name: z.string(), reason: z.string().optional() })),
    downtimeSeconds: Seconds.describe('Sum of the restarted VMs’ downtime, by the cluster’s timestamps'),
    maxDowntimeSeconds: Seconds,
  })
  .describe("What the cluster's VMs went through, from its session report");

const Verification = z
  .object({
    ran: z.boolean().describe('false: skipped, or not reached'),
    counts: z.object({ green: z.number().int(), amber: z.number().int(), red: z.number().int(), unknown: z.number().int() }).optional(),
    overall: z.string().optional(),
    decided: Who.optional().describe('Who finished it with these results (the verify gate)'),
    text: z.string().describe('"ran: 3 green, 1 amber; accepted by policy of stage wave-2 (unattended)", "skipped: ...", "not reached"'),
  })
  .describe("The cluster's verification (its session's verify step)");

const Unwatched = z
  .object({
    hop: z.number().int(),
    of: z.number().int(),
    versions: z.string(),
    appliedAt: Time,
    since: Time,
    watchAgain: z.string().describe('The command that watches it to a safe point'),
  })
  .describe('Stopped after its change was applied: the rollout goes on with nobody watching');

export const FleetClusterReport = z.object({
  cluster: z.string(),
  uid: z.string(),
  stage: z.string().nullable().describe('null: left out of the plan'),
  status: z
    .enum(['pending', 'running', 'done', 'failed', 'gate', 'stopped', 'unwatched', 'skipped', 'left-out', 'vanished'])
    .describe('vanished: gone from Palette since the plan was frozen (reported, not failed); unwatched: stopped after its change was applied, the rollout going on with nobody watching'),
  fate: z.string().describe('The status in words: upgraded, failed, untouched, skipped, left out, ...'),
  attempts: z.number().int(),
  retries: z.number().int().describe('Runs started by `fleet retry`'),
  session: z.string().nullable(),
  resume: z.string().optional().describe('The command that continues this cluster (a failed or stopped one)'),
  startedAt: Time.nullable(),
  endedAt: Time.nullable(),
  durationSeconds: Seconds.nullable().describe('From the first start to the last end'),
  why: z.string().nullable().describe('What stopped it, why it was skipped or left out'),
  skip: z.object({ reason: z.string(), by: z.string(), at: Time }).optional(),
  unhealthy: z.array(z.string()).optional().describe("Read unhealthy during its stage's soak: the evidence"),
  unwatched: Unwatched.optional(),
  verification: Verification,
  versions: z
    .object({
      from: z.string().nullable().describe('The version the first hop started from'),
      to: z.string().nullable().describe('The version the cluster reached (the target when upgraded); null when unknown'),
      hops: z.array(z.object({ from: z.string(), to: z.string() })),
      profilesBefore: z.array(z.object({ name: z.string(), version: z.string() })),
      profilesAfter: z.array(z.object({ name: z.string(), version: z.string() })),
    })
    .optional()
    .describe('From the session report (absent when the cluster never ran)'),
  vms: Vms.optional(),
  decisions: z.array(Decision),
  runs: z.array(Run),
  labTime: z.boolean().describe('Downtime is the lab’s simulated time'),
});

export const FleetStageReport = z.object({
  name: z.string(),
  status: z.enum(['pending', 'running', 'soaking', 'done', 'failed', 'stopped']),
  clusters: z.array(z.string()),
  maxConcurrency: z.number().int(),
  failureThreshold: z.union([z.number().int(), z.string()]),
  approves: z.array(z.string()).describe("Gates the stage's clusters passed without asking, by the fleet file's written policy (stages[].approve)"),
  restarts: z.enum(['ask', 'approve']).describe("VM restarts in the stage: asked (or answered by flags), or approved by the fleet file (stages[].restarts)"),
  policy: z.string().describe('The written policy in words, less what --revoke took away, with where it is written'),
  where: z.string().nullable().describe('Where the stage is written in the fleet file (`edge.yaml:42`)'),
  halts: z
    .array(z.object({ at: Time, why: z.string(), carried: z.array(z.string()).describe('Clusters past their apply, watched to a safe point before the stage ended') }))
    .describe('Each time the stage stopped starting clusters'),
  approval: StageApproval.nullable().describe('null: the stage needs none, or it has not been approved'),
  needsApproval: z.boolean(),
  startedAt: Time.nullable(),
  endedAt: Time.nullable(),
  durationSeconds: Seconds.nullable(),
  message: z.string().nullable(),
  counts: z.record(z.string(), z.number().int()).describe('Clusters of the stage by fate'),
  vms: z.object({ migrated: z.number().int(), restarted: z.number().int(), outstanding: z.number().int(), downtimeSeconds: Seconds }),
});

export const FleetReportSchema = z
  .object({
    schema: z.literal(1),
    generatedAt: Time,
    fleet: z.string(),
    target: z.string(),
    file: z.string(),
    plannedAt: Time,
    plannedBy: z.string(),
    approvals: z
      .object({
        flags: z.string().describe('The run’s approval flags now: the start’s, with what resumes added and --revoke took away'),
        revoked: z.array(z.string()).describe('Taken from the stage policies by --revoke'),
        runs: z.array(z.object({ at: Time, by: z.string(), command: z.enum(['start', 'resume', 'retry']), added: z.array(z.string()), revoked: z.array(z.string()) })),
      })
      .nullable()
      .describe('null: a journal from before the run’s approvals were kept'),
    stopped: z.object({ at: Time, reason: z.string(), by: z.string().optional(), mode: z.enum(['halt', 'now']).optional() }).nullable().describe('The last stop of the fleet, as asked'),
    startedAt: Time.nullable(),
    endedAt: Time.nullable(),
    durationSeconds: Seconds.nullable(),
    counts: z.record(z.string(), z.number().int()).describe('Every cluster of the plan (and the left-out ones) by fate'),
    stages: z.array(FleetStageReport),
    clusters: z.array(FleetClusterReport).describe('Every cluster once: those of the plan in stage order, then the left-out ones'),
    timeline: TimelineSchema,
  })
  .describe('upgrade-pilot fleet report');

export type FleetReport = z.infer<typeof FleetReportSchema>;
export type FleetClusterRow = z.infer<typeof FleetClusterReport>;
export type FleetStageRow = z.infer<typeof FleetStageReport>;

/** The JSON Schema of the fleet report, as shipped in schemas/fleet-report.schema.json. */
export function fleetReportJsonSchema(): Record<string, unknown> {
  const { $schema, ...rest } = z.toJSONSchema(FleetReportSchema, { target: 'draft-2020-12' });
  return { $schema, title: 'upgrade-pilot fleet report', ...rest };
}
