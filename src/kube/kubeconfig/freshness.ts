/**
 * Is the cluster access file fresh enough for the upgrade (spec 9.1.5: "they expire")? Red when a
 * credential expires before the planned window ends. When a user carries several credentials the
 * earliest known expiry decides: which one the server accepts cannot be seen from here, and an
 * access file that half-expires in the middle of an upgrade is exactly what this check prevents.
 */
import { homedir } from 'node:os';
import { FRESH_ACCESS_HINT } from '../errors.js';
import { credentialsOf, type Credential, type ReadBytes } from './credentials.js';
import { kubeconfigPaths } from './locate.js';
import { baseDirOf, readContextUser, type ReadText } from './read.js';
import { formatDuration } from '../../text/duration.js';

const span = (ms: number) => formatDuration(ms, 'rough');

export interface FreshnessInput {
  /** `--kubeconfig` / the params file; undefined = `$KUBECONFIG`, then `~/.kube/config`. */
  kubeconfig: string | undefined;
  /** `--context` / the params file; undefined = the file's current context. */
  context: string | undefined;
  env: NodeJS.ProcessEnv;
  home?: string;
  now: number;
  /** How long the upgrade may take (params `window`). */
  windowMs: number;
  read?: ReadText & ReadBytes;
}

export interface Freshness {
  status: 'pass' | 'warn' | 'fail';
  summary: string;
  lines: string[];
  hint?: string;
  /** Where the credentials came from (never the credentials). */
  file?: string;
  context?: string;
  user?: string;
  /** The earliest known expiry, ISO. */
  expiresAt?: string;
  credentials: Array<Pick<Credential, 'kind' | 'label'> & { expiresAt?: string; unknownWhy?: string }>;
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

export function judgeCredentials(credentials: Credential[], now: number, windowMs: number): Pick<Freshness, 'status' | 'summary' | 'lines' | 'hint' | 'expiresAt'> {
  const lines = credentials.map((c) =>
    c.expiresAt !== undefined ? `${c.label}: valid until ${iso(c.expiresAt)}` : c.noExpiry ? `${c.label}: carries no expiry` : `${c.label}: expiry unknown, ${c.unknownWhy ?? 'not in the file'}`,
  );
  const window = span(windowMs);
  const known = credentials.filter((c) => c.expiresAt !== undefined).sort((a, b) => a.expiresAt! - b.expiresAt!);
  const first = known[0];
  if (first) {
    const at = first.expiresAt!;
    if (at <= now) {
      return { status: 'fail', summary: `The ${first.label} expired at ${iso(at)} (${span(now - at)} ago).`, lines, hint: FRESH_ACCESS_HINT, expiresAt: iso(at) };
    }
    if (at < now + windowMs) {
      return {
        status: 'fail',
        summary: `The ${first.label} expires at ${iso(at)}, in ${span(at - now)}: before the planned window of ${window} ends.`,
        lines,
        hint: FRESH_ACCESS_HINT,
        expiresAt: iso(at),
      };
    }
    return { status: 'pass', summary: `Valid for ${span(at - now)} (until ${iso(at)}), longer than the planned window of ${window}.`, lines, expiresAt: iso(at) };
  }
  if (credentials.length > 0 && credentials.every((c) => c.noExpiry)) {
    return { status: 'pass', summary: `The ${credentials[0]!.label} carries no expiry.`, lines };
  }
  const unknown = credentials.find((c) => c.unknownWhy);
  if (!unknown) return { status: 'fail', summary: 'The access file holds no credentials for this context.', lines, hint: FRESH_ACCESS_HINT };
  return {
    status: 'warn',
    summary: `Cannot tell when the access file stops working: the ${unknown.label}: ${unknown.unknownWhy}.`,
    lines,
    hint: `Make sure it stays valid for the planned window (${window}); if in doubt, fetch a fresh access file before starting.`,
  };
}

export function accessFreshness(input: FreshnessInput): Freshness {
  const paths = kubeconfigPaths(input.kubeconfig, input.env, input.home ?? homedir());
  const resolved = readContextUser(paths, input.context, input.read);
  if (!resolved.ok) {
    return { status: 'fail', summary: `The cluster access file cannot be used: ${resolved.reason}.`, lines: [], hint: FRESH_ACCESS_HINT, file: paths.join(', '), credentials: [] };
  }
  const r = resolved.value;
  const credentials = credentialsOf(r.user, baseDirOf(r), input.read);
  const verdict = judgeCredentials(credentials, input.now, input.windowMs);
  return {
    ...verdict,
    file: r.file,
    context: r.context,
    user: r.userName,
    credentials: credentials.map((c) => ({
      kind: c.kind,
      label: c.label,
      ...(c.expiresAt !== undefined ? { expiresAt: iso(c.expiresAt) } : {}),
      ...(c.unknownWhy ? { unknownWhy: c.unknownWhy } : {}),
    })),
  };
}
