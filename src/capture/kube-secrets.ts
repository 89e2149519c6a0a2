/**
 * The cluster credentials a capture must never hold, registered with the redactor before the first
 * read: the kubeconfig user's bearer token (inline or from its token file), an OIDC provider's
 * tokens, a client key, a password. kubectl sends them, never the API server's answers, but a
 * server or a webhook that echoes a header would put them into an object; the redactor blanks every
 * form of them wherever they appear. A kubeconfig that cannot be read is kubectl's to report.
 */
import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { readBoundedText } from '../io/bounded-read.js';
import { LIMITS } from '../io/limits.js';
import { kubeconfigPaths, readContextUser } from '../kube/kubeconfig/index.js';
import { baseDirOf } from '../kube/kubeconfig/read.js';
import type { Redactor } from '../session/redact.js';

/**
 * A secret, and the form it takes inside JSON text (a `"` or `\\` in it is escaped there): the
 * capture's text is redacted after it is serialized.
 */
export function addSecret(redactor: Redactor, secret: string): void {
  redactor.add(secret);
  const escaped = JSON.stringify(secret).slice(1, -1);
  if (escaped !== secret) redactor.add(escaped);
}

export function registerKubeSecrets(redactor: Redactor, kubeconfig: string | undefined, context: string | undefined, env: NodeJS.ProcessEnv): void {
  const found = readContextUser(kubeconfigPaths(kubeconfig, env, homedir()), context);
  if (!found.ok) return;
  const user = found.value.user as Record<string, unknown> & typeof found.value.user;
  const add = (v: unknown) => {
    if (typeof v === 'string' && v.trim() !== '') addSecret(redactor, v.trim());
  };
  add(user.token);
  add(user['client-key-data']);
  if (typeof user['client-key-data'] === 'string') add(Buffer.from(user['client-key-data'], 'base64').toString('utf8'));
  add(user.password);
  for (const [k, v] of Object.entries(user['auth-provider']?.config ?? {})) if (/token|secret/i.test(k)) add(v);
  if (user.tokenFile) {
    try {
      const file = isAbsolute(user.tokenFile) ? user.tokenFile : resolve(baseDirOf(found.value), user.tokenFile);
      add(readBoundedText(file, { what: 'token file', maxBytes: LIMITS.credentialFile }));
    } catch {
      // kubectl reports an unreadable token file on the first read
    }
  }
}
