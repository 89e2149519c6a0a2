/**
 * What a fleet command gives the run beside its fleet file (this command's approvals and
 * revocations, how it prints, the access every cluster uses), and each cluster's session settings
 * built from it: the cluster's frozen params, the fleet's state dir, the run's approvals and its
 * stage's written policy, plain output into its run log.
 */
import type { Approvals, WrittenPolicy } from '../engine/approval-policy.js';
import type { NotifyFlags } from '../notify/config.js';
import type { OutputMode, SessionSettings, VariableFrom } from '../run/settings.js';
import type { RunApprovals } from './types.js';

export interface FleetSettings {
  /** The approvals this command gives: the run's on `start`, added to the run's on `resume` and `retry`. */
  approvals: Approvals;
  /** `--revoke`: approvals of the run taken away (gate names, `restarts`, or a VM's NS/NAME). */
  revoke: string[];
  /** How the fleet's own lines are printed (the screen on a terminal, plain lines, or JSON). */
  output: OutputMode;
  apiKeyFile?: string;
  allowInsecureHttp: boolean;
  /** Profile variables' sources, for every cluster's session. */
  variables: VariableFrom[];
  /** The fleet's notifications (the clusters' sessions send none of the command's own). */
  notify: NotifyFlags;
}

/**
 * A cluster session's settings: the run's approvals (the fleet's own gate `stage` is not theirs)
 * with its stage's policy, plain mode, and no notifications of the command's own: the fleet sends
 * those (the cluster's params may name its own).
 */
export function clusterSettings(fleet: FleetSettings, cluster: { paramsFile: string; stateDir: string; approvals: RunApprovals; policy?: WrittenPolicy }): SessionSettings {
  const a = cluster.approvals;
  return {
    params: cluster.paramsFile,
    stateDir: cluster.stateDir,
    ...(fleet.apiKeyFile !== undefined ? { apiKeyFile: fleet.apiKeyFile } : {}),
    allowInsecureHttp: fleet.allowInsecureHttp,
    approvals: { gates: a.gates.filter((g) => g !== 'stage'), restarts: a.restarts, allRestarts: a.allRestarts, skipRestarts: a.skipRestarts, acceptFixes: a.acceptFixes, ...(cluster.policy ? { policy: cluster.policy } : {}) },
    output: 'plain',
    variables: fleet.variables,
    notify: { 'notify-rehearsal': Boolean(fleet.notify['notify-rehearsal']), 'notify-allow-http': Boolean(fleet.notify['notify-allow-http']) },
    dryRun: false,
  };
}
