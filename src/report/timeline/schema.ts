/**
 * The timeline a report draws (Mermaid gantt in report.md, SVG in report.html, text bars in the
 * terminal), as data in the report's JSON: sections (a hop, a fleet stage) of bars on one wall-clock
 * axis, each bar saying whose time it was (the tool's steps, the cluster's work, the operator's
 * waits) and how it ended. One schema for the session and the fleet report.
 */
import { z } from 'zod';

const Time = z.iso.datetime().describe('Wall-clock time, ISO 8601 UTC');

export const TimelineBarSchema = z
  .object({
    id: z.string().describe('Unique in the timeline (hop1.drafts, hop1.restart.ns/vm, cluster.edge-1)'),
    label: z.string().describe('What the bar is, as its row says it (drafts, restart ns/vm, edge-1)'),
    from: Time,
    to: Time,
    by: z.enum(['tool', 'cluster', 'operator']).describe("Whose time: the tool's steps, the cluster's work (reconcile, migrations, restarts, a soak), or the operator's (a gate that waited for an answer, a stop until the resume)"),
    status: z
      .enum(['ok', 'failed', 'running', 'skipped', 'halted'])
      .describe('ok; failed (red); running: not ended when the report was written; skipped: left out (a fleet skip); halted: a fleet stage or cluster that stopped'),
    note: z.string().optional().describe('The figures beside the bar (counts, downtime, why it failed)'),
  })
  .describe('One bar of the timeline');

export const TimelineForecastSchema = z
  .object({
    from: Time.describe("The hop's send (its reconcile step began): where the plan's prediction starts"),
    p50At: Time.describe('The predicted median end'),
    p90At: Time.describe('The predicted pessimistic end (90th percentile)'),
    p50Seconds: z.number().min(0).describe("The plan's median for the hop (the session clock's time: lab time in a lab)"),
    p90Seconds: z.number().min(0),
    to: Time.optional().describe("When the cluster's work of the hop ended (the migration watch's end)"),
    tookSeconds: z.number().min(0).optional().describe('What the pack rollout and the migrations took, measured from the cluster (lab time in a lab)'),
  })
  .describe("The plan's p50..p90 for a hop's cluster work beside what it took");

export const TimelineSectionSchema = z
  .object({
    id: z.string(),
    title: z.string().describe('Hop 1 4.4.10 → 4.5.4, Before the hops, stage canary, ...'),
    bars: z.array(TimelineBarSchema),
    forecast: TimelineForecastSchema.optional(),
  })
  .describe('A group of bars: a hop, the steps before or after the hops, a fleet stage');

export const TimelineMarkSchema = z
  .object({
    at: Time,
    label: z.string(),
    status: z.enum(['ok', 'failed', 'stopped']).describe('ok: done; failed (red); stopped: the run or the fleet stopped here (amber)'),
  })
  .describe('An instant on the timeline: the end, a stop that was not resumed, a fleet halt');

export const TimelineWindowSchema = z.object({ from: Time, to: Time, label: z.string() }).describe('A booked window, drawn behind the bars');

export const TimelineSchema = z
  .object({
    from: Time.describe('Where the axis starts (the run began)'),
    to: Time.describe('Where it ends (the run ended, or the report was written)'),
    timeZone: z.string().describe("The cluster's local time zone (IANA), shown beside UTC"),
    labSpeed: z.number().positive().optional().describe("In a lab: how many times faster than the wall clock the lab's time ran; its durations (predictions, the window) are drawn at that speed"),
    windows: z.array(TimelineWindowSchema).describe('The booked window (a session: the params window from the start), or each stage window opening (a fleet)'),
    sections: z.array(TimelineSectionSchema),
    marks: z.array(TimelineMarkSchema),
  })
  .describe('The run on one wall-clock axis, as report.md (Mermaid gantt), report.html (SVG) and `report --timeline` draw it');

export type Timeline = z.infer<typeof TimelineSchema>;
export type TimelineBar = z.infer<typeof TimelineBarSchema>;
export type TimelineSection = z.infer<typeof TimelineSectionSchema>;
export type TimelineMark = z.infer<typeof TimelineMarkSchema>;
export type TimelineForecast = z.infer<typeof TimelineForecastSchema>;
export type TimelineWindow = z.infer<typeof TimelineWindowSchema>;
