/**
 * Gates: the points where a human must say yes. A step describes what it is about to do; the TUI
 * answers with a gate screen, plain mode with the --approve* flags, a rehearsal without asking.
 */
import type { PendingApproval } from '../errors.js';

export type Choice = 'approve' | 'skip' | 'abort';

export interface GateOption {
  choice: Choice;
  label: string;
  /** One-key shortcut shown in brackets. */
  key: string;
}

export interface GateRequest {
  /** Gate name as used by `--approve` (usually the step kind), or `restart` for a VM restart. */
  gate: string;
  /** Unique within the session, e.g. `hop1.draft-addon` or `hop1.recover/restart/ns/vm`. */
  key: string;
  title: string;
  /** What will happen, in lines an operator reads before deciding. */
  lines: string[];
  /** Items the decision covers (profiles, migrations, a VM), shown as a list. */
  items?: string[];
  /** Warnings shown in amber above the options. */
  warnings?: string[];
  /**
   * What happens if the operator stops here instead (the safe option, or quitting): what stays as
   * it is, what goes on without upgrade-pilot (KubeVirt's own work), and what a resume does.
   */
  ifStopped?: string;
  options: GateOption[];
  /** The choice focused by default: always the safe one. */
  safeChoice: Choice;
  /**
   * What to fix first, for a gate whose approval means going on despite a problem (the health
   * gate): where the run stops at it, the hint says this before the approving flag.
   */
  fix?: string;
  /** When set, approving requires typing this text (e.g. the VM's name). */
  confirmText?: string;
  /** For VM restarts: which VM (matched against --approve-restart NS/NAME). */
  subject?: { namespace: string; name: string };
  /**
   * For VM restarts: why only the VM's own name approves it (outside its owner's restart window):
   * --approve-all-restarts does not answer it.
   */
  byNameOnly?: string;
  /**
   * The step's own screen shows and answers this gate (e.g. verification panels with "re-run"),
   * instead of the generic gate box.
   */
  inline?: boolean;
  /**
   * Nothing is approved by answering it (a review, a choice of how to continue): plain mode and
   * rehearsals take the safe choice and go on instead of stopping.
   */
  informational?: boolean;
  /**
   * Fixes the review offers (rules' fixes, by rule id): none is written unless chosen, at the review
   * or with `--accept-fix ID`; a flag answers with `data: {acceptFixes: [ids]}` and choice `skip`
   * (apply and review again).
   */
  offers?: Array<{ id: string; accepted: boolean }>;
  /**
   * Values to type before approving (profile variables): hidden, never part of the answer's data;
   * the TUI hands them to the run's variable values (palette/variable-values.ts).
   */
  secretInputs?: Array<{ name: string; label: string }>;
}

/**
 * Who answered a gate: the operator at the keyboard, a command-line flag, a rehearsal (which sends
 * nothing), or a policy of the tool (an informational gate answered with its safe choice unattended).
 */
export type DecisionSource = 'operator' | 'flag' | 'rehearsal' | 'policy';

export interface Decision {
  choice: Choice | 'pending';
  by: DecisionSource;
  at: string;
  /** Structured answers from an inline gate (e.g. conflict resolutions). */
  data?: unknown;
  /** by `operator`: the key that decided (`y`, `Enter`, `Esc`, `q`), as the operator pressed it. */
  key?: string;
  /** by `flag`: the exact flag that answered, e.g. `--approve draft` or `--skip-restart vms/db-1`. */
  flag?: string;
  /** by `policy` or `rehearsal`: which rule answered, in words. */
  policy?: string;
}

/** One line saying who decided and how: "key y", "flag --approve draft", "policy: ...". */
export function decisionSourceText(d: Pick<Decision, 'by' | 'key' | 'flag' | 'policy'>): string {
  if (d.by === 'operator') return d.key ? `operator, key ${d.key}` : 'operator';
  if (d.by === 'flag') return d.flag ? `flag ${d.flag}` : 'flag';
  if (d.by === 'rehearsal') return `rehearsal${d.policy ? `: ${d.policy}` : ': nothing is sent'}`;
  return `policy${d.policy ? `: ${d.policy}` : ''}`;
}

export type ConfirmFn = (request: GateRequest, signal?: AbortSignal) => Promise<Decision>;

export const approveOrDecline = (approveLabel: string): GateOption[] => [
  { choice: 'approve', label: approveLabel, key: 'y' },
  { choice: 'abort', label: 'Not now (stop here, session saved)', key: 'n' },
];

export const restartOptions: GateOption[] = [
  { choice: 'approve', label: 'Restart this VM', key: 'r' },
  { choice: 'skip', label: 'Skip (leave it on the old launcher, listed as outstanding)', key: 's' },
  { choice: 'abort', label: 'Abort recovery (restart nothing more)', key: 'a' },
];

/** The flag that approves a gate in plain mode. */
export function approvalFlag(request: Pick<GateRequest, 'gate' | 'subject'>): string {
  if (request.gate === 'restart' && request.subject) return `--approve-restart ${request.subject.namespace}/${request.subject.name}`;
  return `--approve ${request.gate}`;
}

/** A gate left unanswered (plain mode without its flag, or `q` at it): what the stop's hint names. */
export function pendingOf(request: Pick<GateRequest, 'gate' | 'title' | 'subject' | 'fix'>): PendingApproval {
  return { gate: request.gate, title: request.title, flag: approvalFlag(request), ...(request.fix ? { fix: request.fix } : {}) };
}
