/**
 * The fleet file: which clusters, in which stages, with what policy. Each cluster's params are the
 * `defaults` (a params file's keys) with the cluster's own values on top, checked as a params file
 * is (load.ts). The shape follows the issue's example; `stages[].name`, `stages[].clusters` and
 * `clusters[].name` are the contract.
 */
import { z } from 'zod';
import { Duration } from '../engine/duration-schema.js';
import { VersionText } from '../engine/params.js';
import { stageWindow } from './window.js';
import { approvableGates } from '../engine/approvable-gates.js';

const NonEmpty = z.string().min(1);
/** The gates a stage's policy may approve: `--approve`'s, less the fleet's own `stage`. */
const STAGE_GATES: readonly string[] = approvableGates.filter((g) => g !== 'stage');
const StageGate = z.string().superRefine((g, ctx) => {
  if (STAGE_GATES.includes(g)) return;
  const why = g === 'restart' || g === 'restarts' ? 'VM restarts are approved with restarts: approve' : g === 'stage' ? "the stage's own gate is approval: true" : `expected one of ${STAGE_GATES.join(', ')}`;
  ctx.addIssue({ code: 'custom', message: `"${g}" is not a gate a stage approves: ${why}` });
});
/** A cluster or stage name: what the screens, the report and `fleet retry NAME` use. */
const Name = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/, 'expected a name of letters, digits, ".", "_" or "-" (at most 63)');

/** A params file's keys, any subset: checked whole per cluster once merged (load.ts). */
const ParamsPart = z.record(z.string(), z.unknown());

/** `1` (clusters) or `10%` (of the stage's clusters): the failures that stop the stage. */
export const FailureThreshold = z.union([
  z.number().int().min(1, 'expected at least 1 failure (1 stops the stage at the first)'),
  z.string().regex(/^(100|[1-9]\d?)%$/, 'expected a count such as 1 or a share such as 10%'),
]);
export type FailureThreshold = z.infer<typeof FailureThreshold>;

const FleetCluster = z
  .looseObject({
    name: Name,
    uid: NonEmpty,
    kubeconfig: NonEmpty.optional(),
    context: NonEmpty.optional(),
  })
  .superRefine((c, ctx) => {
    for (const key of ['cluster', 'target']) {
      if (key in c) ctx.addIssue({ code: 'custom', path: [key], message: `${key} is the fleet's to set (name, uid, kubeconfig and context are the cluster's; target is the fleet's)` });
    }
  });

/** A Palette tag: `key=value`, or `key` for a key-only tag. */
const Tag = z.string().regex(/^[^\s=]+(=[^\s]*)?$/, 'expected a tag such as region=east, or a key-only tag such as edge');

/**
 * The clusters that run a profile version, read from Palette when the plan is frozen (its
 * `status.inUseClusters`), those with every tag given; each cluster's kubeconfig is
 * `kubeconfigDir/<cluster name>` (relative to the fleet file).
 */
const FromPalette = z.strictObject({
  fromPalette: z.strictObject({
    /** The uid of the profile version the clusters run (each version has its own uid). */
    profile: NonEmpty,
    tags: z.array(Tag).min(1, 'expected at least one tag, e.g. [region=east], or leave tags out').optional(),
    kubeconfigDir: NonEmpty,
    /** The kubeconfig context, when the files hold several. */
    context: NonEmpty.optional(),
  }),
});
export type FromPalette = z.output<typeof FromPalette>['fromPalette'];

/** When the stage's clusters may start: `{ days: [Sat, Sun], start: "02:00", hours: 4, timeZone: Europe/Berlin }` (window.ts). */
const StageWindow = z
  .strictObject({
    days: z.array(z.string()).min(1, 'expected at least one day, e.g. [Sat, Sun] or [daily]'),
    start: z.string(),
    hours: z.number(),
    timeZone: z.string(),
  })
  .superRefine((w, ctx) => {
    const parsed = stageWindow(w);
    if (typeof parsed === 'string') ctx.addIssue({ code: 'custom', message: parsed });
  });

const Stage = z.strictObject({
  name: Name,
  /** The stage's clusters by name; or `selector`. */
  clusters: z.array(Name).min(1, 'expected at least one cluster').optional(),
  /** The clusters of the fleet whose Palette tags include all these, read when the plan is frozen (those no earlier stage took). */
  selector: z.strictObject({ tags: z.array(Tag).min(1, 'expected at least one tag, e.g. [region=east]') }).optional(),
  /** Clusters of this stage upgraded at once. */
  maxConcurrency: z.number().int().min(1).max(200).default(1),
  failureThreshold: FailureThreshold.default(1),
  /** Ask before the stage starts: the gate `stage` (`--approve stage` in plain mode). */
  approval: z.boolean().default(false),
  /**
   * The gates this stage's clusters pass without asking, as `--approve` would (the fleet file is the
   * written approval; the record says so). `stage` is the stage's own gate (`approval`), not theirs.
   */
  approve: z.array(StageGate).default([]),
  /** VM restarts in this stage: `ask` each (or the command line's flags), or `approve` every one inside its owner's restart window. */
  restarts: z.enum(['ask', 'approve']).default('ask'),
  /**
   * After the stage's clusters are done, wait this long (`30m`, `1h`, `7d` as `168h`) before the next
   * stage, re-reading each cluster's health every few minutes: one turning unhealthy fails the stage.
   */
  soak: Duration.optional(),
  /** A cluster starts only inside it, and only when its predicted duration fits in what is left of it. */
  window: StageWindow.optional(),
});

export const FleetFileSchema = z
  .strictObject({
    fleet: Name,
    target: VersionText,
    defaults: ParamsPart.default({}),
    /** The clusters by name, or `fromPalette: {profile, tags, kubeconfigDir}`. */
    clusters: z.union([z.array(FleetCluster).min(1, 'expected at least one cluster'), FromPalette], { error: 'expected a list of clusters ({name, uid, kubeconfig}), or fromPalette: {profile: UID, tags: [...], kubeconfigDir: DIR}' }),
    stages: z.array(Stage).min(1, 'expected at least one stage'),
  })
  .superRefine((f, ctx) => {
    const seen = new Map<string, number>();
    // Clusters from Palette are known when the plan is frozen: their names are checked then.
    const listed = Array.isArray(f.clusters) ? f.clusters : [];
    listed.forEach((c, i) => {
      if (seen.has(c.name)) ctx.addIssue({ code: 'custom', path: ['clusters', i, 'name'], message: `cluster ${c.name} is listed twice (first at clusters[${seen.get(c.name)}])` });
      seen.set(c.name, i);
    });
    const uids = new Map<string, string>();
    listed.forEach((c, i) => {
      const other = uids.get(c.uid);
      if (other) ctx.addIssue({ code: 'custom', path: ['clusters', i, 'uid'], message: `uid ${c.uid} is also cluster ${other}'s` });
      uids.set(c.uid, c.name);
    });
    const inStage = new Map<string, string>();
    const stageNames = new Set<string>();
    f.stages.forEach((s, i) => {
      if (stageNames.has(s.name)) ctx.addIssue({ code: 'custom', path: ['stages', i, 'name'], message: `stage ${s.name} is listed twice` });
      stageNames.add(s.name);
      if ((s.clusters === undefined) === (s.selector === undefined)) {
        ctx.addIssue({ code: 'custom', path: ['stages', i], message: `stage ${s.name} needs its clusters by name (clusters: [...]) or by tag (selector: { tags: [...] }), one of the two` });
      }
      (s.clusters ?? []).forEach((name, j) => {
        if (Array.isArray(f.clusters) && !seen.has(name)) ctx.addIssue({ code: 'custom', path: ['stages', i, 'clusters', j], message: `no cluster named ${name} in clusters` });
        const earlier = inStage.get(name);
        if (earlier) ctx.addIssue({ code: 'custom', path: ['stages', i, 'clusters', j], message: `cluster ${name} is already in stage ${earlier}` });
        inStage.set(name, s.name);
      });
    });
  });

export type FleetFile = z.output<typeof FleetFileSchema>;
export type FleetStageSpec = FleetFile['stages'][number];
