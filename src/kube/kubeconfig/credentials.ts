/**
 * What a kubeconfig user authenticates with, and when each credential stops working as far as the
 * file can tell: a client certificate's NotAfter, a JWT's `exp` (bearer token, token file, OIDC
 * id-token). An exec plugin or an opaque token keeps its lifetime elsewhere: "unknown", with why.
 * Never returns the secret material itself.
 */
import { X509Certificate } from 'node:crypto';
import { FileReadError, readBoundedText } from '../../io/bounded-read.js';
import { LIMITS } from '../../io/limits.js';
import { isAbsolute, resolve } from 'node:path';
import { jwtExpiry } from './jwt.js';
import type { KubeUser } from './read.js';

export interface Credential {
  kind: 'client-certificate' | 'token' | 'oidc' | 'exec' | 'basic';
  /** What it is, for the operator: `client certificate (CN=admin)`, `bearer token (JWT)`. */
  label: string;
  /** When it stops working (ms since the epoch), when the file says. */
  expiresAt?: number;
  /** A JWT without `exp`: it carries no expiry of its own. */
  noExpiry?: boolean;
  /** Why the expiry cannot be known from the file. */
  unknownWhy?: string;
}

export type ReadBytes = (path: string) => string;
const readUtf8: ReadBytes = (path) => readBoundedText(path, { what: 'credential file', maxBytes: LIMITS.credentialFile });

function certificate(pem: string, where: string): Credential {
  try {
    const cert = new X509Certificate(pem);
    const cn = /CN=([^\n,]+)/.exec(cert.subject)?.[1];
    return { kind: 'client-certificate', label: `client certificate${cn ? ` (CN=${cn})` : ''} from ${where}`, expiresAt: Date.parse(cert.validTo) };
  } catch (err) {
    return { kind: 'client-certificate', label: `client certificate from ${where}`, unknownWhy: `it cannot be read as a certificate (${(err as Error).message})` };
  }
}

function bearer(token: string, kind: 'token' | 'oidc', where: string): Credential {
  const exp = jwtExpiry(token);
  if (exp.kind === 'expires') return { kind, label: `${where} (JWT)`, expiresAt: exp.at };
  if (exp.kind === 'no-exp') return { kind, label: `${where} (JWT without exp)`, noExpiry: true };
  return { kind, label: where, unknownWhy: 'it is an opaque token: when it expires is known only to the server that issued it' };
}

export function credentialsOf(user: KubeUser, baseDir: string, read: ReadBytes = readUtf8): Credential[] {
  const out: Credential[] = [];
  const path = (p: string) => (isAbsolute(p) ? p : resolve(baseDir, p));
  const fromFile = (file: string, use: (text: string) => Credential, label: string, kind: Credential['kind']) => {
    try {
      out.push(use(read(path(file))));
    } catch (err) {
      const why = err instanceof FileReadError ? err.reason : ((err as NodeJS.ErrnoException).code ?? (err as Error).message);
      out.push({ kind, label: `${label} ${path(file)}`, unknownWhy: `the file cannot be read (${why})` });
    }
  };

  if (user['client-certificate-data']) out.push(certificate(Buffer.from(user['client-certificate-data'], 'base64').toString('utf8'), 'client-certificate-data'));
  else if (user['client-certificate']) fromFile(user['client-certificate'], (pem) => certificate(pem, path(user['client-certificate']!)), 'client certificate', 'client-certificate');

  if (user.token) out.push(bearer(user.token, 'token', 'bearer token'));
  else if (user.tokenFile) fromFile(user.tokenFile, (text) => bearer(text.trim(), 'token', `bearer token from ${path(user.tokenFile!)}`), 'bearer token', 'token');

  const provider = user['auth-provider'];
  if (provider) {
    const idToken = provider.config?.['id-token'];
    out.push(
      idToken
        ? bearer(idToken, 'oidc', `${provider.name ?? 'auth-provider'} id-token`)
        : { kind: 'oidc', label: `${provider.name ?? 'auth-provider'} auth provider`, unknownWhy: 'it holds no id-token yet: one is fetched when kubectl runs' },
    );
  }
  if (user.exec) {
    out.push({ kind: 'exec', label: `exec plugin ${user.exec.command ?? ''}`.trim(), unknownWhy: 'an exec plugin issues credentials each time kubectl runs: their lifetime is not in the file' });
  }
  if (user.username) out.push({ kind: 'basic', label: `user name and password (${user.username})`, unknownWhy: 'a password has no expiry in the file' });
  return out;
}
