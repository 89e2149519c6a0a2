import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { generateCertificate } from '../../../src/lab/cert.js';
import { credentialsOf } from '../../../src/kube/kubeconfig/credentials.js';
import { accessFreshness, judgeCredentials } from '../../../src/kube/kubeconfig/freshness.js';
import { jwtExpiry } from '../../../src/kube/kubeconfig/jwt.js';
import { kubeconfigPaths } from '../../../src/kube/kubeconfig/locate.js';
import { readContextUser } from '../../../src/kube/kubeconfig/read.js';
import { FRESH_ACCESS_HINT } from '../../../src/kube/errors.js';
import { HOUR } from './support.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const WINDOW = 4 * HOUR;
const b64url = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const jwt = (payload: Record<string, unknown>) => `${b64url({ alg: 'RS256', kid: 'k' })}.${b64url(payload)}.c2lnbmF0dXJl`;
const config = (users: Array<{ name: string; user: Record<string, unknown> }>, current = 'ctx', contexts = [{ name: 'ctx', context: { cluster: 'c', user: users[0]?.name ?? 'u' } }]) =>
  stringify({ apiVersion: 'v1', kind: 'Config', clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:6443' } }], users, contexts, 'current-context': current });

const scratch = mkdtempSync(join(tmpdir(), 'up6-kubeconfig-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const folder = (name: string) => mkdtempSync(join(scratch, `${name}-`));

let certPem = '';
let certNotAfter = 0;
beforeAll(async () => {
  certNotAfter = Math.floor((Date.now() + 10 * 24 * HOUR) / 1000) * 1000;
  certPem = (await generateCertificate({ commonName: 'kubernetes-admin', notAfter: new Date(certNotAfter) })).certPem;
});

describe('jwtExpiry', () => {
  it.each([
    ['a JWT with exp', jwt({ sub: 'a', exp: 1_800_000_000 }), { kind: 'expires', at: 1_800_000_000_000 }],
    ['a JWT without exp', jwt({ sub: 'system:serviceaccount:kube-system:admin' }), { kind: 'no-exp' }],
    ['an opaque token', 'lab-3f9c2a7e0b1d4c5e', { kind: 'not-jwt' }],
    ['three parts that are not JSON', 'abc.def.ghi', { kind: 'not-jwt' }],
    ['a JSON array payload', `${b64url({})}.${b64url([1])}.x`, { kind: 'not-jwt' }],
    ['exp as a string', jwt({ exp: '1800000000' }), { kind: 'no-exp' }],
  ])('%s', (_name, token, expected) => {
    expect(jwtExpiry(token)).toEqual(expected);
  });
});

describe('credentialsOf', () => {
  it('reads a client certificate from client-certificate-data and from a file relative to the kubeconfig', () => {
    const dir = folder('creds');
    writeFileSync(join(dir, 'admin.crt'), certPem);
    const fromData = credentialsOf({ 'client-certificate-data': Buffer.from(certPem).toString('base64') }, dir);
    expect(fromData).toEqual([{ kind: 'client-certificate', label: 'client certificate (CN=kubernetes-admin) from client-certificate-data', expiresAt: certNotAfter }]);
    const fromFile = credentialsOf({ 'client-certificate': 'admin.crt' }, dir);
    expect(fromFile[0]).toMatchObject({ kind: 'client-certificate', expiresAt: certNotAfter, label: `client certificate (CN=kubernetes-admin) from ${join(dir, 'admin.crt')}` });
  });

  it('reads the exp of a bearer token, a token file and an OIDC id-token; never returns the token', () => {
    const dir = folder('creds');
    const token = jwt({ exp: 1_900_000_000 });
    writeFileSync(join(dir, 'token'), `${token}\n`);
    const creds = [
      ...credentialsOf({ token }, dir),
      ...credentialsOf({ tokenFile: 'token' }, dir),
      ...credentialsOf({ 'auth-provider': { name: 'oidc', config: { 'id-token': jwt({ exp: 1_700_000_000 }), 'refresh-token': 'r' } } }, dir),
    ];
    expect(creds.map((c) => [c.kind, c.expiresAt])).toEqual([
      ['token', 1_900_000_000_000],
      ['token', 1_900_000_000_000],
      ['oidc', 1_700_000_000_000],
    ]);
    expect(JSON.stringify(creds)).not.toContain(token);
  });

  it('says why an exec plugin, an opaque token, a missing token file or a bad certificate have no known expiry', () => {
    const creds = credentialsOf(
      { exec: { command: 'kubelogin', apiVersion: 'client.authentication.k8s.io/v1' }, token: 'opaque-123', 'client-certificate-data': Buffer.from('not a cert').toString('base64') },
      '/nowhere',
    );
    expect(creds.map((c) => [c.kind, c.unknownWhy?.split(' (')[0]])).toEqual([
      ['client-certificate', 'it cannot be read as a certificate'],
      ['token', 'it is an opaque token: when it expires is known only to the server that issued it'],
      ['exec', 'an exec plugin issues credentials each time kubectl runs: their lifetime is not in the file'],
    ]);
    expect(credentialsOf({ tokenFile: 'missing' }, '/nowhere')[0]).toMatchObject({ kind: 'token', unknownWhy: 'the file cannot be read (it does not exist)' });
    expect(credentialsOf({ 'auth-provider': { name: 'oidc', config: {} } }, '/')[0]!.unknownWhy).toMatch(/holds no id-token yet/);
  });
});

describe('judgeCredentials', () => {
  const cert = (at: number) => ({ kind: 'client-certificate' as const, label: 'client certificate', expiresAt: at });
  const opaque = { kind: 'token' as const, label: 'bearer token', unknownWhy: 'it is an opaque token' };
  it.each([
    ['expired', [cert(NOW - 2 * HOUR)], 'fail', /^The client certificate expired at 2026-03-01T10:00:00Z \(2h00m ago\)\.$/],
    ['expires within the window', [cert(NOW + 3 * HOUR)], 'fail', /^The client certificate expires at 2026-03-01T15:00:00Z, in 3h00m: before the planned window of 4h00m ends\.$/],
    ['expires just after the window', [cert(NOW + 4 * HOUR + 60_000)], 'pass', /^Valid for 4h01m/],
    ['the earliest of several decides', [cert(NOW + 90 * 24 * HOUR), { kind: 'oidc' as const, label: 'oidc id-token (JWT)', expiresAt: NOW + HOUR }], 'fail', /^The oidc id-token \(JWT\) expires/],
    ['a known expiry beside an opaque token', [cert(NOW + 90 * 24 * HOUR), opaque], 'pass', /^Valid for 90d/],
    ['only an opaque token', [opaque], 'warn', /^Cannot tell when the access file stops working: the bearer token: it is an opaque token\.$/],
    ['a JWT without exp', [{ kind: 'token' as const, label: 'bearer token (JWT without exp)', noExpiry: true }], 'pass', /carries no expiry/],
    ['no credentials at all', [], 'fail', /holds no credentials/],
  ])('%s', (_name, creds, status, summary) => {
    const v = judgeCredentials(creds, NOW, WINDOW);
    expect(v.status).toBe(status);
    expect(v.summary).toMatch(summary);
    if (status === 'fail') expect(v.hint).toBe(FRESH_ACCESS_HINT);
  });
});

describe('finding the user of a context', () => {
  const dir = folder('files');
  const a = join(dir, 'a.yaml');
  const b = join(dir, 'b.yaml');
  writeFileSync(a, config([{ name: 'alice', user: { token: 'a' } }], 'ctx'));
  writeFileSync(
    b,
    config([{ name: 'alice', user: { token: 'shadowed' } }, { name: 'bob', user: { token: 'b' } }], 'other', [
      { name: 'ctx', context: { cluster: 'c', user: 'bob' } },
      { name: 'ops', context: { cluster: 'c', user: 'bob' } },
    ]),
  );

  it('finds the file kubectl would use: explicit, then $KUBECONFIG (a list), then ~/.kube/config', () => {
    expect(kubeconfigPaths('/x/config', { KUBECONFIG: a }, '/home/op')).toEqual(['/x/config']);
    expect(kubeconfigPaths(undefined, { KUBECONFIG: `${a}::${b}` }, '/home/op')).toEqual([a, b]);
    expect(kubeconfigPaths(undefined, {}, '/home/op')).toEqual(['/home/op/.kube/config']);
  });

  it('merges several files as kubectl does: the first to name a context, a user or the current context wins', () => {
    const current = readContextUser([a, b], undefined);
    expect(current).toEqual({ ok: true, value: { file: a, context: 'ctx', userName: 'alice', user: { token: 'a' } } });
    const chosen = readContextUser([a, b], 'ops');
    expect(chosen.ok && chosen.value).toMatchObject({ file: b, context: 'ops', userName: 'bob' });
  });

  it('explains what is missing', () => {
    expect(readContextUser([a], 'nope')).toEqual({ ok: false, reason: `the context "nope" is not in ${a}` });
    expect(readContextUser([join(dir, 'missing')], undefined)).toEqual({ ok: false, reason: `cannot read the cluster access file ${join(dir, 'missing')}: it does not exist` });
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'users: [\n');
    expect(readContextUser([bad], undefined).ok).toBe(false);
  });

  it('turns an unusable file into a red verdict with the fresh-file advice', () => {
    const v = accessFreshness({ kubeconfig: join(dir, 'missing'), context: undefined, env: {}, now: NOW, windowMs: WINDOW });
    expect(v.status).toBe('fail');
    expect(v.summary).toMatch(/^The cluster access file cannot be used: cannot read the cluster access file .*missing: it does not exist\.$/);
    expect(v.hint).toBe(FRESH_ACCESS_HINT);
  });

  it('reads the user of the chosen context through $KUBECONFIG', () => {
    const c = join(dir, 'c.yaml');
    writeFileSync(c, config([{ name: 'ci', user: { exec: { command: 'aws' } } }]));
    const v = accessFreshness({ kubeconfig: undefined, context: undefined, env: { KUBECONFIG: c }, now: NOW, windowMs: WINDOW });
    expect(v).toMatchObject({ status: 'warn', file: c, context: 'ctx', user: 'ci' });
    expect(v.summary).toMatch(/the exec plugin aws: an exec plugin issues credentials/);
  });
});
