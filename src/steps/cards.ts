/**
 * The cards of the step kinds upgrade-pilot ships: what a runbook may name, each kind's title,
 * description, gate and the parameters it takes. The kinds' code spreads its card (one place for
 * each fact); the catalogue (index.ts) pairs each card with a loader of that code, so checking a
 * runbook loads none of it.
 */
import { z } from 'zod';
import { Duration } from '../engine/duration-schema.js';
import { ProfileRole } from '../engine/params.js';
import { stepCard } from '../engine/step-kind.js';
import { DiagnoseParams, MigrationsParams, RecoverParams } from './migrations/params.js';

const noParams = () => z.strictObject({});

export const preflightCard = stepCard({
  kind: 'preflight',
  title: 'Preflight checks',
  description: 'Checks the profile API, the cluster access (and how long it stays valid), KubeVirt, CDI and what would complicate the upgrade',
  params: noParams(),
  rechecks: true,
});

export const snapshotCard = stepCard({
  kind: 'snapshot',
  title: 'Record what is deployed',
  description: 'Records the deployed profiles and a bounded baseline of the cluster (VMs, networks, services, storage classes, nodes, versions)',
  params: noParams(),
  rechecks: true,
});

export const planCard = stepCard({
  kind: 'plan',
  title: 'Plan the upgrade',
  description: 'Plans hops of one minor version of the VM orchestration pack each, what each publishes, and what every VM will go through',
  params: noParams(),
});

export const customizeCard = stepCard({
  kind: 'customize',
  title: 'Carry customizations forward',
  description: "Compares deployed values with the new reference defaults, carries the site's settings into each hop's drafts, and judges the rules on the change",
  params: noParams(),
});

export const draftCard = stepCard({
  kind: 'draft',
  title: 'Write the profile draft',
  description: 'Builds and writes the draft of one profile for this hop (on Palette, on a new version made by clone), then reads it back',
  gate: 'draft',
  params: z.strictObject({ profile: ProfileRole }),
  rechecks: true,
});

export const publishCard = stepCard({
  kind: 'publish',
  title: 'Publish the profile',
  description: "Publishes the draft of one profile (the spec's service: its clusters reconcile; Palette: the version is ready to apply)",
  gate: 'publish',
  params: z.strictObject({ profile: ProfileRole }),
});

export const applyCard = stepCard({
  kind: 'apply',
  title: 'Apply the new versions to the cluster',
  description: "On a real Palette: attaches the hop's published versions to the cluster (replaceWithProfile) or applies the pending update; nothing to do on the spec's service",
  gate: 'apply',
  params: noParams(),
});

export const repaveCard = stepCard({
  kind: 'repave',
  title: 'Approve the node rebuild, if Palette asks',
  description: 'On a real Palette: when the applied change rebuilds nodes, asks before approving the repave (nodes drained one at a time; VMs move or restart)',
  gate: 'repave',
  params: z.strictObject({ interval: Duration.default(5_000), timeout: Duration.default(5 * 60_000) }),
});

export const reconcileCard = stepCard({
  kind: 'reconcile',
  title: 'Wait for the cluster to pick up the profiles',
  // It reads and waits: the rollout goes on in the cluster whether or not it watches.
  pollsOnly: true,
  description: "Waits until the cluster runs the hop's profiles (the profiles read, or on Palette every pack of the new versions Ready)",
  params: z.strictObject({ interval: Duration.default(10_000), timeout: Duration.default(30 * 60_000) }),
});

export const migrationsCard = stepCard({
  kind: 'migrations',
  title: 'Watch live migrations',
  // It reads and waits: KubeVirt migrates the VMs whether or not it watches (stuck ones are the recover step's).
  pollsOnly: true,
  description: 'Monitors the live migrations onto the new launcher until they finish or stall',
  params: MigrationsParams,
});

export const diagnoseCard = stepCard({
  kind: 'diagnose',
  title: 'Diagnose migrations',
  description: "Matches the runbook's known-issue signatures against migration failures and KubeVirt logs",
  params: DiagnoseParams,
});

export const recoverCard = stepCard({
  kind: 'recover',
  title: 'Recover outdated VMs',
  description: 'Cancels stuck migrations, then restarts each outdated VM behind its own gate',
  gate: 'cancel-migrations',
  params: RecoverParams,
});

export const verifyCard = stepCard({
  kind: 'verify',
  title: 'Verify the cluster',
  description: 'Post-upgrade checks of spec 9.3 as green/red panels',
  params: z.strictObject({
    /** Check ids to run (default: every check of the runbook). */
    checks: z.array(z.string()).optional(),
  }),
});

export const reportCard = stepCard({
  kind: 'report',
  title: 'Write the report',
  description: 'Writes the session report for the change ticket (report.md, report.json and report.html)',
  params: noParams(),
});
