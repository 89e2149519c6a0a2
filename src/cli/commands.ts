/**
 * The command-line contract as data: each command, what it does, and which options it takes.
 * Parsing, validation and `--help` all read from here, so they cannot disagree.
 */

export interface OptionSpec {
  name: string;
  type: 'boolean' | 'string';
  multiple?: boolean;
  value?: string;
  description: string;
}

export const options = {
  runbook: { name: 'runbook', type: 'string', value: 'FILE', description: 'Runbook to follow (default: the bundled runbooks/vmo-upgrade.yaml)' },
  params: { name: 'params', type: 'string', value: 'FILE', description: 'Site parameters: API base URL, project, profiles, cluster, fixed addresses and names, target version' },
  kubeconfig: { name: 'kubeconfig', type: 'string', value: 'FILE', description: 'Cluster access file (default: the params file, then $KUBECONFIG)' },
  context: { name: 'context', type: 'string', value: 'NAME', description: 'kubeconfig context (default: the params file, then the current context)' },
  'dry-run': { name: 'dry-run', type: 'boolean', description: 'Rehearse: every read is real, every change is recorded instead of sent' },
  'non-interactive': { name: 'non-interactive', type: 'boolean', description: 'Plain output lines even on a terminal (also without a TTY or with CI set)' },
  json: { name: 'json', type: 'boolean', description: 'Plain mode with one JSON object per line' },
  approve: { name: 'approve', type: 'string', multiple: true, value: 'GATE[,GATE]', description: 'Approve gates by name in every hop (draft, publish, cancel-migrations, drift)' },
  'approve-restart': { name: 'approve-restart', type: 'string', multiple: true, value: 'NS/NAME', description: 'Approve the restart of one VM (repeatable)' },
  'approve-all-restarts': { name: 'approve-all-restarts', type: 'boolean', description: 'Approve the restart of every VM that needs one' },
  'skip-restart': { name: 'skip-restart', type: 'string', multiple: true, value: 'NS/NAME', description: 'Decline the restart of one VM; it stays listed as outstanding (repeatable)' },
  'state-dir': { name: 'state-dir', type: 'string', value: 'DIR', description: 'Where sessions are kept (default: $XDG_STATE_HOME/upgrade-pilot)' },
  'api-key-file': { name: 'api-key-file', type: 'string', value: 'FILE', description: 'File holding the profile API key (else $UPGRADE_PILOT_API_KEY); never pass the key itself' },
  'allow-insecure-http': { name: 'allow-insecure-http', type: 'boolean', description: 'Allow a plain http:// profile API on another host (the key then crosses the network unencrypted)' },
  scenario: { name: 'scenario', type: 'string', value: 'NAME', description: 'Lab scenario: healthy, skip-minor, lost-customizations, degraded, large' },
  serve: { name: 'serve', type: 'boolean', description: 'Only serve the lab (write lab.json, run until Ctrl+C)' },
  speed: { name: 'speed', type: 'string', value: 'N', description: 'Lab simulated-time speed-up (default 60)' },
  dialect: { name: 'dialect', type: 'string', value: 'spec|palette', description: 'Lab profile API dialect (default spec)' },
  vms: { name: 'vms', type: 'string', value: 'N', description: 'Lab `large` scenario: number of VMs (default 5000)' },
  nodes: { name: 'nodes', type: 'string', value: 'N', description: 'Lab `large` scenario: number of nodes (default 500)' },
  pods: { name: 'pods', type: 'string', value: 'N', description: 'Lab `large` scenario: number of pods (default 20000)' },
  help: { name: 'help', type: 'boolean', description: 'Show help' },
} as const satisfies Record<string, OptionSpec>;

export type OptionName = keyof typeof options;

export interface CommandSpec {
  name: string;
  usage: string;
  summary: string;
  /** Longer text for `<command> --help`. */
  details: string[];
  options: OptionName[];
  /** Positional argument, if any. */
  positional?: { name: string; description: string };
}

const target: OptionName[] = ['runbook', 'params', 'kubeconfig', 'context', 'state-dir', 'api-key-file', 'allow-insecure-http'];
const approvals: OptionName[] = ['approve', 'approve-restart', 'approve-all-restarts', 'skip-restart'];
const output: OptionName[] = ['non-interactive', 'json'];

export const commands: CommandSpec[] = [
  {
    name: 'start',
    usage: 'upgrade-pilot start [options]',
    summary: 'New session: walk the upgrade runbook in the TUI (plain lines without a TTY)',
    details: [
      'Creates a session, then follows the runbook step by step: preflight, snapshot, plan, customizations,',
      'then per hop draft, publish, reconcile, migrations (diagnosis and recovery when needed), and verification.',
      'Every change waits at a gate. Without a TTY a gate with no --approve* answer stops the run (exit 3).',
    ],
    options: [...target, 'dry-run', ...output, ...approvals, 'help'],
  },
  {
    name: 'resume',
    usage: 'upgrade-pilot resume [id] [options]',
    summary: 'Continue a saved session (the latest if no id)',
    details: [
      'Re-checks what completed steps recorded against the live cluster (drift), settles any change that',
      'was in flight when the session stopped by reading the real state, then continues where it stopped.',
    ],
    options: ['state-dir', 'api-key-file', 'allow-insecure-http', 'kubeconfig', 'context', ...output, ...approvals, 'help'],
    positional: { name: 'id', description: 'Session id (see `upgrade-pilot sessions`)' },
  },
  {
    name: 'rehearse',
    usage: 'upgrade-pilot rehearse [options]',
    summary: 'Same as start --dry-run: all reads real, every change recorded, nothing sent',
    details: ['Ends with a rehearsal report listing each planned call, the customizations, the rules and the pre-checks.'],
    options: [...target, ...output, ...approvals, 'help'],
  },
  {
    name: 'plan',
    usage: 'upgrade-pilot plan [options]',
    summary: 'Print the upgrade hops (one minor at a time), what each publishes, and the VM impact',
    details: ['Read-only. Exit 0 when a plan exists, 2 when the target cannot be reached safely (a skipped minor, a downgrade, a missing version).'],
    options: [...target, 'json', 'help'],
  },
  {
    name: 'diff',
    usage: 'upgrade-pilot diff [options]',
    summary: 'Print the customizations to carry into the new pack versions, and the 9.2 rules',
    details: ['Read-only. Compares the deployed values with the new reference defaults (3-way when the old defaults are known).'],
    options: [...target, 'json', 'help'],
  },
  {
    name: 'verify',
    usage: 'upgrade-pilot verify [options]',
    summary: 'Run the post-upgrade checks once and print the panels (exit 0 all green, 1 a red panel)',
    details: ['Read-only. Exit 4 when the cluster or the API cannot be reached, or did not answer some checks.'],
    options: [...target, 'json', 'help'],
  },
  {
    name: 'report',
    usage: 'upgrade-pilot report [id] [options]',
    summary: 'Write and print the session report (Markdown and JSON in the session folder)',
    details: ['Prints the Markdown report (or the JSON one with --json) and writes both into the session folder.'],
    options: ['state-dir', 'json', 'help'],
    positional: { name: 'id', description: 'Session id (default: the latest)' },
  },
  {
    name: 'sessions',
    usage: 'upgrade-pilot sessions [options]',
    summary: 'List saved sessions',
    details: ['Shows each session: id, runbook, cluster, mode, current step, status, last update.'],
    options: ['state-dir', 'json', 'help'],
  },
  {
    name: 'lab',
    usage: 'upgrade-pilot lab [--scenario NAME] [--serve] [--state-dir DIR]',
    summary: 'Start the embedded lab (a simulated Palette API and cluster) and run the runbook against it',
    details: [
      'Without --serve: starts the lab and opens the TUI on it (this is `npm start`).',
      'With --serve: serves the lab, writes <state-dir>/lab.json (URLs, key, uids, kubeconfig, params file)',
      'and runs until Ctrl+C; every command works against it with that params file.',
    ],
    options: ['scenario', 'serve', 'state-dir', 'speed', 'dialect', 'vms', 'nodes', 'pods', 'dry-run', ...output, ...approvals, 'help'],
  },
];

export function findCommand(name: string): CommandSpec | undefined {
  return commands.find((c) => c.name === name);
}
