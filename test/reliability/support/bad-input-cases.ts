/**
 * The bad-input corpus (shared by bad-input.test.ts, a sample in `npm test`, and bad-input.faults.ts,
 * all of it): wrong flags and values, broken or wrong params and runbook files, bad credentials and
 * access files, unreadable or impossible places, files that are not files or are far too large,
 * YAML alias bombs, damaged journals, malformed and hostile answers from the profile API (a stub in
 * front of the lab rewrites them), and params that would send the key elsewhere. Every case runs
 * the real binary (`node dist/cli.js`) as a child process against one lab, and must end with a
 * message that says what is wrong and where, exit 2 (bad input) or 4 (environment), no stack trace,
 * no API key and no raw control character in the output - and the lab's audit must show no
 * mutating call at all once the corpus has run.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editJson, paletteProxy, type PaletteProxy, type Rewrite } from './palette-proxy.js';
import { APPROVE_ALL, RAW_CONTROL, ROOT, runTool, serveLab, sessionIds, STACK_TRACE, tempDir, type ServedLab, type ToolResult } from './processes.js';

export interface Ctx {
  lab: ServedLab;
  dir: string;
  key: string;
  /** A server on another port that must never be asked anything (where a leaked key would go). */
  trap: string;
}

interface Invocation {
  args: string[];
  env?: NodeJS.ProcessEnv;
  uid?: number;
}

export interface Case {
  name: string;
  exit: 2 | 4;
  /** The `error:` line: what is wrong. */
  message: RegExp;
  /** Where: the file (and position), the flag, the API call, the path the message must name. */
  where: (ctx: Ctx, inv: Invocation) => string;
  run: (ctx: Ctx) => Invocation | Promise<Invocation>;
  /**
   * Bounds the run must keep: its wall time and the tool's peak resident memory; `noKubectl`: no
   * kubectl (nor the read proxy's shell) may even start, as for a kubeconfig kubectl would read
   * without end.
   */
  bounds?: { ms: number; rssMiB: number; noKubectl?: boolean };
}

/** Node's start and the tool's load on a busy shared machine (the corpus runs its cases at once), on top of a case's own bound. */
const STARTUP_SLACK_MS = 60_000;

let n = 0;
/** A file in the corpus folder. */
const file = (ctx: Ctx, name: string, text: string): string => {
  const path = join(ctx.dir, `${++n}-${name}`);
  writeFileSync(path, text);
  return path;
};
const labParams = (ctx: Ctx) => readFileSync(ctx.lab.json.params, 'utf8');
/** The lab's params with one textual change (so positions stay predictable). */
const paramsText = (ctx: Ctx, from: RegExp, to: string): string => {
  const text = labParams(ctx);
  if (!from.test(text)) throw new Error(`corpus set-up: ${from} not in the lab params`);
  return file(ctx, 'params.yaml', text.replace(from, to));
};
/** The lab's params edited as data. `site: true` drops the lab clock (as a real site's params). */
const paramsData = (ctx: Ctx, edit: (doc: Record<string, any>) => void, opts: { site?: boolean } = {}): string => {
  const doc = parse(labParams(ctx)) as Record<string, any>;
  if (opts.site) delete doc.extra;
  edit(doc);
  return file(ctx, 'params.yaml', stringify(doc));
};
/** The lab's site with reference profiles (its params-references.yaml) instead of the registry, one version left out. */
const withReferencesBut = (ctx: Ctx, doc: Record<string, any>, version: string): void => {
  const refs = (parse(readFileSync(ctx.lab.json.paramsWithReferences, 'utf8')) as { references: Array<{ version: string }> }).references;
  doc.references = refs.filter((r) => r.version !== version);
  delete doc.moveWith;
};
const bundled = () => readFileSync(join(ROOT, 'runbooks/vmo-upgrade.yaml'), 'utf8');
const runbookText = (ctx: Ctx, from: RegExp | string, to: string): string => {
  const text = bundled();
  const changed = text.replace(from, to);
  if (changed === text) throw new Error(`corpus set-up: ${String(from)} not in the runbook`);
  return file(ctx, 'runbook.yaml', changed);
};
const key = (ctx: Ctx) => ({ UPGRADE_PILOT_API_KEY: ctx.key });
const start = (ctx: Ctx, params: string, extra: string[] = []): Invocation => ({
  args: ['start', '--params', params, '--non-interactive', ...APPROVE_ALL, '--state-dir', tempDir('corpus-state'), ...extra],
  env: key(ctx),
});
const at = (path: string) => () => path;
const fileAt = (inv: Invocation, flag: string) => inv.args[inv.args.indexOf(flag) + 1]!;
const positionIn = (flag: string) => (_: Ctx, inv: Invocation) => `${fileAt(inv, flag)}:`;

/** The lab's kubeconfig edited as data. */
const kubeconfigWith = (ctx: Ctx, edit: (doc: Record<string, any>) => void): string => {
  const doc = parse(readFileSync(ctx.lab.json.kubeconfig, 'utf8')) as Record<string, any>;
  edit(doc);
  return file(ctx, 'kubeconfig', stringify(doc));
};
/** A plain HTTP server, and one that accepts connections and never says a word: neither is a Kubernetes API. */
let plainHttpPort = 0;
let silentPort = 0;
const notApis: Array<{ close(): void; closeAllConnections?(): void }> = [];
async function startNotApis(): Promise<void> {
  const plain = createServer((_req, res) => res.end('hello'));
  const silent = createNetServer(() => undefined);
  await new Promise<void>((r) => plain.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  plainHttpPort = (plain.address() as AddressInfo).port;
  silentPort = (silent.address() as AddressInfo).port;
  notApis.push(plain, { close: () => silent.close(), closeAllConnections: () => undefined });
  silent.on('connection', (socket) => notApisSockets.push(socket));
}
const notApisSockets: Array<{ destroy(): void }> = [];

/** Proxies made for malformed-answer cases, closed at the end. */
const proxies: PaletteProxy[] = [];
async function viaStub(ctx: Ctx, rewrite: Rewrite, edit?: (doc: Record<string, any>) => void): Promise<Invocation> {
  const proxy = await paletteProxy(ctx.lab.json.paletteUrl);
  proxies.push(proxy);
  proxy.setRewrite(rewrite);
  if (edit) {
    return start(ctx, paramsData(ctx, (d) => {
      d.palette.baseUrl = proxy.url;
      edit(d);
    }, { site: true }));
  }
  // The lab's clock is read through the stub too: it must be on the profile API's origin.
  return start(ctx, file(ctx, 'params.yaml', labParams(ctx).replace(/^ {2}baseUrl: .*$/m, `  baseUrl: ${proxy.url}`).replace(/labClockUrl: http:\/\/[^/]+/, `labClockUrl: ${proxy.url}`)));
}

/** A FIFO in the corpus folder (reading it would wait forever for a writer). */
const fifo = (ctx: Ctx, name: string): string => {
  const path = join(ctx.dir, `${++n}-${name}`);
  execFileSync('mkfifo', [path]);
  return path;
};
const link = (ctx: Ctx, name: string, target: string): string => {
  const path = join(ctx.dir, `${++n}-${name}`);
  symlinkSync(target, path);
  return path;
};
/** A file of `bytes` bytes starting with `head`. */
const bigFile = (ctx: Ctx, name: string, bytes: number, head: string): string => {
  const path = join(ctx.dir, `${++n}-${name}`);
  writeFileSync(path, head);
  appendFileSync(path, Buffer.alloc(Math.max(0, bytes - Buffer.byteLength(head)), 'a'));
  return path;
};
/** Nine levels of nine aliases: 387 million values from ten lines. */
function aliasBomb(key: string, indent: string): string {
  const names = 'abcdefghi';
  const lines = [`${indent}${key}0: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]`];
  for (let i = 1; i < names.length; i++) lines.push(`${indent}${key}${i}: &${names[i]} [${Array(9).fill(`*${names[i - 1]}`).join(',')}]`);
  return `${lines.join('\n')}\n`;
}
/** A session stopped at its first gate, then one record appended to its journal by hand. */
async function damagedSession(ctx: Ctx, record: Record<string, unknown> | string): Promise<Invocation> {
  const state = tempDir('corpus-damaged');
  const first = await runTool(['start', '--params', ctx.lab.json.params, '--non-interactive', '--state-dir', state], { env: key(ctx) });
  if (first.code !== 3) throw new Error(`corpus set-up: the first run should stop at a gate (exit 3): ${first.code}\n${first.stderr}`);
  const id = sessionIds(state)[0]!;
  const journal = join(state, 'sessions', id, 'journal.ndjson');
  const seq = readFileSync(journal, 'utf8').trim().split('\n').length + 1;
  appendFileSync(journal, `${typeof record === 'string' ? record : JSON.stringify({ seq, event: record })}\n`);
  writeFileSync(join(state, 'sessions', id, 'state.json'), '{}'); // the snapshot is a cache: make the journal count
  return { args: ['resume', '--non-interactive', '--state-dir', state], env: key(ctx) };
}
const addonPath = (ctx: Ctx) => `/v1/clusterprofiles/${ctx.lab.json.profileUids.addon}`;
const isAddon = (ctx: Ctx) => (path: string) => path === addonPath(ctx);
const addonCall = (ctx: Ctx) => `GET ${addonPath(ctx)}`;

export const CASES: Case[] = [
  // ---- the command line
  { name: 'unknown command', exit: 2, message: /Unknown command "launch"/, where: at('launch'), run: () => ({ args: ['launch'] }) },
  { name: 'unknown option', exit: 2, message: /Unknown option --frobnicate for `start`/, where: at('--frobnicate'), run: () => ({ args: ['start', '--frobnicate'] }) },
  { name: 'unknown gate', exit: 2, message: /--approve does not know the gate "everything"/, where: at('--approve'), run: () => ({ args: ['start', '--approve', 'everything'] }) },
  { name: 'restart approved as a gate', exit: 2, message: /VM restarts are approved per VM/, where: at('--approve-restart'), run: () => ({ args: ['start', '--approve', 'restart'] }) },
  { name: 'restart approval without a namespace', exit: 2, message: /--approve-restart takes NAMESPACE\/NAME of a VM, got "just-a-name"/, where: at('--approve-restart'), run: () => ({ args: ['start', '--approve-restart', 'just-a-name'] }) },
  { name: 'the key as a flag', exit: 2, message: /--api-key is not accepted: a key on the command line shows in the process list/, where: at('--api-key'), run: (c) => ({ args: ['start', '--api-key', c.key] }) },
  { name: 'unknown lab scenario', exit: 2, message: /--scenario must be one of .*got "chaos"/, where: at('--scenario'), run: () => ({ args: ['lab', '--scenario', 'chaos'] }) },
  { name: 'lab size not a number', exit: 2, message: /--vms takes a whole number/, where: at('--vms'), run: () => ({ args: ['lab', '--vms', 'many'] }) },
  { name: 'lab speed out of range', exit: 2, message: /--speed must be between 0 and 100000/, where: at('--speed'), run: () => ({ args: ['lab', '--speed', '0'] }) },
  { name: 'lab speed not a number', exit: 2, message: /--speed takes a number/, where: at('--speed'), run: () => ({ args: ['lab', '--speed', 'fast'] }) },
  { name: 'unknown dialect', exit: 2, message: /--dialect must be spec or palette, got "klingon"/, where: at('--dialect'), run: () => ({ args: ['lab', '--dialect', 'klingon'] }) },
  { name: 'unknown flavor', exit: 2, message: /--flavor must be spec or palette, got "klingon"/, where: at('--flavor'), run: () => ({ args: ['lab', '--flavor', 'klingon'] }) },
  { name: 'option without its value', exit: 2, message: /--runbook needs a value \(FILE\)/, where: at('--runbook'), run: () => ({ args: ['start', '--runbook'] }) },
  { name: 'a switch given a value', exit: 2, message: /--json is a switch and takes no value/, where: at('--json'), run: () => ({ args: ['start', '--json=yes'] }) },
  { name: 'unexpected argument', exit: 2, message: /Unexpected argument "extra" for `sessions`/, where: at('extra'), run: () => ({ args: ['sessions', 'extra'] }) },
  { name: 'a session id that is a path', exit: 2, message: /"\.\.\/\.\.\/etc" is not a session id/, where: at('../../etc'), run: () => ({ args: ['resume', '../../etc', '--state-dir', tempDir('corpus-state')] }) },
  { name: 'an unknown session id', exit: 2, message: /No session 20200101-000000-abcdef in /, where: (_, inv) => fileAt(inv, '--state-dir'), run: () => {
    const state = tempDir('corpus-state');
    mkdirSync(join(state, 'sessions'), { recursive: true });
    return { args: ['resume', '20200101-000000-abcdef', '--state-dir', state] };
  } },
  { name: 'resume with no sessions', exit: 2, message: /There are no saved sessions in /, where: (_, inv) => fileAt(inv, '--state-dir'), run: () => ({ args: ['resume', '--state-dir', tempDir('corpus-state')] }) },
  { name: 'report with no sessions', exit: 2, message: /There are no saved sessions in /, where: (_, inv) => fileAt(inv, '--state-dir'), run: () => ({ args: ['report', '--state-dir', tempDir('corpus-state')] }) },
  { name: 'verify without params', exit: 2, message: /`verify` needs the site parameters/, where: at('--params'), run: () => ({ args: ['verify'] }) },
  { name: 'plan without params', exit: 2, message: /`plan` needs the site parameters/, where: at('--params'), run: () => ({ args: ['plan'] }) },

  // ---- the params file
  { name: 'params file missing', exit: 2, message: /Cannot read the params file \/nonexistent\/params\.yaml: it does not exist/, where: at('/nonexistent/params.yaml'), run: (c) => start(c, '/nonexistent/params.yaml') },
  { name: 'params not YAML', exit: 2, message: /the params file is not valid YAML/, where: positionIn('--params'), run: (c) => start(c, file(c, 'params.yaml', 'palette: [unclosed\n')) },
  { name: 'params a list', exit: 2, message: /\(top level\): expected object, got a list/, where: positionIn('--params'), run: (c) => start(c, file(c, 'params.yaml', '- a\n- b\n')) },
  { name: 'params empty', exit: 2, message: /the params file is empty/, where: (_, inv) => fileAt(inv, '--params'), run: (c) => start(c, file(c, 'params.yaml', '')) },
  { name: 'params URL not http', exit: 2, message: /palette\.baseUrl: expected an http\(s\) URL/, where: positionIn('--params'), run: (c) => start(c, paramsText(c, /^ {2}baseUrl: .*$/m, '  baseUrl: ftp://palette.example.com')) },
  { name: 'params key misspelt', exit: 2, message: /palete: unknown key `palete`/, where: positionIn('--params'), run: (c) => start(c, paramsText(c, /^palette:/m, 'palete:')) },
  { name: 'params address not IPv4', exit: 2, message: /site\.ingressIP: expected an IPv4 address/, where: positionIn('--params'), run: (c) => start(c, paramsText(c, /^ {2}ingressIP: .*$/m, '  ingressIP: 10.10.300.1')) },
  { name: 'params target not a version', exit: 2, message: /target: expected a version such as 4\.6\.3/, where: positionIn('--params'), run: (c) => start(c, paramsText(c, /^target: .*$/m, 'target: latest')) },
  { name: 'params key twice', exit: 2, message: /the params file is not valid YAML: Map keys must be unique/, where: positionIn('--params'), run: (c) => start(c, paramsText(c, /^target: .*$/m, 'target: 4.6.3\ntarget: 4.5.4')) },
  { name: 'params profile without a uid', exit: 2, message: /profiles\.addon\.uid: .*(required|expected string)/, where: positionIn('--params'), run: (c) => start(c, paramsData(c, (d) => delete d.profiles.addon.uid)) },
  { name: 'params window not a duration', exit: 2, message: /window: expected a duration/, where: positionIn('--params'), run: (c) => start(c, paramsText(c, /^window: .*$/m, 'window: a while')) },

  // ---- the API key file
  { name: 'key file missing', exit: 2, message: /Cannot read the API key file \/nonexistent\/key: it does not exist/, where: at('/nonexistent/key'), run: (c) => ({ ...start(c, c.lab.json.params, ['--api-key-file', '/nonexistent/key']), env: {} }) },
  { name: 'key file empty', exit: 2, message: /The API key file \S+ is empty/, where: (_, inv) => fileAt(inv, '--api-key-file'), run: (c) => ({ ...start(c, c.lab.json.params, ['--api-key-file', file(c, 'key', '\n')]), env: {} }) },
  { name: 'key file with two lines', exit: 2, message: /The API key file \S+ holds more than one line/, where: (_, inv) => fileAt(inv, '--api-key-file'), run: (c) => ({ ...start(c, c.lab.json.params, ['--api-key-file', file(c, 'key', `${c.key}\nsecond\n`)]), env: {} }) },

  // ---- the runbook
  { name: 'runbook not YAML', exit: 2, message: /the runbook is not valid YAML/, where: positionIn('--runbook'), run: (c) => start(c, c.lab.json.params, ['--runbook', file(c, 'runbook.yaml', 'steps: [\n')]) },
  { name: 'runbook unknown step kind', exit: 2, message: /steps\[0\]\.kind: unknown step kind `preflite`/, where: positionIn('--runbook'), run: (c) => start(c, c.lab.json.params, ['--runbook', runbookText(c, 'kind: preflight', 'kind: preflite')]) },
  { name: 'runbook duplicate step id', exit: 2, message: /steps\[1\]\.id: duplicate step id `preflight`/, where: positionIn('--runbook'), run: (c) => start(c, c.lab.json.params, ['--runbook', runbookText(c, 'id: snapshot,', 'id: preflight,')]) },
  { name: 'runbook other apiVersion', exit: 2, message: /apiVersion: expected one of "upgrade-pilot\/v1", got "upgrade-pilot\/v2"/, where: positionIn('--runbook'), run: (c) => start(c, c.lab.json.params, ['--runbook', runbookText(c, /^apiVersion: .*$/m, 'apiVersion: upgrade-pilot/v2')]) },
  { name: 'runbook refers to a missing param', exit: 2, message: /refers to \$\{params\.site\.nope\}, which the params file does not define/, where: positionIn('--runbook'), run: (c) => start(c, c.lab.json.params, ['--runbook', runbookText(c, '${params.site.ingressIP}', '${params.site.nope}')]) },
  { name: 'runbook step parameter invalid', exit: 2, message: /with\.profile: expected one of "addon", "infra", got "middle"/, where: positionIn('--runbook'), run: (c) => start(c, c.lab.json.params, ['--runbook', runbookText(c, 'with: { profile: infra } }', 'with: { profile: middle } }')]) },
  { name: 'runbook timeout not a duration', exit: 2, message: /settings\.kubectlRequestTimeout: expected a duration such as 30s/, where: positionIn('--runbook'), run: (c) => start(c, c.lab.json.params, ['--runbook', runbookText(c, /kubectlRequestTimeout: \S+/, 'kubectlRequestTimeout: soon')]) },
  { name: 'runbook without steps', exit: 2, message: /steps: Too small: expected array to have >=1 items/, where: positionIn('--runbook'), run: (c) => start(c, c.lab.json.params, ['--runbook', file(c, 'runbook.yaml', 'apiVersion: upgrade-pilot/v1\nkind: Runbook\nmetadata: { name: x, title: X }\nsteps: []\n')]) },
  { name: 'runbook needing params, none given', exit: 2, message: /refers to \$\{params\.\S+\} but no params file was given/, where: positionIn('--runbook'), run: (c) => ({ args: ['start', '--runbook', join(ROOT, 'runbooks/vmo-upgrade.yaml'), '--non-interactive', '--state-dir', tempDir('corpus-state')], env: key(c) }) },
  { name: 'runbook changed since the session started', exit: 2, message: /The runbook \S+ changed since session \S+ started/, where: (c) => c.dir, run: async (c) => {
    // A session that stops at its first gate (no approvals), then its runbook is edited before resume.
    const runbook = file(c, 'runbook.yaml', bundled());
    const state = tempDir('corpus-state');
    const first = await runTool(['start', '--params', c.lab.json.params, '--runbook', runbook, '--non-interactive', '--state-dir', state], { env: key(c) });
    if (first.code !== 3) throw new Error(`corpus set-up: the first run should stop at a gate (exit 3): ${first.code}\n${first.stderr}`);
    writeFileSync(runbook, `${bundled()}\n# edited\n`);
    return { args: ['resume', '--non-interactive', '--state-dir', state], env: key(c) };
  } },

  // ---- credentials, access files and places
  { name: 'API key refused (401)', exit: 4, message: /did not accept the API key \(401 Unauthorized\)/, where: () => 'GET /v1/clusterprofiles', run: (c) => ({ ...start(c, paramsData(c, () => undefined, { site: true })), env: { UPGRADE_PILOT_API_KEY: 'not-the-key-0123456789' } }) },
  { name: 'project refused (403)', exit: 4, message: /has no access to project 000000000000000000000000 \(403 Forbidden\)/, where: () => 'GET /v1/clusterprofiles', run: (c) => start(c, paramsData(c, (d) => (d.palette.projectUid = '000000000000000000000000'), { site: true })) },
  { name: 'profile API unreachable', exit: 4, message: /Cannot reach the profile API at http:\/\/127\.0\.0\.1:9 for GET \S+: connection refused/, where: () => 'http://127.0.0.1:9', run: (c) => start(c, file(c, 'params.yaml', labParams(c).replace(/^ {2}baseUrl: .*$/m, '  baseUrl: http://127.0.0.1:9').replace(/labClockUrl: http:\/\/[^/]+/, 'labClockUrl: http://127.0.0.1:9'))) },
  { name: 'cluster refuses the token (expired)', exit: 4, message: /The cluster refused the credentials|expired/, where: (_, inv) => fileAt(inv, '--kubeconfig'), run: (c) => {
    const kubeconfig = readFileSync(c.lab.json.kubeconfig, 'utf8').replace(/^(\s+token: ).*$/m, '$1revoked-token-0000000000');
    return start(c, c.lab.json.params, ['--kubeconfig', file(c, 'kubeconfig', kubeconfig)]);
  } },
  // Issue 33: a kubeconfig the operator named that is not there is a mistake in the command (exit 2), not the environment's.
  { name: 'kubeconfig missing', exit: 2, message: /The kubeconfig \/nonexistent\/kubeconfig named by --kubeconfig does not exist/, where: at('/nonexistent/kubeconfig'), run: (c) => start(c, c.lab.json.params, ['--kubeconfig', '/nonexistent/kubeconfig']) },
  { name: 'kubeconfig without that context', exit: 2, message: /the context "nope" is not in /, where: (c) => c.lab.json.kubeconfig, bounds: { ms: 5_000, rssMiB: 200, noKubectl: true }, run: (c) => start(c, c.lab.json.params, ['--context', 'nope']) },
  // Issue 23: what kubectl would read without end, checked before it runs; credential plugins and TLS named.
  { name: 'kubeconfig is a FIFO', exit: 4, message: /cannot read the cluster access file \S+: it is a FIFO \(named pipe\), not a regular file/, where: (_, inv) => fileAt(inv, '--kubeconfig'), bounds: { ms: 5_000, rssMiB: 200, noKubectl: true }, run: (c) => start(c, c.lab.json.params, ['--kubeconfig', fifo(c, 'kubeconfig')]) },
  { name: 'kubeconfig links to /dev/zero', exit: 4, message: /cannot read the cluster access file \S+: it is a character device, not a regular file/, where: (_, inv) => fileAt(inv, '--kubeconfig'), bounds: { ms: 5_000, rssMiB: 200, noKubectl: true }, run: (c) => ({ args: ['verify', '--params', c.lab.json.params, '--kubeconfig', link(c, 'kubeconfig', '/dev/zero')], env: key(c) }) },
  { name: 'kubeconfig of 100 MB', exit: 4, message: /over the 16 MiB limit for a cluster access file/, where: (_, inv) => fileAt(inv, '--kubeconfig'), bounds: { ms: 5_000, rssMiB: 200, noKubectl: true }, run: (c) => ({ args: ['plan', '--params', c.lab.json.params, '--kubeconfig', bigFile(c, 'kubeconfig', 100 * 1024 * 1024, 'apiVersion: v1\n')], env: key(c) }) },
  { name: 'kubeconfig credential plugin not installed', exit: 4, message: /The credential plugin kubelogin that the cluster access file \S+ runs for its credentials is not installed/, where: (_, inv) => fileAt(inv, '--kubeconfig'), bounds: { ms: 10_000, rssMiB: 250 }, run: (c) => ({ args: ['verify', '--params', c.lab.json.params, '--kubeconfig', kubeconfigWith(c, (d) => (d.users[0].user = { exec: { apiVersion: 'client.authentication.k8s.io/v1beta1', command: 'kubelogin', args: ['get-token'], interactiveMode: 'Never' } }))], env: key(c) }) },
  { name: 'kubeconfig server speaks plain HTTP', exit: 4, bounds: { ms: 10_000, rssMiB: 250 }, message: /The server at https:\/\/127\.0\.0\.1:\d+ \(in the access file \S+\) does not speak TLS/, where: (_, inv) => fileAt(inv, '--kubeconfig'), run: async (c) => ({ args: ['verify', '--params', c.lab.json.params, '--kubeconfig', kubeconfigWith(c, (d) => (d.clusters[0].cluster.server = `https://127.0.0.1:${plainHttpPort}`))], env: key(c) }) },
  { name: 'kubeconfig server accepts and never speaks TLS', exit: 4, bounds: { ms: 45_000, rssMiB: 250 }, message: /accepted the connection but never completed a TLS handshake|did not answer in time/, where: (_, inv) => fileAt(inv, '--kubeconfig'), run: async (c) => ({ args: ['verify', '--params', c.lab.json.params, '--kubeconfig', kubeconfigWith(c, (d) => (d.clusters[0].cluster.server = `https://127.0.0.1:${silentPort}`))], env: key(c) }) },
  { name: 'kubeconfig without the cluster CA', exit: 4, bounds: { ms: 10_000, rssMiB: 250 }, message: /TLS certificate is not signed by any CA this machine trusts/, where: (_, inv) => fileAt(inv, '--kubeconfig'), run: (c) => ({ args: ['verify', '--params', c.lab.json.params, '--kubeconfig', kubeconfigWith(c, (d) => delete d.clusters[0].cluster['certificate-authority-data'])], env: key(c) }) },
  { name: 'Kubernetes API unreachable', exit: 4, message: /The cluster API cannot be reached while trying to .+: The connection to the server 127\.0\.0\.1:9 was refused/, where: () => '127.0.0.1:9', run: (c) => {
    const kubeconfig = readFileSync(c.lab.json.kubeconfig, 'utf8').replace(/server: https:\/\/127\.0\.0\.1:\d+/, 'server: https://127.0.0.1:9');
    return start(c, c.lab.json.params, ['--kubeconfig', file(c, 'kubeconfig', kubeconfig)]);
  } },
  { name: 'state folder is a file', exit: 4, message: /Cannot use the state folder \S+: a file is in the way/, where: (_, inv) => fileAt(inv, '--state-dir'), run: (c) => ({ args: ['start', '--params', c.lab.json.params, '--non-interactive', '--state-dir', file(c, 'not-a-folder', 'x')], env: key(c) }) },
  { name: 'state folder unreadable (sessions)', exit: 4, message: /Cannot use the state folder \S+: permission denied/, where: (_, inv) => fileAt(inv, '--state-dir'), run: () => ({ args: ['sessions', '--state-dir', unreadableState()], ...asNobody() }) },
  { name: 'state folder unreadable (resume)', exit: 4, message: /Cannot use the state folder \S+: permission denied/, where: (_, inv) => fileAt(inv, '--state-dir'), run: (c) => ({ args: ['resume', '--non-interactive', '--state-dir', unreadableState()], env: key(c), ...asNobody() }) },
  { name: 'state folder unreadable (report)', exit: 4, message: /Cannot use the state folder \S+: permission denied/, where: (_, inv) => fileAt(inv, '--state-dir'), run: () => ({ args: ['report', '--state-dir', unreadableState()], ...asNobody() }) },
  { name: 'unknown cluster uid (verify)', exit: 4, message: /Cluster eeeeeeeeeeeeeeeeeeeeeeee was not found in project \S+ at \/v1\/clusters/, where: () => 'GET /v1/clusters/eeeeeeeeeeeeeeeeeeeeeeee/profiles', run: (c) => ({ args: ['verify', '--params', paramsData(c, (d) => (d.cluster.uid = 'eeeeeeeeeeeeeeeeeeeeeeee'))], env: key(c) }) },

  // ---- malformed answers from the profile API (a stub rewrites the lab's)
  { name: 'answer not JSON', exit: 4, message: /the answer is not JSON \(<html>502 Bad Gateway<\/html>\)/, where: addonCall, run: (c) => viaStub(c, (r, a) => (r.method === 'GET' && isAddon(c)(r.path) ? { ...a, headers: { 'content-type': 'text/html' }, body: '<html>502 Bad Gateway</html>' } : undefined)) },
  { name: 'answer cut short', exit: 4, message: /the answer is not JSON/, where: addonCall, run: (c) => viaStub(c, (r, a) => (r.method === 'GET' && isAddon(c)(r.path) ? { ...a, body: a.body.slice(0, 120) } : undefined)) },
  { name: 'answer null', exit: 4, message: /\(document\): expected object, received null/, where: addonCall, run: (c) => viaStub(c, (r, a) => (r.method === 'GET' && isAddon(c)(r.path) ? { ...a, body: 'null' } : undefined)) },
  { name: 'profile without metadata', exit: 4, message: /metadata: expected object, received undefined/, where: addonCall, run: (c) => viaStub(c, editJson(isAddon(c), (d) => void delete d.metadata)) },
  { name: 'profile with its packs under spec.packs', exit: 4, message: /spec\.template: expected object \(or spec\.draft \/ spec\.published\)/, where: addonCall, run: (c) => viaStub(c, editJson(isAddon(c), (d) => {
    const spec = d.spec as { packs?: unknown; template?: { packs: unknown } };
    spec.packs = spec.template!.packs;
    delete spec.template;
  })) },
  { name: 'pack values not a YAML string', exit: 4, message: /spec\.template\.packs\[0\]\.values: expected string, received object/, where: addonCall, run: (c) => viaStub(c, editJson(isAddon(c), (d) => void ((d.spec as { template: { packs: Array<{ values: unknown }> } }).template.packs[0]!.values = { a: 1 }))) },
  { name: 'server error echoing the key', exit: 4, message: /The profile API failed with 500 on GET \S+ \(code Internal, "bad key \[REDACTED\] \[REDACTED\]"\)/, where: addonCall, run: (c) => viaStub(c, (r) => (r.method === 'GET' && isAddon(c)(r.path) ? { status: 500, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: 'Internal', message: `bad key ${c.key} ${Buffer.from(c.key).toString('base64')}` }) } : undefined)) },
  // The params name what does not exist, or a target that cannot be reached safely
  { name: 'unknown profile uid', exit: 2, message: /Profile ffffffffffffffffffffffff was not found in project/, where: () => 'GET /v1/clusterprofiles/ffffffffffffffffffffffff', run: (c) => start(c, paramsData(c, (d) => (d.profiles.addon.uid = 'ffffffffffffffffffffffff'))) },
  { name: 'unknown cluster uid', exit: 2, message: /Cluster eeeeeeeeeeeeeeeeeeeeeeee was not found in project/, where: () => 'GET /v1/clusters/eeeeeeeeeeeeeeeeeeeeeeee/profiles', run: (c) => start(c, paramsData(c, (d) => (d.cluster.uid = 'eeeeeeeeeeeeeeeeeeeeeeee'))) },
  { name: 'empty pack list', exit: 2, message: /The upgrade plan is refused: Neither \S+ nor \S+ holds the virtual-machine-orchestrator pack/, where: () => 'packs.orchestration', run: (c) => viaStub(c, editJson(isAddon(c), (d) => void ((d.spec as { template: { packs: unknown[] } }).template.packs = []))) },
  { name: 'skipped-minor target', exit: 2, message: /The upgrade plan is refused: No 4\.5\.x version is available to step through from 4\.4\.10 to 4\.6\.3/, where: () => 'spec 9.1.1', run: (c) => start(c, paramsData(c, (d) => withReferencesBut(c, d, '4.5.4'))) },
  { name: 'downgrade target', exit: 2, message: /The upgrade plan is refused: The target 4\.3\.0 is older than the deployed 4\.4\.10/, where: () => 'target', run: (c) => start(c, paramsText(c, /^target: .*$/m, 'target: 4.3.0')) },
  { name: 'API key refused, lab params', exit: 4, message: /did not accept the API key \(401 Unauthorized\)/, where: () => 'GET /v1/clusterprofiles', run: (c) => ({ ...start(c, c.lab.json.params), env: { UPGRADE_PILOT_API_KEY: 'not-the-key-0123456789' } }) },

  // ---- files that are not files, or far too large (issue 17, class 2)
  { name: 'params file is a FIFO', exit: 2, message: /Cannot read the params file \S+: it is a FIFO \(named pipe\), not a regular file/, where: (_, inv) => fileAt(inv, '--params'), run: (c) => start(c, fifo(c, 'params.yaml')) },
  { name: 'params file links to /dev/zero', exit: 2, message: /Cannot read the params file \S+: it is a character device, not a regular file/, where: (_, inv) => fileAt(inv, '--params'), run: (c) => start(c, link(c, 'params.yaml', '/dev/zero')) },
  { name: 'params file of 100 MB', exit: 2, message: /Cannot read the params file \S+: it is 95\.4 MiB, over the 1 MiB limit for a params file/, where: (_, inv) => fileAt(inv, '--params'), run: (c) => start(c, bigFile(c, 'params.yaml', 100_000_000, 'palette:\n  x: ')) },
  { name: 'runbook of 10 MB', exit: 2, message: /Cannot read the runbook \S+: it is 9\.5 MiB, over the 4 MiB limit for a runbook/, where: (_, inv) => fileAt(inv, '--runbook'), run: (c) => start(c, c.lab.json.params, ['--runbook', bigFile(c, 'runbook.yaml', 10_000_000, `${bundled()}\n# `)]) },
  { name: 'API key file of 100 MB', exit: 2, message: /Cannot read the API key file \S+: it is 95\.4 MiB, over the 64 KiB limit for an API key file/, where: (_, inv) => fileAt(inv, '--api-key-file'), run: (c) => ({ ...start(c, c.lab.json.params, ['--api-key-file', bigFile(c, 'key', 100_000_000, c.key)]), env: {} }) },
  { name: 'API key file is a FIFO', exit: 2, message: /Cannot read the API key file \S+: it is a FIFO/, where: (_, inv) => fileAt(inv, '--api-key-file'), run: (c) => ({ ...start(c, c.lab.json.params, ['--api-key-file', fifo(c, 'key')]), env: {} }) },
  { name: 'profile API answer that never ends', exit: 4, message: /The profile API's answer to GET \S+ is larger than 8 MiB; it was not read/, where: () => 'GET /v1/', run: (c) => viaStub(c, (r) => (r.method === 'GET' && r.path.startsWith('/v1/') ? 'stream' : undefined), (d) => (d.palette.maxResponse = '8MiB')) },

  // ---- bad input that ended in "This is a bug" (class 3)
  { name: 'params alias bomb', exit: 2, message: /the params file uses YAML aliases \(\*name\) that stand for more than 100 values in all \(an "alias bomb"\)/, where: (_, inv) => fileAt(inv, '--params'), run: (c) => start(c, file(c, 'params.yaml', `${labParams(c)}${aliasBomb('bomb', '  ')}`)) },
  { name: 'runbook alias bomb', exit: 2, message: /the runbook uses YAML aliases \(\*name\) that stand for more than 100 values/, where: (_, inv) => fileAt(inv, '--runbook'), run: (c) => start(c, c.lab.json.params, ['--runbook', file(c, 'runbook.yaml', `${bundled()}\nx-bomb:\n${aliasBomb('b', '  ')}`)]) },
  { name: 'a timeout of 0s', exit: 2, message: /palette\.timeout: expected a duration above zero/, where: positionIn('--params'), run: (c) => start(c, paramsText(c, /^ {2}timeout: .*$/m, '  timeout: 0s')) },
  { name: 'a timeout beyond a timer', exit: 2, message: /settings\.kubectlProcessTimeout: expected a duration of at most 596h/, where: positionIn('--runbook'), run: (c) => start(c, c.lab.json.params, ['--runbook', runbookText(c, /kubectlProcessTimeout: \S+/, 'kubectlProcessTimeout: 30000h')]) },
  { name: 'key with a line break', exit: 2, message: /The API key in \$UPGRADE_PILOT_API_KEY contains a line break at position 9 of \d+; it cannot be sent in a request header/, where: () => 'UPGRADE_PILOT_API_KEY', run: (c) => ({ ...start(c, c.lab.json.params), env: { UPGRADE_PILOT_API_KEY: `${c.key.slice(0, 8)}\n${c.key.slice(8)}` } }) },
  { name: 'key with a control character', exit: 2, message: /contains a control character at position/, where: () => 'UPGRADE_PILOT_API_KEY', run: (c) => ({ args: ['plan', '--params', c.lab.json.params], env: { UPGRADE_PILOT_API_KEY: `${c.key}\u001b[2J` } }) },
  { name: 'key with a non-ASCII character', exit: 2, message: /contains a non-ASCII character at position/, where: () => 'UPGRADE_PILOT_API_KEY', run: (c) => ({ args: ['diff', '--params', c.lab.json.params], env: { UPGRADE_PILOT_API_KEY: `${c.key}é` } }) },
  { name: 'unknown profile uid (plan)', exit: 2, message: /The add-on profile ffffffffffffffffffffffff was not found \(GET \/v1\/clusterprofiles\/ffffffffffffffffffffffff\)/, where: () => 'GET /v1/clusterprofiles/ffffffffffffffffffffffff', run: (c) => ({ args: ['plan', '--params', paramsData(c, (d) => (d.profiles.addon.uid = 'ffffffffffffffffffffffff'))], env: key(c) }) },
  { name: 'unknown profile uid (diff)', exit: 2, message: /The infrastructure profile ffffffffffffffffffffffff was not found/, where: () => 'profiles.infra.uid', run: (c) => ({ args: ['diff', '--params', paramsData(c, (d) => (d.profiles.infra.uid = 'ffffffffffffffffffffffff'))], env: key(c) }) },
  { name: 'journal: a result for an unknown intent', exit: 2, message: /The session journal \S+ is damaged at line \d+: Illegal mutation\.result: no intent for mutation hop9\.publish\/publish/, where: (_, inv) => fileAt(inv, '--state-dir'), run: (c) => damagedSession(c, { type: 'mutation.result', at: '2026-01-01T00:00:00.000Z', key: 'hop9.publish/publish', outcome: 'sent' }) },
  { name: 'journal: an unknown event type', exit: 2, message: /is damaged at line \d+: Illegal step\.teleported for preflight: unknown event type "step\.teleported"/, where: (_, inv) => fileAt(inv, '--state-dir'), run: (c) => damagedSession(c, { type: 'step.teleported', at: '2026-01-01T00:00:00.000Z', id: 'preflight' }) },
  { name: 'journal: a line that is not an object', exit: 2, message: /is damaged at line \d+: the line is not a journal record/, where: (_, inv) => fileAt(inv, '--state-dir'), run: (c) => damagedSession(c, '"just a string"') },

  // ---- server text that would drive the terminal (class 5)
  { name: 'error body of 5 MB with terminal escapes', exit: 4, message: /The profile API failed with 500 on GET \S+ \(code Boom, "red x+… \(cut: 5,000,019 characters in all\)"/, where: addonCall, run: (c) => viaStub(c, (r) => (r.method === 'GET' && isAddon(c)(r.path) ? { status: 500, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: 'Boom\u001b[2J', message: `\u001b]0;owned\u0007\u001b[31mred ${'x'.repeat(5_000_000)}` }) } : undefined)) },

  // ---- the key where it should not go (class 6)
  { name: 'lab clock on another origin', exit: 2, message: /extra\.labClockUrl \(http:\/\/127\.0\.0\.1:\d+\/_lab\/clock\) is not on the profile API's origin/, where: () => 'extra.labClockUrl', run: (c) => start(c, paramsText(c, /labClockUrl: .*$/m, `labClockUrl: ${c.trap}/_lab/clock`)) },
  { name: 'plain http to another host', exit: 2, message: /palette\.baseUrl http:\/\/palette\.example\.com is plain http:\/\/ to another host: the API key would cross the network unencrypted/, where: () => 'palette.baseUrl', run: (c) => ({ args: ['plan', '--params', paramsData(c, (d) => (d.palette.baseUrl = 'http://palette.example.com'), { site: true })], env: key(c) }) },

  // ---- places that cannot hold files (class 7)
  { name: 'state folder under /proc (start)', exit: 2, message: /Cannot keep sessions in \/proc\/upgrade-pilot: it is on proc, a kernel file system that cannot hold files/, where: () => '/proc/upgrade-pilot', run: (c) => ({ args: ['start', '--params', c.lab.json.params, '--non-interactive', '--state-dir', '/proc/upgrade-pilot'], env: key(c) }) },
  { name: 'state folder under /proc (sessions)', exit: 2, message: /Cannot keep sessions in \/proc\/self\/x: it is on proc/, where: () => '/proc/self/x', run: () => ({ args: ['sessions', '--state-dir', '/proc/self/x'] }) },
  { name: 'lab folder under /sys', exit: 2, message: /Cannot keep the lab's files in \/sys\/upgrade-pilot: it is on sysfs/, where: () => '/sys/upgrade-pilot', run: () => ({ args: ['lab', '--serve', '--state-dir', '/sys/upgrade-pilot'] }) },
];

/** A state folder with a session in it that the tool may not read (run as nobody when we are root). */
function unreadableState(): string {
  const state = tempDir('corpus-unreadable');
  mkdirSync(join(state, 'sessions', '20200101-000000-abcdef'), { recursive: true });
  writeFileSync(join(state, 'sessions', '20200101-000000-abcdef', 'journal.ndjson'), '');
  chmodSync(state, 0o000);
  return state;
}
const asNobody = (): { uid?: number } => (process.getuid?.() === 0 ? { uid: 65534 } : {});


/** Runs `cases` of the corpus against one lab (concurrently), then checks the lab saw no mutation. */
export function corpusSuite(title: string, cases: Case[]): void {
  let ctx: Ctx;
  let trap: Server;
  const trapped: string[] = [];
  const results = new Map<string, ToolResult>();
  beforeAll(async () => {
    // Where a key sent to the wrong origin would arrive: it must hear nothing, ever.
    trap = createServer((req, res) => {
      trapped.push(`${req.method} ${req.url} ${req.headers.apikey ? 'with a key' : ''}`);
      res.end();
    });
    await new Promise<void>((r) => trap.listen(0, '127.0.0.1', r));
    const lab = await serveLab({ scenario: 'healthy', speed: 60 });
    await startNotApis();
    ctx = { lab, dir: tempDir('corpus'), key: lab.json.apiKey, trap: `http://127.0.0.1:${(trap.address() as AddressInfo).port}` };
  });
  afterAll(async () => {
    await Promise.all(proxies.splice(0).map((p) => p.close()));
    for (const socket of notApisSockets.splice(0)) socket.destroy();
    for (const server of notApis.splice(0)) {
      server.closeAllConnections?.();
      server.close();
    }
    await ctx?.lab.stop();
    trap?.closeAllConnections();
    await new Promise<void>((r) => (trap ? trap.close(() => r()) : r()));
  });

  function judge(c: Case, inv: Invocation, r: ToolResult): void {
    const out = `${r.stdout}\n${r.stderr}`;
    expect(r.code, `${c.name}: exit ${r.code}\n${out.slice(0, 4000)}`).toBe(c.exit);
    const error = /^error: (.*)$/m.exec(r.stderr)?.[1];
    expect(error, `${c.name}: no "error:" line\n${out.slice(0, 4000)}`).toBeDefined();
    expect(r.stderr, c.name).toMatch(c.message);
    expect(r.stderr, `${c.name}: the message does not say where`).toContain(c.where(ctx, inv));
    expect(r.stderr, `${c.name}: what to do`).toMatch(/^ {2}what to do: \S/m);
    expect(out, `${c.name}: stack trace`).not.toMatch(STACK_TRACE);
    expect(out.includes(ctx.key), `${c.name}: the API key is in the output`).toBe(false);
    expect(out.includes(Buffer.from(ctx.key).toString('base64')), `${c.name}: the API key in base64 is in the output`).toBe(false);
    expect(out, `${c.name}: a raw control character reached the terminal`).not.toMatch(RAW_CONTROL);
    // Nothing the tool read (a 100 MB file, a 5 MB error body) is echoed whole.
    expect(out.length, `${c.name}: the output is ${out.length} characters`).toBeLessThan(20_000);
  }

  function withinBounds(c: Case, r: ToolResult, rssLog: string, spawnLog: string): void {
    const b = c.bounds!;
    expect(r.ms, `${c.name}: took ${r.ms} ms`).toBeLessThan(b.ms + STARTUP_SLACK_MS);
    const peaks = readFileSync(rssLog, 'utf8').trim().split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { maxRssKiB: number }).maxRssKiB);
    expect(peaks.length, `${c.name}: no memory figure`).toBeGreaterThan(0);
    expect(Math.max(...peaks) / 1024, `${c.name}: peak memory in MiB`).toBeLessThan(b.rssMiB);
    if (b.noKubectl) {
      let spawned: string[] = [];
      try {
        spawned = readFileSync(spawnLog, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { file?: string; args?: string[] }).flatMap((s) => (s.file ? [s.args!.join(' ')] : []));
      } catch {
        // no spawn at all: no file
      }
      // kubectl's own client version (against /dev/null, never the access file) is the one allowed.
      expect(spawned.filter((a) => !a.includes('--kubeconfig /dev/null')), `${c.name}: kubectl ran with the access file`).toEqual([]);
    }
  }

  describe(title, () => {
    describe.concurrent('each input', () => {
      it.for(cases)('$name (exit $exit)', { timeout: 150_000 }, async (c) => {
        const inv = await c.run(ctx);
        const logs = c.bounds ? { rssLog: join(tempDir('corpus-rss'), 'rss.ndjson'), spawnLog: join(tempDir('corpus-spawn'), 'spawn.ndjson') } : {};
        const r = await runTool(inv.args, { env: inv.env ?? {}, ...(inv.uid !== undefined ? { uid: inv.uid } : {}), timeoutMs: 90_000, ...logs });
        results.set(c.name, r);
        judge(c, inv, r);
        if (c.bounds && logs.rssLog && logs.spawnLog) withinBounds(c, r, logs.rssLog, logs.spawnLog);
      });
    });

    it('the lab saw no mutating call at all, and nothing went to another origin', async () => {
      expect(results.size).toBe(cases.length);
      expect(await ctx.lab.audit()).toEqual([]);
      expect(trapped).toEqual([]);
      console.log(`bad-input corpus: ${cases.length} inputs at exit 2/4 (${cases.filter((c) => c.exit === 2).length} x 2, ${cases.filter((c) => c.exit === 4).length} x 4); 0 mutations; 0 requests to another origin`);
    });
  });
}

/** Cases by name (a sample); an unknown name is a mistake in the sample, not a silent gap. */
export function casesNamed(names: string[]): Case[] {
  return names.map((name) => {
    const c = CASES.find((x) => x.name === name);
    if (!c) throw new Error(`no corpus case named "${name}"`);
    return c;
  });
}
