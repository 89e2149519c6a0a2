/**
 * What the apply and node-rebuild gates restate about the cluster's health: every unhealthy fact
 * that holds now, read again at the gate (never what preflight remembered: a node may be back).
 */
import type { StepContext } from '../../engine/context.js';
import { healthWarnings, readHealth } from '../preflight/health-read.js';

export async function healthRestated(ctx: StepContext<unknown>): Promise<string[]> {
  if (!ctx.site) return [];
  try {
    // Awaited: a session without cluster access has a stand-in whose every call is a rejection.
    const reader = await ctx.effects.kube.reader(ctx.signal);
    return healthWarnings(await readHealth(reader, ctx.site));
  } catch (err) {
    return [`The cluster's health could not be read again (${err instanceof Error ? err.message : String(err)}): it is unknown.`];
  }
}
