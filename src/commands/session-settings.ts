/**
 * The command line's options turned into what run/ and fleet/ take: a session's settings
 * (run/settings.ts) and a fleet command's (fleet/settings.ts). The flags' meaning is decided here
 * once; below, nothing reads a flag's name.
 */
import type { Approvals } from '../engine/approval-policy.js';
import type { FleetSettings } from '../fleet/settings.js';
import type { NotifyFlags } from '../notify/config.js';
import type { LabLinks, OutputMode, SessionSettings } from '../run/settings.js';
import type { CliOptions } from './options.js';

/** `--json` prints JSON (with or without `--non-interactive`); `--non-interactive` plain lines; else the TUI where a terminal can show it. */
export function outputMode(options: Pick<CliOptions, 'json' | 'non-interactive'>): OutputMode {
  return options.json ? 'json' : options['non-interactive'] ? 'plain' : 'auto';
}

/** `--approve`, `--approve-restart`, `--approve-all-restarts`, `--skip-restart`, `--accept-fix`. */
export function approvalsFrom(options: CliOptions): Approvals {
  return { gates: options.approve, restarts: options['approve-restart'], allRestarts: options['approve-all-restarts'], skipRestarts: options['skip-restart'], acceptFixes: options['accept-fix'] ?? [] };
}

function notifyFlags(options: CliOptions): NotifyFlags {
  return { notify: options.notify, ...(options['notify-command'] !== undefined ? { 'notify-command': options['notify-command'] } : {}), 'notify-rehearsal': options['notify-rehearsal'], 'notify-allow-http': options['notify-allow-http'] };
}

const given = <K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> => (value !== undefined ? ({ [key]: value } as Record<K, V>) : {});

/** A session's settings: `dryRun` as the command runs it (`start --dry-run`, `rehearse`, a replay); `lab` for the lab this process serves. */
export function sessionSettings(options: CliOptions, run: { dryRun: boolean; lab?: LabLinks }): SessionSettings {
  return {
    ...given('runbook', options.runbook),
    ...given('params', options.params),
    ...given('kubeconfig', options.kubeconfig),
    ...given('context', options.context),
    ...given('stateDir', options['state-dir']),
    ...given('apiKeyFile', options['api-key-file']),
    allowInsecureHttp: options['allow-insecure-http'],
    approvals: approvalsFrom(options),
    output: outputMode(options),
    variables: options.variable ?? [],
    notify: notifyFlags(options),
    dryRun: run.dryRun,
    ...(run.lab ? { lab: run.lab } : {}),
  };
}

/** A fleet command's settings (start, resume, retry): what every cluster's session is built from. */
export function fleetSettings(options: CliOptions): FleetSettings {
  return {
    approvals: approvalsFrom(options),
    revoke: options.revoke,
    output: outputMode(options),
    ...given('apiKeyFile', options['api-key-file']),
    allowInsecureHttp: options['allow-insecure-http'],
    variables: options.variable ?? [],
    notify: notifyFlags(options),
  };
}
