/**
 * What a command is given: the command line's options after validation, and its positionals.
 * cli/args.ts parses and checks them; they are declared here, below the command line, so that a
 * command takes them without reaching up into cli/.
 */
import type { ScenarioName } from '../lab/scenario-catalog.js';
import type { SinceArg } from '../steps/verify/since.js';

export const flavors = ['spec', 'palette'] as const;
/** `fleet report --format`. */
export const reportFormats = ['md', 'json', 'junit', 'html'] as const;

/**
 * The options after validation (cli/args.ts). Validation is written out by hand (not with zod)
 * because it runs before anything is on the screen: loading zod's 0.6 MB costs the first frame
 * ~40 ms (BENCHMARKS.md, "first TUI frame"); the commands load it when they read files.
 */
export interface CliOptions {
  runbook?: string;
  params?: string;
  kubeconfig?: string;
  context?: string;
  'dry-run': boolean;
  'non-interactive': boolean;
  json: boolean;
  /** Gate names, split at commas. */
  approve: string[];
  'approve-restart': string[];
  'approve-all-restarts': boolean;
  'skip-restart': string[];
  /** Rule ids whose offered fix goes into the drafts. */
  'accept-fix': string[];
  /** Where each profile variable's value comes from. */
  variable: Array<{ name: string; from: { env: string } | { file: string } }>;
  notify: string[];
  'notify-command'?: string;
  'notify-rehearsal': boolean;
  'notify-allow-http': boolean;
  junit?: string;
  /** `verify --since`: a time, or a duration before now. */
  since?: SinceArg;
  'state-dir'?: string;
  'api-key-file'?: string;
  'allow-insecure-http': boolean;
  scenario?: ScenarioName;
  serve: boolean;
  'server-path'?: string;
  speed?: number;
  flavor?: (typeof flavors)[number];
  dialect?: (typeof flavors)[number];
  vms?: number;
  nodes?: number;
  pods?: number;
  /** `capture`, `fleet report`: the file to write. */
  out?: string;
  /** `fleet report`: which report to print or write. */
  format?: (typeof reportFormats)[number];
  /** `report`, `fleet report`: print the timeline as text bars. */
  timeline: boolean;
  /** `capture`: the cap on the capture's uncompressed size, in bytes. */
  'max-size'?: number;
  /** `lab`: a capture to serve instead of a scenario. */
  replay?: string;
  /** `fleet`: the fleet file; `lab`: the number of clusters (checked by the lab command). */
  fleet?: string;
  /** `lab --fleet`: `NAME:how` faults. */
  'fleet-fail': string[];
  /** `lab --fleet`: clusters a cluster template manages. */
  'fleet-template': string[];
  /** `lab --fleet`: the shared add-on profile holds the ingress address as a profile variable, each cluster its own. */
  'fleet-variables': boolean;
  /** `fleet skip`: why. */
  reason?: string;
  /** `fleet resume|retry`: approvals of the run taken away (gate names, `restarts`, or a VM's NS/NAME). */
  revoke: string[];
  /** `fleet stop`: stop at once, leaving applied clusters unwatched (said so), instead of carrying them to a safe point. */
  now: boolean;
  help: boolean;
}

/** A command's call: its options and positionals (cli/args.ts adds which command it is). */
export interface CommandCall {
  options: CliOptions;
  positional?: string;
  /** The second positional (`fleet retry CLUSTER`). */
  second?: string;
}
