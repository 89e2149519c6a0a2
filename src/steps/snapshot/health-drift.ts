/**
 * On resume, the cluster's health read again: an unhealthy fact that the operator did not go on
 * with at the `health` gate (new since, or the session started healthy) is a change the drift gate
 * names. Facts already known are not news; the apply and rebuild gates restate those that hold.
 */
import type { HealthFact } from '../../domain/checks/upgrade-health.js';
import { factLine } from '../../domain/checks/upgrade-health.js';
import type { HealthReport } from '../preflight/health-read.js';

export function healthDrift(known: HealthFact[], now: HealthReport): string[] {
  const seen = new Set(known.map((f) => f.key));
  return [
    ...now.facts.filter((f) => !seen.has(f.key)).map((f) => `not healthy now: ${factLine(f)}`),
    ...now.unread.map((u) => `the cluster's ${u.area} could not be read again (${u.reason})`),
  ];
}
