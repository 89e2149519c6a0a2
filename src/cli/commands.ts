/**
 * The command-line contract as data: each command, what it does, and which options it takes.
 * Parsing, validation and `--help` all read from here, so they cannot disagree.
 */
import { scenarioLines } from '../lab/scenario-catalog.js';

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
  approve: { name: 'approve', type: 'string', multiple: true, value: 'GATE[,GATE]', description: 'Approve gates by name in every hop (health, draft, publish, apply, repave, cancel-migrations, drift; stage in `fleet`)' },
  'approve-restart': { name: 'approve-restart', type: 'string', multiple: true, value: 'NS/NAME', description: 'Approve the restart of one VM (repeatable)' },
  'approve-all-restarts': { name: 'approve-all-restarts', type: 'boolean', description: 'Approve the restart of every VM that needs one' },
  'skip-restart': { name: 'skip-restart', type: 'string', multiple: true, value: 'NS/NAME', description: 'Decline the restart of one VM; it stays listed as outstanding (repeatable)' },
  'accept-fix': { name: 'accept-fix', type: 'string', multiple: true, value: 'RULE-ID', description: "Put a rule's offered fix into the drafts (a setting the site did not have; repeatable). Nothing is added unless chosen" },
  variable: { name: 'variable', type: 'string', multiple: true, value: 'NAME=env:VAR|NAME=file:PATH', description: "Where a new profile variable's value comes from (repeatable); never the value itself" },
  notify: { name: 'notify', type: 'string', multiple: true, value: 'URL', description: 'POST a JSON message to this webhook (https; Slack, Teams or any) when a gate waits, the run stops or ends (repeatable)' },
  'notify-command': { name: 'notify-command', type: 'string', value: 'CMD', description: 'Run CMD (no shell) with the same JSON message on its stdin, time-limited' },
  'notify-rehearsal': { name: 'notify-rehearsal', type: 'boolean', description: 'Notify in a rehearsal too (off by default)' },
  'notify-allow-http': { name: 'notify-allow-http', type: 'boolean', description: 'Accept plain-http --notify URLs to other machines' },
  junit: { name: 'junit', type: 'string', value: 'FILE', description: 'Also write the panels as JUnit XML to FILE (one test case per panel)' },
  since: { name: 'since', type: 'string', value: 'TIME', description: 'Failures before TIME are the cluster\'s past (amber, with their age): RFC 3339 or a duration such as 2h (default: the start of the latest session on this cluster)' },
  'state-dir': { name: 'state-dir', type: 'string', value: 'DIR', description: 'Where sessions are kept (default: $XDG_STATE_HOME/upgrade-pilot)' },
  'api-key-file': { name: 'api-key-file', type: 'string', value: 'FILE', description: 'File holding the profile API key (else $UPGRADE_PILOT_API_KEY); never pass the key itself' },
  'allow-insecure-http': { name: 'allow-insecure-http', type: 'boolean', description: 'Allow a plain http:// profile API on another host (the key then crosses the network unencrypted)' },
  scenario: { name: 'scenario', type: 'string', value: 'NAME', description: 'Lab scenario (listed below); without it a terminal asks, else healthy' },
  serve: { name: 'serve', type: 'boolean', description: 'Only serve the lab (write lab.json, run until Ctrl+C)' },
  'server-path': {
    name: 'server-path',
    type: 'string',
    value: 'PATH',
    description: "Lab: serve the Kubernetes API only under PATH, as a gateway such as Rancher does (e.g. /k8s/clusters/c-lab); the kubeconfig's server URL carries it",
  },
  speed: { name: 'speed', type: 'string', value: 'N', description: 'Lab simulated-time speed-up (default 60)' },
  flavor: { name: 'flavor', type: 'string', value: 'spec|palette', description: "Lab profile API: the spec's service, or a real Palette (versions by clone, applied to the cluster); default palette in the TUI, spec with --serve" },
  dialect: { name: 'dialect', type: 'string', value: 'spec|palette', description: 'Old name of --flavor' },
  vms: { name: 'vms', type: 'string', value: 'N', description: 'Lab `large` scenario: number of VMs (default 5000)' },
  nodes: { name: 'nodes', type: 'string', value: 'N', description: 'Lab `large` scenario: number of nodes (default 500)' },
  pods: { name: 'pods', type: 'string', value: 'N', description: 'Lab `large` scenario: number of pods (default 20000)' },
  out: { name: 'out', type: 'string', value: 'FILE', description: 'The file to write (a new file): capture, the capture (.gz: gzip-compressed JSON); fleet report, the report in --format' },
  format: { name: 'format', type: 'string', value: 'md|json|junit|html', description: 'fleet report: Markdown (default), JSON, JUnit (one test case per cluster) or the self-contained HTML page' },
  timeline: { name: 'timeline', type: 'boolean', description: 'report, fleet report: print the timeline as text bars fitted to the terminal instead of the report' },
  'max-size': { name: 'max-size', type: 'string', value: 'SIZE', description: "Cap on the capture's uncompressed size (default 256MiB, at most 500MiB); over it nothing is written" },
  replay: { name: 'replay', type: 'string', value: 'FILE', description: 'Serve a capture (see `capture`) as the lab: frozen and read-only, instead of a scenario' },
  fleet: { name: 'fleet', type: 'string', value: 'FILE|N', description: 'fleet: the fleet file (clusters and stages). lab: serve a fleet of N clusters sharing profiles' },
  'fleet-fail': {
    name: 'fleet-fail',
    type: 'string',
    multiple: true,
    value: 'NAME:pack-error|stuck-migration|node-not-ready',
    description: 'Lab fleet: make cluster NAME fail that way (repeatable)',
  },
  'fleet-variables': { name: 'fleet-variables', type: 'boolean', description: "Lab fleet: the shared add-on profile holds the ingress address as the profile variable INGRESS_IP, each cluster its own value" },
  'fleet-template': { name: 'fleet-template', type: 'string', multiple: true, value: 'NAME', description: 'Lab fleet: a cluster template manages cluster NAME (spec.clusterTemplate.uid): a fleet leaves it out (repeatable)' },
  reason: { name: 'reason', type: 'string', value: 'TEXT', description: 'fleet skip: why the cluster is left out (goes into the report)' },
  revoke: { name: 'revoke', type: 'string', multiple: true, value: 'GATE[,GATE]', description: "fleet resume/retry: take an approval away from the run (a gate, restarts, or a VM's NS/NAME), flags and stage policies alike" },
  now: { name: 'now', type: 'boolean', description: 'fleet stop: stop at once; applied clusters are left with their rollout unwatched (said so, with the command that re-attaches)' },
  help: { name: 'help', type: 'boolean', description: 'Show help' },
} as const satisfies Record<string, OptionSpec>;

export type OptionName = keyof typeof options;

export interface CommandSpec {
  name: string;
  usage: string;
  summary: string;
  /** Longer text for `<command> --help`: one paragraph each, wrapped to the terminal's width. */
  details: string[];
  /** Named lists after the options (the lab's scenarios), each row a name and one line. */
  lists?: Array<{ title: string; rows: () => Array<readonly [string, string]> }>;
  options: OptionName[];
  /** Positional argument, if any (`choices`: the words it accepts, for the parser's message and completion). */
  positional?: { name: string; description: string; choices?: readonly string[] };
  /** A second positional argument (`fleet retry CLUSTER`). */
  second?: { name: string; description: string };
}

const target: OptionName[] = ['runbook', 'params', 'kubeconfig', 'context', 'state-dir', 'api-key-file', 'allow-insecure-http'];
const approvals: OptionName[] = ['approve', 'approve-restart', 'approve-all-restarts', 'skip-restart', 'accept-fix', 'variable'];
const output: OptionName[] = ['non-interactive', 'json'];
const notify: OptionName[] = ['notify', 'notify-command', 'notify-rehearsal', 'notify-allow-http'];

export const commands: CommandSpec[] = [
  {
    name: 'start',
    usage: 'upgrade-pilot start [options]',
    summary: 'New session: walk the upgrade runbook in the TUI (plain lines without a TTY)',
    details: [
      'Creates a session, then follows the runbook step by step: preflight, snapshot, plan, customizations, then per hop draft, publish, reconcile, migrations (diagnosis and recovery when needed), and verification.',
      'Every change waits at a gate. Without a TTY a gate with no --approve* answer stops the run (exit 3).',
    ],
    options: [...target, 'dry-run', ...output, ...approvals, ...notify, 'help'],
  },
  {
    name: 'resume',
    usage: 'upgrade-pilot resume [id] [options]',
    summary: 'Continue a saved session (the latest if no id)',
    details: [
      'Re-checks what completed steps recorded against the live cluster (drift), settles any change that was in flight when the session stopped by reading the real state, then continues where it stopped.',
    ],
    options: ['state-dir', 'api-key-file', 'allow-insecure-http', 'kubeconfig', 'context', ...output, ...approvals, ...notify, 'help'],
    positional: { name: 'id', description: 'Session id (see `upgrade-pilot sessions`)' },
  },
  {
    name: 'rehearse',
    usage: 'upgrade-pilot rehearse [options]',
    summary: 'Same as start --dry-run: all reads real, every change recorded, nothing sent',
    details: ['Ends with a rehearsal report listing each planned call, the customizations, the rules and the pre-checks.'],
    options: [...target, ...output, ...approvals, ...notify, 'help'],
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
    summary: 'Print the customizations to carry into the new pack versions, and the rules they must keep',
    details: ['Read-only. Compares the deployed values with the new reference defaults (3-way when the old defaults are known).'],
    options: [...target, 'json', 'help'],
  },
  {
    name: 'verify',
    usage: 'upgrade-pilot verify [options]',
    summary: 'Run the post-upgrade checks once and print the panels (exit 0 all green, 1 a red panel)',
    details: [
      'Read-only. Exit 4 when the cluster or the API cannot be reached, or did not answer some checks.',
      'With --junit FILE the panels are also written as JUnit XML, so a pipeline shows them as tests (a red panel fails its case).',
      'Judges what the upgrade did: each VMI by its latest migration, and pods and migrations that failed before --since TIME (RFC 3339, or a duration before now such as 2h) as pre-existing, amber with their age. Without --since, the start of the latest session on this cluster in the state dir; with none, every recorded failure is amber with its age. The output says which was used.',
    ],
    options: [...target, 'json', 'junit', 'since', 'help'],
  },
  {
    name: 'report',
    usage: 'upgrade-pilot report [id] [options]',
    summary: 'Write and print the session report (Markdown and JSON in the session folder)',
    details: [
      'Prints the Markdown report (or the JSON one with --json) and writes report.md, report.json and report.html',
      '(one self-contained page, the timeline drawn as a picture) into the session folder.',
      '--timeline prints the timeline as text bars fitted to the terminal (80 columns without one).',
    ],
    options: ['state-dir', 'json', 'timeline', 'help'],
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
    usage: 'upgrade-pilot lab [--scenario NAME | --replay FILE] [--serve] [--state-dir DIR] [--flavor spec|palette] [--server-path PATH]',
    summary: 'Start the embedded lab (a simulated Palette API and cluster) and run the runbook against it',
    details: [
      'Without --serve: starts the lab and opens the TUI on it (this is `npm start`).',
      'With --serve: serves the lab, writes <state-dir>/lab.json (URLs, key, uids, kubeconfig, params file) and runs until Ctrl+C; every command works against it with that params file.',
      "--flavor palette plays a real Palette (new versions by clone, applied to the cluster, node rebuilds approved); --flavor spec plays the spec's service (a publish reaches the cluster by itself).",
      '--replay FILE serves a capture of a real site (see `capture`) instead: its objects, log tails and profile API answers, frozen at the capture, with its clock. plan, diff, verify and rehearse run on it offline. It is read-only: every change is refused (nothing is changed), so `start` against it stops at its first change; without --serve the TUI rehearses on it. --scenario, --flavor, --speed and the sizes do not apply to a replay.',
      "--server-path /k8s/clusters/c-lab serves the Kubernetes API only under that path, as Rancher and other gateways do; anything outside it gets the gateway's 404 and is recorded in the audit log.",
    ],
    lists: [{ title: 'Scenarios', rows: scenarioLines }],
    options: ['scenario', 'replay', 'serve', 'state-dir', 'speed', 'flavor', 'dialect', 'server-path', 'fleet', 'fleet-fail', 'fleet-template', 'fleet-variables', 'vms', 'nodes', 'pods', 'dry-run', ...output, ...approvals, ...notify, 'help'],
  },
  {
    name: 'fleet',
    usage: 'upgrade-pilot fleet plan|start|resume|status|report|retry|skip|stop [CLUSTER] --fleet FILE [options]',
    summary: 'Upgrade many clusters in stages: one plan, shared profile versions made once, stop at the first sign of trouble',
    details: [
      'plan: the stages, each cluster\'s ladder and predicted time (p50/p90), each stage\'s and the fleet\'s against the windows.',
      "start: freeze the target set (template-managed clusters left out), then run each stage (each cluster its own session, journal, gates and report); the approvals given are the run's, journaled, and resume and retry use them again.",
      'A stage that halts (its failure threshold, a gate waiting, a stop) starts no new cluster and watches every applied one to a safe point (rollout reconciled, migrations, restarts by the policy, verification): it ends done or failed with why.',
      "resume: continue after a stop or a crash from the fleet journal; nothing sent twice. Its --approve* flags add to the run's approvals, --revoke GATE takes one away.",
      'retry CLUSTER: run a failed cluster again (it says what it reuses). skip CLUSTER --reason TEXT: leave it out, in the report.',
      'stop: halt the running fleet (applied clusters watched to a safe point); stop --now: stop at once, applied clusters left unwatched (said so). One Ctrl+C is stop --now, a second exits.',
      'status (exit 0 all done, 1 a stage or cluster failed, 3 waiting at a gate or stopped) / report: where every cluster is; the report (Markdown, JSON, JUnit one case per cluster, HTML) in the fleet folder, printed in one --format (md, json, junit, html), or written to --out FILE; --timeline prints its timeline as text bars.',
      "A stage's approval is the gate `stage` (--approve stage); the other --approve* flags answer every cluster's gates.",
      '--notify / --notify-command: a message when a stage starts, waits for its approval or ends, and when the fleet ends.',
    ],
    options: ['fleet', 'reason', 'revoke', 'now', 'format', 'timeline', 'out', 'state-dir', 'api-key-file', 'allow-insecure-http', ...output, ...approvals, ...notify, 'help'],
    positional: { name: 'action', description: 'plan, start, resume, status, report, retry, skip or stop', choices: ['plan', 'start', 'resume', 'status', 'report', 'retry', 'skip', 'stop'] },
    second: { name: 'cluster', description: 'retry and skip: the cluster (its name in the fleet file)' },
  },
  {
    name: 'capture',
    usage: 'upgrade-pilot capture --params FILE --out FILE [options]',
    summary: 'Write what upgrade-pilot reads from a site into one redacted file, to replay it offline (a support case)',
    details: [
      "Read-only. Runs the product's own reads (preflight, plan, diff, verify, diagnosis, a real Palette's cluster reads) and records every answer: the Kubernetes objects, the pod log tails a diagnosis reads, the profile and cluster documents, the pack registry defaults, with a manifest saying what each part is and how it was read.",
      'Secrets are never read; environment values, cloud-init data, credential-looking annotations, arguments and pack values, the API key and the cluster credentials are redacted; no local path is kept. The file (0600) is written whole or not at all, never over another file; over --max-size nothing is written (exit 2). Replay it with `lab --replay FILE`.',
      'It notes where verify judged the site from (the latest session on the cluster in --state-dir), for the replay.',
    ],
    options: ['params', 'out', 'kubeconfig', 'context', 'api-key-file', 'allow-insecure-http', 'runbook', 'state-dir', 'max-size', 'json', 'help'],
  },
  {
    name: 'completion',
    usage: 'upgrade-pilot completion bash|zsh|fish',
    summary: 'Print a shell completion script (commands, options, scenarios, gates, session ids)',
    details: [
      'bash:  source <(upgrade-pilot completion bash)   (or save it in ~/.local/share/bash-completion/completions/upgrade-pilot)',
      'zsh:   source <(upgrade-pilot completion zsh)    (or save it as _upgrade-pilot in a folder of $fpath)',
      'fish:  upgrade-pilot completion fish > ~/.config/fish/completions/upgrade-pilot.fish',
    ],
    options: ['help'],
    positional: { name: 'shell', description: 'bash, zsh or fish', choices: ['bash', 'zsh', 'fish'] },
  },
];

export function findCommand(name: string): CommandSpec | undefined {
  return commands.find((c) => c.name === name);
}
