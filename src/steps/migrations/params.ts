/**
 * The parameters of the live-migration step kinds (spec 9.1.2-9.1.4) as a runbook gives them.
 * Apart from the kinds' code: a runbook is checked against them without loading it.
 */
import { z } from 'zod';
import { Duration } from '../../engine/duration-schema.js';

export const MigrationsParams = z.strictObject({
  /** Time between polls. */
  interval: Duration.default(5_000),
  /** No progress for this long while work remains: stalled. */
  stallAfter: Duration.default(10 * 60_000),
  /** A migration Running longer than this is stuck. */
  migrationLimit: Duration.default(15 * 60_000),
  /** A still-outdated VMI whose migrations failed this many times will not move by itself. */
  failureLimit: z.number().int().min(1).default(2),
  /** Polls in a row that must find nothing left to move (guards against reading before the workload updater acted). */
  confirmPolls: z.number().int().min(1).default(2),
});
export type MigrationsParams = z.output<typeof MigrationsParams>;

export const DiagnoseParams = z.strictObject({
  /** Lines read from the end of each virt-handler log. */
  handlerLogTail: z.number().int().min(1).max(10_000).default(500),
  /** Lines read from the end of each launcher's `compute` log. */
  launcherLogTail: z.number().int().min(1).max(10_000).default(200),
  /** At most this many virt-handler pods, and this many launcher pods, are read. */
  maxPods: z.number().int().min(1).max(50).default(8),
  /** Known-issue ids to look for (default: every one in the runbook). */
  issues: z.array(z.string()).optional(),
});
export type DiagnoseParams = z.output<typeof DiagnoseParams>;

export const RecoverParams = z.strictObject({
  /** The operator types the VM's name to approve its restart. */
  confirmByName: z.boolean().default(false),
  /** How long to wait for a restarted VM to run again on the current launcher before the next gate. */
  restartWait: Duration.default(10 * 60_000),
  /** How long to wait for cancelled migrations to go away. */
  cancelWait: Duration.default(2 * 60_000),
  /** Time between reads while waiting. */
  interval: Duration.default(5_000),
  /** `auto`: virtctl when it is on the PATH, else kubectl's raw PUT of the same subresource. */
  restartWith: z.enum(['auto', 'virtctl', 'kubectl']).default('auto'),
});
export type RecoverParams = z.output<typeof RecoverParams>;
