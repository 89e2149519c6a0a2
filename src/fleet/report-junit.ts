/**
 * The fleet report as JUnit XML for pipelines: one test case per cluster of the plan, grouped by
 * stage. An upgraded cluster passes; a failed one is a <failure> with its error and the command to
 * go on; a skipped one is <skipped/> with its reason; one not run (untouched, stopped, waiting) is
 * <skipped/> saying so; the clusters left out of the plan are listed too, as skipped with why. Pure.
 */
import { xmlText } from '../report/junit.js';
import type { FleetClusterRow, FleetReport } from './report-schema.js';
import { formatDuration } from '../text/duration.js';

function details(c: FleetClusterRow): string {
  const lines = [`fate: ${c.fate}`];
  if (c.versions) lines.push(`version: ${c.versions.from ?? '?'} -> ${c.versions.to ?? '?'}`);
  if (c.vms) lines.push(`VMs: ${c.vms.migrated} migrated, ${c.vms.restarted} restarted, ${c.vms.outstanding} outstanding; downtime ${formatDuration(c.vms.downtimeSeconds * 1000)}`);
  if (c.session) lines.push(`session: ${c.session}`);
  if (c.resume) lines.push(`to go on: ${c.resume}`);
  return lines.join('\n');
}

function testcase(c: FleetClusterRow): string[] {
  const open = `    <testcase classname="${xmlText(`upgrade-pilot.fleet.${c.stage ?? 'left-out'}`, 200)}" name="${xmlText(c.cluster, 300)}" time="${c.durationSeconds ?? 0}"`;
  const out = `      <system-out>${xmlText(details(c))}</system-out>`;
  if (c.status === 'done') return [`${open}>`, out, '    </testcase>'];
  if (c.status === 'failed') return [`${open}>`, `      <failure message="${xmlText(c.why ?? 'failed', 1_000)}" type="cluster-failed">${xmlText(details(c))}</failure>`, '    </testcase>'];
  const why = c.skip ? `skipped: ${c.skip.reason} (${c.skip.by})` : `${c.fate}${c.why ? `: ${c.why}` : ''}`;
  return [`${open}>`, `      <skipped message="${xmlText(why, 1_000)}" />`, out, '    </testcase>'];
}

export function fleetJunit(r: FleetReport): string {
  const failures = r.clusters.filter((c) => c.status === 'failed').length;
  const skipped = r.clusters.filter((c) => c.status !== 'done' && c.status !== 'failed').length;
  const time = r.clusters.reduce((n, c) => n + (c.durationSeconds ?? 0), 0);
  const attrs = `name="${xmlText(`upgrade-pilot fleet ${r.fleet}`, 300)}" tests="${r.clusters.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${time}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites ${attrs}>`,
    `  <testsuite ${attrs} timestamp="${xmlText(r.generatedAt, 40)}">`,
    ...r.clusters.flatMap(testcase),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
