/**
 * Reads the user entry of one kubeconfig context. Several files (a `$KUBECONFIG` list) merge the way
 * kubectl merges them: the first file that names a context, a user or the current context wins.
 * Only the fields that say when credentials stop working are kept; nothing is ever printed.
 */
import { sanitizeText } from '../../text/sanitize.js';
import { FileReadError, readBoundedText } from '../../io/bounded-read.js';
import { LIMITS } from '../../io/limits.js';
import { dirname } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { opt } from '../../io/optional-field.js';

const UserSchema = z.looseObject({
  'client-certificate-data': opt(z.string()),
  'client-certificate': opt(z.string()),
  token: opt(z.string()),
  tokenFile: opt(z.string()),
  username: opt(z.string()),
  'auth-provider': opt(z.looseObject({ name: opt(z.string()), config: opt(z.record(z.string(), z.string())) })),
  exec: opt(z.looseObject({ command: opt(z.string()) })),
});
export type KubeUser = z.infer<typeof UserSchema>;

const ContextSchema = z.looseObject({ cluster: opt(z.string()), user: opt(z.string()) });

export const KubeconfigFileSchema = z.looseObject({
  'current-context': opt(z.string()),
  contexts: opt(z.array(z.looseObject({ name: z.string(), context: opt(ContextSchema) }))),
  users: opt(z.array(z.looseObject({ name: z.string(), user: opt(UserSchema) }))),
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

/** The user of `context` (default: the current context) across `paths`, merged as kubectl does. */
export function readContextUser(paths: string[], context: string | undefined, read: ReadText = readText): ReadResult {
  let current: string | undefined;
  const contexts = new Map<string, z.infer<typeof ContextSchema>>();
  const users = new Map<string, { user: KubeUser; file: string }>();
  let readable = 0;
  const problems: string[] = [];
  for (const path of paths) {
    let text: string;
    try {
      text = read(path);
    } catch (err) {
      problems.push(`${path}: ${errnoText(err)}`);
      continue;
    }
    let doc: unknown;
    try {
      // uniqueKeys off: the library's check is quadratic in the keys of a mapping (kubectl decides on duplicates).
      doc = parse(text, { uniqueKeys: false });
    } catch (err) {
      problems.push(`${path}: not valid YAML (${sanitizeText((err as Error).message.split('\n')[0] ?? '', { max: 200 })})`);
      continue;
    }
    const parsed = KubeconfigFileSchema.safeParse(doc ?? {});
    if (!parsed.success) {
      problems.push(`${path}: not a kubeconfig (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})`);
      continue;
    }
    readable++;
    const f = parsed.data;
    current ??= f['current-context'] || undefined;
    for (const c of f.contexts ?? []) if (!contexts.has(c.name)) contexts.set(c.name, c.context ?? {});
    for (const u of f.users ?? []) if (!users.has(u.name)) users.set(u.name, { user: u.user ?? {}, file: path });
  }
  if (readable === 0) return { ok: false, reason: `cannot read the cluster access file ${problems.join('; ')}` };
  const name = context ?? current;
  if (!name) return { ok: false, reason: `${paths.join(', ')} names no current context and none was chosen (--context or cluster.context in the params file)` };
  const ctx = contexts.get(name);
  if (!ctx) return { ok: false, reason: `the context "${name}" is not in ${paths.join(', ')}` };
  if (!ctx.user) return { ok: false, reason: `the context "${name}" names no user` };
  const user = users.get(ctx.user);
  if (!user) return { ok: false, reason: `the user "${ctx.user}" of context "${name}" is not in ${paths.join(', ')}` };
  return { ok: true, value: { file: user.file, context: name, userName: ctx.user, user: user.user } };
}

export const baseDirOf = (resolved: ResolvedUser): string => dirname(resolved.file);
