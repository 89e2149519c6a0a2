/**
 * The window as plain lines for `plan`: KubeVirt's limits (set or default), the policies and whom
 * they select, the bandwidth and where it comes from, and the VMs a change board asks about (those
 * that go down, those that may stall, those whose own limits are broken).
 */
import type { VmImpact } from '../impact/vm-impact.js';
import { memoryText, rateText } from '../units/quantity.js';
import type { HopEta, HopRoom } from './types.js';
import { requestText } from '../room/cluster-room.js';
import type { WindowView } from './window.js';
import { firstFew } from '../../text/first-few.js';
import { roughDuration, durationRange } from '../../text/duration.js';
import { formatDuration } from '../../text/duration.js';

type WindowViewText = Omit<WindowView, 'eta'>;

export function limitsLines(w: WindowViewText): string[] {
  const l = w.limits;
  const set = (f: string) => (l.setFields.includes(f) ? '' : ' (default)');
  const lines = [
    'KubeVirt\'s limits on moving VMs (the KubeVirt resource; "default" = KubeVirt\'s own, not set on this cluster):',
    `  ${l.parallelMigrationsPerCluster} migrations at a time in the cluster${set('parallelMigrationsPerCluster')}, ${l.parallelOutboundMigrationsPerNode} leaving one node${set('parallelOutboundMigrationsPerNode')}`,
    `  bandwidth per migration ${l.bandwidthPerMigration > 0 ? rateText(l.bandwidthPerMigration) : 'unlimited'}${set('bandwidthPerMigration')}; aborted after ${formatDuration(l.completionTimeoutPerGiB * 1000)} per GiB${set('completionTimeoutPerGiB')} or ${formatDuration(l.progressTimeout * 1000)} without progress${set('progressTimeout')}`,
    `  auto-converge ${l.allowAutoConverge ? 'on' : 'off'}${set('allowAutoConverge')}, post-copy ${l.allowPostCopy ? 'on' : 'off'}${set('allowPostCopy')}`,
    `  workload updater: ${l.workloadUpdateMethods.join(' and ') || 'no method (nothing moves by itself)'}; evictions in batches of ${l.batchEvictionSize}${set('batchEvictionSize')} every ${roughDuration(l.batchEvictionIntervalSeconds)}${set('batchEvictionInterval')}`,
    `  transfer: ${w.bandwidth.text}`,
  ];
  for (const p of w.policies) {
    const over = [
      p.bandwidthPerMigration !== undefined && `bandwidth ${rateText(p.bandwidthPerMigration)}`,
      p.completionTimeoutPerGiB !== undefined && `${formatDuration(p.completionTimeoutPerGiB * 1000)} per GiB`,
      p.allowAutoConverge !== undefined && `auto-converge ${p.allowAutoConverge ? 'on' : 'off'}`,
      p.allowPostCopy !== undefined && `post-copy ${p.allowPostCopy ? 'on' : 'off'}`,
    ].filter(Boolean);
    const who = p.vms.length ? `${p.vms.length} VM(s): ${firstFew(p.vms)}` : 'no running VM';
    lines.push(`  MigrationPolicy ${p.name}: ${over.join(', ') || 'no override'}; selects ${who}`);
  }
  return lines;
}

/** What each part of a hop's time is called where the plan lists them. */
export const etaPartName: Record<HopEta['parts'][number]['what'], string> = { 'pack-rollout': 'rollout', migrations: 'VM moves', restarts: 'restarts' };

export function etaLines(eta: HopEta): string[] {
  return [`  Takes ${eta.summary}`, ...eta.parts.filter((p) => p.what !== 'restarts' || p.p50Seconds > 0).map((p) => `    ${etaPartName[p.what].padEnd(10)} about ${durationRange(p.p50Seconds, p.p90Seconds)}: ${p.basis}`)];
}

const LISTED = 20;

/** The VMs whose part in the window costs something, with when and how long. */
export function watchLines(impact: readonly VmImpact[]): string[] {
  const lines: string[] = [];
  const stall = impact.filter((i) => i.mayNotConverge?.length);
  if (stall.length) {
    lines.push('', `May not converge (${stall.length}): flagged before anything is sent`);
    for (const i of stall.slice(0, LISTED)) for (const r of i.mayNotConverge!) lines.push(`  ${i.vm}: ${r}`);
  }
  const broken = impact.filter((i) => i.limitsBroken?.length);
  if (broken.length) {
    lines.push('', `VMs whose own limits the plan breaks (${broken.length}):`);
    for (const i of broken.slice(0, LISTED)) for (const r of i.limitsBroken!) lines.push(`  ${i.vm}: ${r}`);
  }
  const moving = impact.filter((i) => i.fate === 'live-migrate' && i.predicted).sort((a, b) => b.predicted!.durationSeconds.p50 - a.predicted!.durationSeconds.p50);
  if (moving.length) {
    lines.push('', `Longest migrations (of ${moving.length}; all with --json):`);
    for (const i of moving.slice(0, 5)) {
      const p = i.predicted!;
      const when = p.startSeconds < 5 ? 'starts at once' : `starts about ${roughDuration(p.startSeconds)} in`;
      const how = durationRange(p.durationSeconds.p50, p.durationSeconds.p90);
      lines.push(`  ${i.vm}${i.memoryBytes ? ` (${memoryText(i.memoryBytes)})` : ''}: ${when}, ${i.mayNotConverge?.length ? `runs ${how} until KubeVirt aborts it (may not converge)` : `takes ${how}`}`);
    }
  }
  return lines;
}

/**
 * Room to move for a hop that rebuilds nodes: the verdict, then each node whose VMs fit nowhere else
 * (what they request and why no node takes them), so the board sees it before approving.
 */
export function roomLines(room: HopRoom, indent = '  '): string[] {
  const tight = room.nodes.filter((n) => n.unplaced.length);
  const lines = [`${indent}Nodes rebuilt (${room.rebuilds.join(', ')} change${room.rebuilds.length > 1 ? '' : 's'}): ${tight.length ? 'NOT ENOUGH ROOM: ' : ''}${room.summary}.`];
  for (const n of tight.slice(0, LISTED)) {
    const vms = n.unplaced.slice(0, 5).map((u) => `${u.vm} (${requestText({ milliCpu: Math.round(u.cpu * 1000), bytes: u.memoryBytes })})`);
    lines.push(`${indent}  ${n.node}: ${vms.join(', ')}${n.unplaced.length > 5 ? ` and ${n.unplaced.length - 5} more` : ''}: ${n.unplaced[0]!.why}; they wait for ${n.node} to come back (a migration's target pod or a restarted VM stays Pending, the drain may time out)`);
  }
  if (tight.length) lines.push(`${indent}  What to do: make room first (stop VMs that can wait, add a node, lower requests), or approve knowing these VMs wait for their own node.`);
  return lines;
}
