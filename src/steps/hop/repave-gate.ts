/**
 * The `repave` gate: a real Palette that must rebuild nodes for a change (a new Kubernetes or OS
 * pack) waits with `status.repave.state: Pending` until someone approves. The gate says why, which
 * nodes go (one at a time) and what that does to each running VM; approving sends
 * `PATCH /v1/spectroclusters/{uid}/repave/approve` once, journaled and settled by reading the state.
 * Used by the `repave` step and by the watch, should Palette ask later.
 */
import { StoppedError } from '../../errors.js';
import { approveOrDecline } from '../../engine/gate.js';
import type { ClusterDoc, RepaveReason } from '../../palette/cluster-types.js';
import { approveRepaveRequest } from '../../palette/mutations.js';
import { sanitizeText } from '../../text/sanitize.js';
import { currentHop, latestPlan } from '../contracts.js';
import type { HopContext } from './flavors/types.js';
import { downTwice, drainItems, drainPlan, type NodeDrain } from '../../domain/repave/repave-impact.js';
import { wayBackHint } from './way-back-hint.js';
import { healthRestated } from './health-restated.js';
import { planRoom, requestText } from '../../domain/room/cluster-room.js';
import type { HopRoom } from '../../domain/window/types.js';
import type { RepaveApproval } from './types.js';
export type { RepaveApproval } from './types.js';

export const repaveApproveKey = (keyBase: string): string => `${keyBase}/repave/approve`;
const approveKey = repaveApproveKey;

const reasonText = (r: RepaveReason) => sanitizeText(r.pack ?? (r.message || r.code), { max: 300 });

/** Nodes and VMs as they are now (a read that fails leaves the gate with what it knows, and says so). */
async function readDrain(ctx: HopContext): Promise<{ nodes: NodeDrain[]; unread?: string; kubevirtUpdated?: boolean; room?: Omit<HopRoom, 'rebuilds'> }> {
  try {
    const reader = ctx.effects.kube.reader(ctx.signal);
    const site = ctx.site;
    const [nodes, vmis, pods, kv] = await Promise.all([reader.nodes(), reader.vmis(), reader.pods(), site ? reader.kubeVirt(site.kubevirt.namespace, site.kubevirt.name) : undefined]);
    // Whether a VM restarted by the rebuild comes back on the new launcher: KubeVirt runs the hop's version.
    const wanted = currentHop(ctx)?.kubevirtVersion;
    const observed = kv?.status?.observedKubeVirtVersion;
    const kubevirtUpdated = !wanted || (observed === wanted && kv?.status?.targetKubeVirtVersion === observed);
    return { nodes: drainPlan(nodes, vmis, latestPlan(ctx)?.impact), kubevirtUpdated, room: planRoom(nodes, pods, vmis) };
  } catch (err) {
    return { nodes: [], unread: err instanceof Error ? err.message : String(err) };
  }
}

/** True when an approval was sent (or its intent written) and its outcome is not yet known. */
export function repaveInFlight(ctx: HopContext, keyBase: string): boolean {
  const m = ctx.state().mutations[approveKey(keyBase)];
  return m !== undefined && !ctx.mutationDone(approveKey(keyBase));
}

export async function askRepave(ctx: HopContext, cluster: ClusterDoc, keyBase: string): Promise<RepaveApproval> {
  const palette = ctx.effects.palette;
  const clusterUid = cluster.uid;
  const name = ctx.site?.cluster.name ?? (cluster.name || clusterUid);
  const status = await palette.getRepaveStatus(clusterUid, { signal: ctx.signal }).catch(() => ({ reasons: [] as RepaveReason[] }));
  const reasons = status.reasons.map(reasonText);
  const drain = await readDrain(ctx);
  const vms = drain.nodes.flatMap((n) => n.vms);
  const migrate = vms.filter((v) => v.moves === 'migrates').length;
  const restart = vms.length - migrate;
  const base = { reasons, nodes: drain.nodes, migrate, restart };
  const settle = async (): Promise<'done' | 'not-done'> => ((await palette.getCluster(clusterUid, { signal: ctx.signal })).repave === 'Pending' ? 'not-done' : 'done');
  const request = approveRepaveRequest(clusterUid, `approve the node rebuild of ${name}`);

  // Approved before an interruption: find out whether it reached Palette; never ask or send twice.
  if (repaveInFlight(ctx, keyBase)) {
    await ctx.mutate({ key: approveKey(keyBase), request, approvedBy: `${keyBase}/repave`, settle });
    return { ...base, outcome: 'settled' };
  }

  const controlPlane = drain.nodes.filter((n) => n.controlPlane).length;
  const health = await healthRestated(ctx);
  const twice = downTwice(drain.nodes, latestPlan(ctx)?.impact ?? [], drain.kubevirtUpdated ?? true);
  const twiceWarning = twice.length
    ? [`${twice.length} VM(s) go down twice: their node is rebuilt before KubeVirt has moved them to the new launcher, then they are ${twice[0]!.then}: ${twice.slice(0, 5).map((t) => `${t.vm} (on ${t.node})`).join(', ')}${twice.length > 5 ? ', …' : ''}.`]
    : [];
  // Room read now, not at the plan: VMs started or stopped since change it.
  const tight = drain.room?.nodes.filter((n) => n.unplaced.length) ?? [];
  const roomWarning = tight.map(
    (n) => `Not enough room: while ${n.node} drains, ${n.unplaced.length} of its ${n.leaving} VM(s) fit on no other node (${n.unplaced.slice(0, 3).map((u) => `${u.vm}, ${requestText({ milliCpu: Math.round(u.cpu * 1000), bytes: u.memoryBytes })}`).join('; ')}${n.unplaced.length > 3 ? '; …' : ''}): ${n.unplaced[0]!.why}. They wait for ${n.node} to come back, and the drain may time out.`,
  );
  const downtime = restart > 0 ? [`${restart} VM(s) cannot live-migrate and will be down while their node is rebuilt: ${vms.filter((v) => v.moves === 'restarts').map((v) => v.vm).slice(0, 5).join(', ')}${restart > 5 ? ', …' : ''}.`] : [];
  const gateKey = `${keyBase}/repave`;
  const decision = await ctx.confirm({
    gate: 'repave',
    key: gateKey,
    title: `Approve the node rebuild (repave) of ${name}`,
    lines: [
      `Palette waits for approval to rebuild the nodes of ${name}${reasons.length ? `: ${reasons.join('; ')}` : ''}.`,
      drain.unread
        ? `The nodes could not be read (${sanitizeText(drain.unread, { max: 200 })}): every node is drained and rebuilt, one at a time.`
        : `${drain.nodes.length} node(s) (${controlPlane} control plane, ${drain.nodes.length - controlPlane} worker) are drained and rebuilt one at a time, control plane first; each running VM leaves its node as it drains: ${migrate} live-migrate, ${restart} restart (downtime).`,
    ],
    items: drainItems(drain.nodes),
    ...(roomWarning.length || downtime.length || twiceWarning.length || health.length ? { warnings: [...roomWarning, ...downtime, ...twiceWarning, ...health] } : {}),
    options: approveOrDecline('Approve the rebuild'),
    safeChoice: 'abort',
    ifStopped: `no node is drained: Palette keeps the rebuild of ${name} pending (the new versions stay attached, their node-level packs wait) and the VMs stay where they are; a resume asks again.`,
  });
  if (decision.choice !== 'approve') {
    const back = wayBackHint(ctx);
    throw new StoppedError(`Declined: the nodes of ${name} were not rebuilt; nothing was sent.`, { next: `Palette keeps waiting for the approval (the new versions stay attached, their node-level packs wait). Resume when ready: you will be asked again.${back ? ` ${back}` : ''}` }, 'stopped.repave');
  }
  await ctx.mutate({ key: approveKey(keyBase), request, approvedBy: gateKey, settle });
  return { ...base, outcome: ctx.dryRun ? 'rehearsal' : 'approved' };
}
