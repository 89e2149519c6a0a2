/**
 * Reads kubeconfig files, bounded (a FIFO, a device or an oversized file is refused), and merges
 * several (a `$KUBECONFIG` list) the way kubectl merges them: the first file that names a context,
 * a user, a cluster or the current context wins. Only the fields the product uses are kept (when
 * credentials stop working, where the API is); nothing is ever printed.
 */
import { sanitizeText } from '../../text/sanitize.js';
import { FileReadError, readBoundedText } from '../../io/bounded-read.js';
import { LIMITS } from '../../io/limits.js';
import { dirname } from 'node:path';
import { parseYamlValue } from '../../io/yaml-value.js';
import { z } from 'zod';
import { opt } from '../../io/optional-field.js';

const UserSchema = z.looseObject({
  'client-certificate-data': opt(z.string()),
  'client-certificate': opt(z.string()),
  token: opt(z.string()),
  tokenFile: opt(z.string()),
  username: opt(z.string()),
  'auth-provider': opt(z.looseObject({ name: opt(z.string()), config: opt(z.record(z.string(), z.string())) })),
  exec: opt(z.looseObject({ command: opt(z.string()), installHint: opt(z.string()) })),
});
export type KubeUser = z.infer<typeof UserSchema>;

const ContextSchema = z.looseObject({ cluster: opt(z.string()), user: opt(z.string()) });

/** A cluster entry: where the API is (`server`, which may carry a gateway's path) and the CA it is trusted with. */
const ClusterSchema = z.looseObject({
  server: opt(z.string()),
  'certificate-authority-data': opt(z.string()),
  'certificate-authority': opt(z.string()),
  'tls-server-name': opt(z.string()),
});

export const KubeconfigFileSchema = z.looseObject({
  'current-context': opt(z.string()),
  contexts: opt(z.array(z.looseObject({ name: z.string(), context: opt(ContextSchema) }))),
  users: opt(z.array(z.looseObject({ name: z.string(), user: opt(UserSchema) }))),
  clusters: opt(z.array(z.looseObject({ name: z.string(), cluster: opt(ClusterSchema) }))),
});

export interface ResolvedUser {
  /** The file that defined the user (relative credential paths are relative to it). */
  file: string;
  context: string;
  userName: string;
  user: KubeUser;
}

export type ReadResult = { ok: true; value: ResolvedUser } | { ok: false; reason: string };

export type ReadText = (path: string) => string;
const readText: ReadText = (path) => readBoundedText(path, { what: 'cluster access file', maxBytes: LIMITS.kubeconfigFile });

function errnoText(err: unknown): string {
  if (err instanceof FileReadError) return err.reason;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'it does not exist';
  if (code === 'EACCES') return 'permission denied';
  return err instanceof Error ? err.message : String(err);
}

/** One file of a kubeconfig list that could not be used, and why. */
export interface FileProblem {
  file: string;
  /** `missing`: kubectl skips a missing file of a `$KUBECONFIG` list; anything else it would not. */
  kind: 'missing' | 'unusable';
  reason: string;
}

/** The files of a kubeconfig list merged as kubectl merges them: the first file to name an entry or the current context wins. */
export interface MergedKubeconfig {
  current?: string;
  contexts: Map<string, z.infer<typeof ContextSchema>>;
  users: Map<string, { user: KubeUser; file: string }>;
  clusters: Map<string, { cluster: z.infer<typeof ClusterSchema>; file: string }>;
  /** Files read and parsed. */
  readable: string[];
  problems: FileProblem[];
}

export function mergeKubeconfigs(paths: string[], read: ReadText = readText): MergedKubeconfig {
  const out: MergedKubeconfig = { contexts: new Map(), users: new Map(), clusters: new Map(), readable: [], problems: [] };
  for (const path of paths) {
    let text: string;
    try {
      text = read(path);
    } catch (err) {
      const missing = (err instanceof FileReadError && err.problem === 'missing') || (err as NodeJS.ErrnoException).code === 'ENOENT';
      out.problems.push({ file: path, kind: missing ? 'missing' : 'unusable', reason: errnoText(err) });
      continue;
    }
    let doc: unknown;
    try {
      // Repeated keys are kubectl's to decide on (the last one stands, as the yaml package reads them).
      doc = parseYamlValue(text);
    } catch (err) {
      out.problems.push({ file: path, kind: 'unusable', reason: `not valid YAML (${sanitizeText((err as Error).message.split('\n')[0] ?? '', { max: 200 })})` });
      continue;
    }
    const parsed = KubeconfigFileSchema.safeParse(doc ?? {});
    if (!parsed.success) {
      out.problems.push({ file: path, kind: 'unusable', reason: `not a kubeconfig (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})` });
      continue;
    }
    out.readable.push(path);
    const f = parsed.data;
    out.current ??= f['current-context'] || undefined;
    for (const c of f.contexts ?? []) if (!out.contexts.has(c.name)) out.contexts.set(c.name, c.context ?? {});
    for (const u of f.users ?? []) if (!out.users.has(u.name)) out.users.set(u.name, { user: u.user ?? {}, file: path });
    for (const c of f.clusters ?? []) if (!out.clusters.has(c.name)) out.clusters.set(c.name, { cluster: c.cluster ?? {}, file: path });
  }
  return out;
}

/** The problem text of a file that could not be read, as messages word it. */
export const fileProblemText = (p: FileProblem) => `${p.file}: ${p.reason}`;

/** The user of `context` (default: the current context) across `paths`, merged as kubectl does. */
export function readContextUser(paths: string[], context: string | undefined, read: ReadText = readText): ReadResult {
  const merged = mergeKubeconfigs(paths, read);
  if (merged.readable.length === 0) return { ok: false, reason: `cannot read the cluster access file ${merged.problems.map(fileProblemText).join('; ')}` };
  const name = context ?? merged.current;
  if (!name) return { ok: false, reason: `${paths.join(', ')} names no current context and none was chosen (--context or cluster.context in the params file)` };
  const ctx = merged.contexts.get(name);
  if (!ctx) return { ok: false, reason: `the context "${name}" is not in ${paths.join(', ')}` };
  if (!ctx.user) return { ok: false, reason: `the context "${name}" names no user` };
  const user = merged.users.get(ctx.user);
  if (!user) return { ok: false, reason: `the user "${ctx.user}" of context "${name}" is not in ${paths.join(', ')}` };
  return { ok: true, value: { file: user.file, context: name, userName: ctx.user, user: user.user } };
}

export const baseDirOf = (resolved: ResolvedUser): string => dirname(resolved.file);
