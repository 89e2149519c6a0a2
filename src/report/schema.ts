/**
 * The report's JSON, as a schema: the types the builder fills are inferred from it, and the JSON
 * Schema shipped in `schemas/report.schema.json` is generated from it (a test keeps the two equal and
 * validates real reports against the file). Times are wall-clock ISO 8601 (UTC); durations measured
 * from the cluster (downtime, migrations) are the lab's simulated time when `labTime` is true.
 */
import { z } from 'zod';
import { TimelineSchema } from './timeline/schema.js';

const Time = z.iso.datetime().describe('Wall-clock time, ISO 8601 UTC');
const Hop = z.number().int().min(1).nullable().describe('Hop index (1-based); null: outside any hop (e.g. recovery when the pack was already at the target)');

const Step = z.object({
  id: z.string(),
  title: z.string(),
  kind: z.string(),
  status: z.string(),
  durationMs: z.number(),
  attempts: z.number().int(),
  summary: z.string().optional(),
  error: z.object({ message: z.string(), hint: z.string().optional() }).optional(),
});

const Stop = z
  .object({
    at: Time,
    status: z.enum(['awaitingApproval', 'failed', 'interrupted', 'stopped', 'crashed']).describe('crashed: the run ended without recording a stop (found at the next resume)'),
    reason: z.string(),
    hint: z.string().optional(),
    step: z.string().optional(),
    gate: z.string().optional().describe('The gate the run waited at, or whose answer stopped it (status stopped)'),
    resumedAt: Time.optional(),
    resumedBy: z.string().optional().describe('user@host'),
    resumedWith: z.string().optional().describe('The approval flags the resume was given'),
  })
  .describe('A stop of the run, and the resume that followed it (if any)');

const Decision = z
  .object({
    at: Time,
    shownAt: Time.optional().describe("When the gate was shown: until `at` the run waited for the answer (the operator's time)"),
    step: z.string(),
    hop: Hop,
    gate: z.string().describe('Gate name: draft, publish, restart, cancel-migrations, verify, or any other a runbook defines'),
    gateKey: z.string().describe('The gate’s unique key in the session'),
    title: z.string(),
    subject: z.string().optional().describe('namespace/name of the VM, for a restart'),
    choice: z.enum(['approve', 'decline', 'skip', 'abort']).describe('decline: "no" at a gate that offers only yes or no (e.g. Not now)'),
    label: z.string().optional().describe('The option taken, as the gate showed it'),
    by: z.enum(['key', 'flag', 'policy']).describe('key: the operator at the keyboard; flag: a command-line flag; policy: a rule of the tool (rehearsal, unattended informational gate)'),
    key: z.string().optional().describe('When by key: the key pressed (absent in sessions recorded before keys were)'),
    flag: z.string().optional().describe('When by flag: the exact flag, e.g. --approve-restart vms/db-1'),
    policy: z.string().optional().describe('When by policy: the rule, in words'),
    operator: z.string().optional().describe('user@host of the run the decision was made in'),
    stopped: z.string().optional().describe('When this answer (a decline, "stop here", an abort) stopped the run: what was declined and what was left as it was'),
  })
  .describe('One answer at a gate');

const Approval = z.object({ by: z.enum(['key', 'flag', 'policy']), key: z.string().optional(), flag: z.string().optional(), policy: z.string().optional(), at: Time });

const Request = z
  .object({
    at: Time,
    hop: Hop,
    step: z.string(),
    what: z.string(),
    request: z.string().describe('PUT /v1/clusterprofiles/x, or the kubectl command line'),
    body: z.string().optional().describe('A one-line summary of the body (never the values)'),
    approval: Approval.optional(),
    outcome: z.string().describe('sent | recorded (rehearsal) | settled (found applied after a crash) | replayed | failed | no result (interrupted)'),
  })
  .describe('One change sent to the profile API or the cluster');

const Vm = z
  .object({
    name: z.string().describe('namespace/name'),
    hop: Hop,
    fate: z.enum(['live-migrated', 'evicted', 'restarted', 'would-restart', 'outstanding']),
    reason: z.string().optional(),
    migration: z
      .object({ name: z.string(), durationSeconds: z.number().optional(), endedAt: Time.optional(), source: z.string().optional(), target: z.string().optional() })
      .optional()
      .describe('live-migrated: the migration that moved it'),
    sentAt: Time.optional().describe('restarted: when the restart request was sent'),
    runningAt: Time.optional().describe('restarted: when the new VMI entered Running (the cluster’s record)'),
    downtimeSeconds: z.number().optional().describe('restarted: from the old VMI’s shutdown (or the request) to the new VMI Running, by the cluster’s timestamps'),
    downtimeFrom: z.enum(['vmi-deletion', 'request']).optional(),
    backRunning: z.boolean().optional().describe('restarted: false when it did not run again within the wait'),
  })
  .describe('What one VM went through in one hop; each VM appears at most once per hop');

const Finding = z.object({ title: z.string(), issue: z.string().optional(), confirmed: z.boolean().optional(), evidence: z.array(z.object({ source: z.string(), line: z.string() })) });

const Diagnosis = z.object({
  hop: Hop,
  step: z.string(),
  summary: z.string(),
  findings: z.array(Finding),
  unexplained: z.array(z.object({ reason: z.string(), count: z.number().int(), vms: z.array(z.string()) })),
});

const PackChange = z.object({ name: z.string(), from: z.string(), to: z.string() });

const Seconds = z.number().min(0);

/** A hop's predicted duration, as `plan --json` gives it per hop (issue 27). */
export const EtaReport = z
  .object({
    p50Seconds: Seconds.describe('Median'),
    p90Seconds: Seconds.describe('Pessimistic bound (90th percentile)'),
    parts: z
      .array(z.object({ what: z.enum(['pack-rollout', 'migrations', 'restarts']), p50Seconds: Seconds, p90Seconds: Seconds, basis: z.string().describe('Where the figure comes from, in words') }))
      .describe('pack-rollout, then migrations (the moves KubeVirt makes), then restarts (the VM restarts at the gates, one after another; the operator’s answers not counted)'),
    summary: z.string().describe('The line the gates show ("about 18m-25m: 40 VM(s) migrate, 5 at a time; ...")'),
  })
  .describe("The hop's predicted duration: the pack rollout, the VMs' moves scheduled as KubeVirt schedules them, then the restarts at the gates");

/** Room to move when a hop rebuilds nodes, as `plan --json` gives it per hop (issue 27). */
export const RoomReport = z
  .object({
    rebuilds: z.array(z.string()).describe('The changed packs whose layer (os, k8s) makes Palette rebuild every node'),
    nodes: z
      .array(
        z.object({
          node: z.string(),
          leaving: z.number().int().min(0).describe('Running VMs that leave it when it drains'),
          unplaced: z
            .array(z.object({ vm: z.string(), cpu: z.number().min(0).describe('Cores its virt-launcher pod requests'), memoryBytes: z.number().min(0), why: z.string() }))
            .describe('VMs that fit on no other node while it is rebuilt'),
          boundToNode: z.array(z.string()).optional().describe('VMs pinned to it by a node selector (a node-local disk): they wait for it'),
        }),
      )
      .describe('Every node, in the order Palette rebuilds them'),
    summary: z.string(),
    basis: z.string().describe('How the placement was judged'),
  })
  .describe("Whether each drained node's VMs fit on the other nodes (allocatable minus the pods' requests, memory and CPU)");

/** One VM as the plan predicts it (`plan --json`'s `impact[]`). */
export const ImpactReport = z
  .object({
    vm: z.string(),
    node: z.string().optional(),
    fate: z.string().describe('live-migrate, evict, restart or not-running'),
    reason: z.string(),
    reasonCode: z.string().optional().describe("KubeVirt's LiveMigratable=False reason (kubevirt/api core/v1), e.g. DisksNotLiveMigratable"),
    explanation: z.string().optional().describe('What the reason means and what lifts it'),
    evictionStrategy: z.string().optional(),
    runStrategy: z.string().optional(),
    memoryBytes: z.number().optional(),
    migrationPolicy: z.string().optional().describe('The MigrationPolicy that selects it'),
    predicted: z
      .object({ startSeconds: Seconds.describe('After the workload updater starts'), durationSeconds: z.object({ p50: Seconds, p90: Seconds }), downtimeSeconds: Seconds.optional() })
      .optional(),
    mayNotConverge: z.array(z.string()).optional().describe('Why its migration may never finish, with the remedies'),
    limitsBroken: z.array(z.string()).optional().describe('Its own limits (annotations upgrade-pilot.io/max-downtime, restart-window) the plan breaks'),
  })
  .describe('What the plan predicted for one VM');

const HopReport = z.object({
  index: z.number().int(),
  from: z.string(),
  to: z.string(),
  profiles: z.array(z.object({ name: z.string(), role: z.string().optional(), uid: z.string().optional(), fromVersion: z.string(), toVersion: z.string(), packs: z.array(PackChange) })),
  eta: EtaReport.optional(),
  room: RoomReport.optional(),
  rollout: z
    .object({ plannedP50Seconds: Seconds, plannedP90Seconds: Seconds, measuredSeconds: Seconds })
    .optional()
    .describe("The plan's pack rollout beside the wait for the cluster to run the hop (the lab's simulated time when labTime)"),
  migrations: z
    .object({ plannedP50Seconds: Seconds, plannedP90Seconds: Seconds, measuredSeconds: Seconds, outcome: z.string() })
    .optional()
    .describe("The plan's migration phase beside what the migration watch measured (the lab's simulated time when labTime)"),
  restarts: z
    .object({ plannedP50Seconds: Seconds, plannedP90Seconds: Seconds, measuredSeconds: Seconds, restarted: z.number().int().min(0) })
    .optional()
    .describe("The plan's restart part beside the downtime the restarted VMs had, summed (the lab's simulated time when labTime)"),
});

const Rollback = z
  .object({
    profile: z.string(),
    role: z.string().optional(),
    uid: z.string().optional(),
    version: z.string().describe('The version label the cluster ran before the first hop'),
    packs: z.array(z.object({ name: z.string(), tag: z.string() })).optional(),
    how: z.string(),
  })
  .describe('The way back to the version a profile ran before');

const Check = z.object({
  id: z.string(),
  kind: z.string(),
  title: z.string(),
  spec: z.string().optional(),
  status: z.enum(['pass', 'fail', 'warn', 'unknown']),
  summary: z.string(),
  evidence: z.array(z.string()),
  remediation: z.string().optional(),
  durationMs: z.number(),
});

const Diff = z.object({
  hop: z.number().int().optional(),
  profile: z.string(),
  pack: z.string(),
  from: z.string(),
  to: z.string(),
  added: z.number().int(),
  removed: z.number().int(),
  imageTagsOnly: z.boolean().describe('Every changed line is an image, tag or version'),
  patch: z.array(z.string()),
  truncated: z.boolean(),
});

export const ReportSchema = z
  .object({
    schema: z.literal(2),
    generatedAt: Time,
    session: z.object({
      id: z.string(),
      tool: z.string(),
      mode: z.enum(['live', 'rehearsal']),
      lab: z.boolean(),
      runbook: z.object({ name: z.string(), title: z.string(), file: z.string(), digest: z.string() }),
      paramsFile: z.string().optional(),
      cluster: z.object({ uid: z.string().optional(), name: z.string().optional(), context: z.string().optional() }),
    }),
    operator: z.string().describe('user@host who started the session'),
    operators: z.array(z.string()).describe('Everyone who ran a part of it (start and resumes), in order'),
    startedAt: Time,
    endedAt: Time.nullable().describe('null while the run is still going'),
    durationSeconds: z.number().nullable(),
    stoppedSeconds: z.number().describe('Time spent stopped between a stop and the resume that followed'),
    outcome: z.object({ status: z.enum(['running', 'stopped', 'awaitingApproval', 'done', 'failed', 'interrupted']), reason: z.string().optional(), hint: z.string().optional() }),
    rehearsal: z.boolean(),
    labTime: z.boolean().describe('Durations measured from the cluster are the lab’s simulated time'),
    stops: z.array(Stop),
    decisions: z.array(Decision),
    profiles: z.object({
      before: z.array(z.object({ name: z.string(), version: z.string(), packs: z.array(z.object({ name: z.string(), tag: z.string() })) })),
      after: z.array(z.object({ name: z.string(), version: z.string(), source: z.string() })),
    }),
    hops: z.array(HopReport),
    impact: z.array(ImpactReport).describe('What the plan predicted for each VM'),
    requests: z.array(Request),
    vms: z.array(Vm),
    diagnoses: z.array(Diagnosis),
    verification: z.object({ overall: z.string(), rehearsal: z.boolean(), results: z.array(Check) }).optional(),
    rollback: z.array(Rollback),
    customizations: z.array(
      z.object({ hop: z.number().int().optional(), profile: z.string(), pack: z.string(), path: z.string(), label: z.string(), deployed: z.string().optional(), newDefault: z.string().optional(), decision: z.string().optional() }),
    ),
    rules: z.array(
      z.object({ stage: z.string(), id: z.string(), title: z.string(), status: z.string().describe('pass | fail | notOnSite (amber: the site did not have it before either) | notApplicable'), message: z.string() }),
    ),
    additions: z
      .array(
        z.object({
          hop: z.number().int(),
          profile: z.string(),
          pack: z.string(),
          path: z.string(),
          value: z.string(),
          source: z.enum(['ruleFix', 'entered', 'other']),
          rule: z.string().optional(),
          what: z.string(),
          included: z.boolean(),
          chosenBy: z.string().optional().describe('who chose it: "flag --accept-fix ID", "operator, key f"'),
        }),
      )
      .describe('Every addition to the drafts (a rule\'s fix, a typed value, any value that is neither the site\'s nor a new default), in or left out, and who chose it'),
    variables: z
      .array(z.object({ hop: z.number().int(), profile: z.string(), name: z.string(), since: z.string(), source: z.string() }))
      .describe('Profile variables the hops introduced (names only: values are never recorded)'),
    variablesUnserved: z.string().optional().describe("Set when the Palette did not serve the cluster's profile variables (404/405): they were read as none, and what that means"),
    preChecks: z.array(z.object({ title: z.string(), status: z.string(), summary: z.string() })),
    steps: z.array(Step),
    diffs: z.array(Diff),
    timeline: TimelineSchema,
  })
  .describe('upgrade-pilot session report');

export type ReportData = z.infer<typeof ReportSchema>;
export type ReportVm = z.infer<typeof Vm>;
export type ReportDecision = z.infer<typeof Decision>;
export type ReportStop = z.infer<typeof Stop>;
export type ReportRequest = z.infer<typeof Request>;
export type ReportDiagnosis = z.infer<typeof Diagnosis>;
export type ReportRollback = z.infer<typeof Rollback>;
export type ReportPackDiff = z.infer<typeof Diff>;
export type ReportApproval = z.infer<typeof Approval>;
export type ReportStep = z.infer<typeof Step>;

/** The JSON Schema of the report, as shipped in schemas/report.schema.json. */
export function reportJsonSchema(): Record<string, unknown> {
  const { $schema, ...rest } = z.toJSONSchema(ReportSchema, { target: 'draft-2020-12' });
  return { $schema, title: 'upgrade-pilot report', ...rest };
}
