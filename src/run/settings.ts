/**
 * What one session runs with, settled before it starts: its files (runbook, params, state dir),
 * the access it uses, the approvals given beforehand, how it talks to the operator, and, on the
 * lab, the lab's links. The command line gives one (commands/session-settings.ts); the fleet builds
 * one per cluster from its frozen plan and the run's approvals (fleet/cluster-settings.ts). The
 * session reads nothing else of how it was asked for.
 */
import type { Approvals } from '../engine/approval-policy.js';
import type { NotifyFlags } from '../notify/config.js';
import type { VariableSource } from '../palette/variable-values.js';

/**
 * How a run talks: `auto` draws the TUI on a terminal (plain lines without one, or under CI);
 * `plain` prints lines (`--non-interactive`); `json` prints one JSON object a line (`--json`).
 */
export type OutputMode = 'auto' | 'plain' | 'json';

/** Where one profile variable's value comes from (`--variable NAME=env:VAR`); never the value. */
export interface VariableFrom {
  name: string;
  from: VariableSource;
}

/** The embedded lab's (or a replay's) links: its params file, its key (in memory only) and the guide for the first screen. */
export interface LabLinks {
  paramsFile: string;
  apiKey: string;
  guide: string[];
}

export interface SessionSettings {
  /** The runbook file; undefined: the bundled one. */
  runbook?: string;
  /** The params file; undefined: none, or the lab's. */
  params?: string;
  /** The kubeconfig named over the params' (run/kubeconfig-choice.ts). */
  kubeconfig?: string;
  /** The kubeconfig context over the params'. */
  context?: string;
  /** The state dir as given; undefined: $UPGRADE_PILOT_STATE_DIR or the default (session/paths.ts). */
  stateDir?: string;
  /** A file holding the profile API key; undefined: UPGRADE_PILOT_API_KEY. */
  apiKeyFile?: string;
  /** Plain http accepted where the key goes. */
  allowInsecureHttp: boolean;
  /** The gates approved before the run, and a written policy beside them (a fleet stage's). */
  approvals: Approvals;
  output: OutputMode;
  /** Profile variables' sources over the params'. */
  variables: VariableFrom[];
  /** Where notifications go beside the params' `notify:`. */
  notify: NotifyFlags;
  /** A rehearsal: nothing is sent (a resume keeps the session's own mode). */
  dryRun: boolean;
  /** Set by `lab`: the session runs on the lab that this process serves. */
  lab?: LabLinks;
}
