/**
 * The plan as plain lines (the `plan` command and plain mode): the ladder, each hop's profile
 * changes and labels, and the VM impact. Every VM whose fate costs something (a restart, an
 * eviction) is listed; VMs that simply live-migrate are counted, with the full list in `--json`.
 */
import type { PlannedProfile } from '../../domain/plan/planned-hop.js';
import { impactLine, sortImpact } from '../../domain/impact/impact.js';
import { etaLines, limitsLines, roomLines, watchLines } from '../../domain/window/render.js';
import type { PlanOutput } from './types.js';
import { profileVariableLines } from './profile-variables.js';

const LISTED = 50;
/** VMs named per group; the rest are counted. */
const NAMED = 8;

/** Where a profile's new defaults come from, in words (the plan screen says the same). */
export function referenceText(p: PlannedProfile): string {
  switch (p.reference?.kind) {
    case 'profile':
      return `reference profile ${p.reference.uid}`;
    case 'folder':
      return `values folder ${p.reference.path}`;
    case 'registry':
      return `defaults from the pack ${p.reference.label}`;
    default:
      return 'no reference';
  }
}

/** The strategies that decided a costly fate, said under the reason. */
function strategies(i: PlanOutput['impact'][number]): string {
  const s = [i.evictionStrategy && `evictionStrategy ${i.evictionStrategy}`, i.runStrategy && `runStrategy ${i.runStrategy}`].filter(Boolean);
  return s.join(', ');
}

export function renderPlanText(out: PlanOutput, cluster: string): string[] {
  if (out.status === 'refused') {
    return [`upgrade-pilot plan: ${cluster}: ${out.pack} ${out.deployed} → ${out.target}: REFUSED`, `  ${out.refusal?.reason ?? ''}`, `  what to do: ${out.refusal?.hint ?? ''}`];
  }
  const lines: string[] = [];
  if (out.hops.length === 0) lines.push(`upgrade-pilot plan: ${cluster}: ${out.pack} is already at ${out.deployed}: nothing to publish.`);
  else {
    lines.push(`upgrade-pilot plan: ${cluster}: ${out.pack} ${out.deployed} → ${out.target} in ${out.hops.length} hop(s) of one minor version each`);
    lines.push(`  ${[out.deployed, ...out.hops.map((h) => h.to)].join(' ─▶ ')}`);
    if (out.versionSource) lines.push(`  versions from ${out.versionSource}`);
    if (out.windowTotal) lines.push(`  ${out.windowTotal}`);
  }
  for (const hop of out.hops) {
    const components = [hop.kubevirtVersion && `KubeVirt ${hop.kubevirtVersion}`, hop.cdiVersion && `CDI ${hop.cdiVersion}`].filter(Boolean).join(', ');
    lines.push('', `Hop ${hop.index}: ${hop.from} → ${hop.to}${components ? ` (deploys ${components})` : ''}${hop.source ? `; ${hop.to} is ${hop.source}` : ''}`);
    for (const p of hop.profiles) {
      lines.push(`  ${p.name}: version ${p.fromVersion} → ${p.toVersion} (${referenceText(p)})`);
      for (const k of p.packs) lines.push(`    ${k.name} ${k.from} → ${k.to}${k.source && p.reference?.kind !== 'profile' ? `  (${k.source})` : ''}`);
      if (p.stays?.length) lines.push(`    stay: ${p.stays.join(', ')}`);
    }
    if (hop.eta) lines.push(...etaLines(hop.eta));
    if (hop.room) lines.push(...roomLines(hop.room));
    for (const v of hop.variables ?? []) {
      lines.push(`  new profile variable ${v.name} (${v.role === 'addon' ? 'add-on' : 'infrastructure'} profile, ${v.since}): ${v.description} Declared before the draft; its value is asked at the draft gate${v.sensitive ? ' (hidden, never written)' : ''} and set for the cluster with the apply.`);
    }
  }
  lines.push(...profileVariableLines(out.profileVariables ?? []));
  if (out.wayBack?.length) {
    lines.push('', 'The way back (what the cluster runs now):');
    for (const w of out.wayBack) lines.push(`  ${w.name} ${w.version} (uid ${w.uid}): ${w.how}`);
  }
  if (out.window) lines.push('', ...limitsLines(out.window));
  lines.push('', out.hops.length ? `VM impact: ${impactLine(out.impactCounts)}` : 'VM impact: none (nothing is published)');
  // VMs that go through the same for the same reason are one entry: fifty identical explanations hide the one that differs.
  const groups = new Map<string, PlanOutput['impact']>();
  for (const i of sortImpact(out.impact).filter((x) => x.fate !== 'live-migrate')) {
    const why = [i.explanation && `${i.reasonCode}: ${i.explanation}`, strategies(i)].filter(Boolean).join('; ');
    const key = `${i.fate}\n${i.reason}\n${why}`;
    groups.set(key, [...(groups.get(key) ?? []), i]);
  }
  const where = (i: PlanOutput['impact'][number]) => `${i.vm}${i.node ? ` on ${i.node}` : ''}`;
  for (const [key, vms] of [...groups].slice(0, LISTED)) {
    const [fate, reason, why] = key.split('\n') as [string, string, string];
    lines.push(`  ${fate.padEnd(12)} ${vms.length === 1 ? where(vms[0]!) : `${vms.length} VM(s)`}: ${reason}`);
    if (why) lines.push(`               ${why}`);
    if (vms.length > 1) lines.push(`               ${vms.slice(0, NAMED).map(where).join(', ')}${vms.length > NAMED ? `, and ${vms.length - NAMED} more (all with --json)` : ''}`);
  }
  if (groups.size > LISTED) lines.push(`  … and ${groups.size - LISTED} more kinds (see --json)`);
  if (out.impactCounts['live-migrate']) lines.push(`  live-migrate ${out.impactCounts['live-migrate']} VM(s) (listed with --json)`);
  lines.push(...watchLines(out.impact));
  if (out.notes.length) lines.push('', 'Notes:', ...out.notes.map((n) => `  - ${n}`));
  return lines;
}
