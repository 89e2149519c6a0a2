/**
 * One health read of a cluster during a stage's soak: the same reads and judgement as preflight's
 * health gate (steps/preflight/health-read.ts, domain/checks/upgrade-health.ts), against the cluster's
 * frozen params (its kubeconfig and context). Every problem comes back as one line of evidence; a
 * cluster none of whose areas could be read is not called healthy (no green it did not earn).
 */
import { loadParams } from '../engine/load.js';
import { RunbookSchema } from '../steps/runbook-schema.js';
import { factLine } from '../domain/checks/upgrade-health.js';
import { buildKube } from '../run/effects.js';
import { makeScratch } from '../run/scratch.js';
import type { Redactor } from '../session/redact.js';
import { readHealth } from '../steps/preflight/health-read.js';
import type { SoakHealth } from './soak.js';

/** The runbook's defaults for kubectl (time-outs, output caps, the read proxy): a soak read runs no runbook. */
const settings = RunbookSchema.shape.settings.parse({});

export function kubeSoakHealth(redactor: Redactor): SoakHealth {
  return async (cluster, signal) => {
    const site = loadParams(cluster.paramsFile).params;
    const scratch = makeScratch('soak');
    const kube = buildKube({ kubeconfig: site.cluster.kubeconfig, context: site.cluster.context, redactor, cacheDir: scratch.dir, runbook: { settings } });
    try {
      const report = await readHealth(kube.reader(signal), site);
      const problems = report.facts.map(factLine);
      // Its nodes unreadable: the cluster did not answer, and that is no green. Another area unread
      // (a kind the cluster does not serve) is said, and is not a failure by itself.
      const nodes = report.unread.find((u) => u.area === 'nodes');
      if (nodes) return { healthy: false, evidence: [...problems, `its nodes could not be read: ${nodes.reason}`] };
      return { healthy: problems.length === 0, evidence: problems, unread: report.unread.map((u) => `${u.area}: ${u.reason}`) };
    } finally {
      (kube as { kubectl?: { close(): void } }).kubectl?.close();
      scratch.dispose();
    }
  };
}
