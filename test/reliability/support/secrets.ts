/**
 * Secrets and concurrency, on one lab and one upgrade (shared by secrets-and-locks.test.ts, a
 * sample in `npm test`, and secrets-and-locks.faults.ts, the whole of it):
 *
 * - Locks: while a run holds its session (frozen by the crash preload), a second `resume` - by id
 *   or "the latest" - is refused with exit 2 naming the holder, and changes nothing; files are 0600
 *   and folders 0700 mid-run and after. Once the holder is SIGKILLed its lock is stale and taken over.
 * - Secrets: with the lab's API key planted in the environment, the key (and its base64 form)
 *   appears in no file of the state folder (journal, snapshot, reports, lock), in no output of any
 *   command, and in neither the arguments nor the environment of any child process: a `kubectl`
 *   earlier on the PATH logs what it was given, and a preload logs every spawn of the tool.
 */
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isStopped, RAW_CONTROL, runTool, serveLab, sessionIds, spawnTool, tempDir, waitFor, walk, type ServedLab, type ToolProcess, type ToolResult } from './processes.js';
import { appliedMutations, duplicates, expectedHealthyMutations, loadSession, resumeArgs, startArgs } from './upgrade.js';

export interface SecretsOptions {
  /** Resume the upgrade to its end after the takeover (else up to the next gate: a VM restart). */
  finish: boolean;
  /** Every command in text and JSON (else one of each command). */
  allCommands: boolean;
}

export function secretsSuite(opts: SecretsOptions): void {
  let lab: ServedLab;
  let tool: ToolProcess | undefined;
  const outputs: Array<{ what: string; r: ToolResult }> = [];
  const logs = tempDir('secrets-logs');
  const spawnLog = join(logs, 'spawns.ndjson');
  const argvLog = join(logs, 'kubectl-argv.log');
  const envLog = join(logs, 'kubectl-env.log');
  const stateDir = join(tempDir('secrets-state'), 'nested', 'state'); // made by the tool itself
  let sessionId = '';

  /** A `kubectl` earlier on the PATH that logs its arguments and environment, then runs the real one. */
  function wrappedPath(): string {
    const dir = tempDir('kubectl-wrap');
    const real = process.env.PATH!.split(delimiter).map((p) => join(p, 'kubectl')).find((p) => existsSync(p));
    if (!real) throw new Error('kubectl is not on the PATH');
    writeFileSync(join(dir, 'kubectl'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${argvLog}'\nenv >> '${envLog}'\nexec '${real}' "$@"\n`);
    chmodSync(join(dir, 'kubectl'), 0o755);
    return `${dir}${delimiter}${process.env.PATH}`;
  }

  const env = () => ({ UPGRADE_PILOT_API_KEY: lab.json.apiKey, PATH: wrappedPath() });
  async function run(what: string, args: string[], extra: NodeJS.ProcessEnv = {}): Promise<ToolResult> {
    const r = await runTool(args, { env: { ...env(), ...extra }, spawnLog, timeoutMs: 180_000 });
    outputs.push({ what, r });
    return r;
  }

  function modes(dir: string): string[] {
    const wrong: string[] = [];
    for (const p of [dir, ...walk(dir).map((e) => e.path)]) {
      const st = statSync(p);
      const want = st.isDirectory() ? 0o700 : 0o600;
      if ((st.mode & 0o777) !== want) wrong.push(`${p} ${(st.mode & 0o777).toString(8)}`);
    }
    return wrong;
  }

  afterAll(async () => {
    tool?.proc.kill('SIGKILL');
    await lab?.stop();
  });

  describe('one session, one run at a time', () => {
    it('a second resume of a running session is refused (exit 2) naming the holder; files 0600, folders 0700', async () => {
      lab = await serveLab({ scenario: 'healthy', speed: 600 });
      // First a rehearsal on the fresh cluster: its JSON events carry every request it would send.
      // (Early, too: a lab at speed 600 ages its token a day in two minutes; see RELIABILITY.md.)
      const rehearsal = await run('rehearse --json', ['rehearse', '--params', lab.json.params, '--json', '--state-dir', stateDir]);
      expect(rehearsal.code, rehearsal.stderr).toBe(0);
      expect(rehearsal.stdout).toMatch(/"type":"mutation.intent"/);
      const report = join(logs, 'stop.json');
      tool = spawnTool(startArgs(lab, stateDir), { env: env(), spawnLog, crash: { targets: ['mutation.intent|hop1.publish-addon|hop1.publish-addon/publish'], mode: 'stop', report } });
      await waitFor('the run to stop right after journaling a publish intent', () => existsSync(report) && isStopped(tool!.pid));
      sessionId = sessionIds(stateDir).at(-1)!;

      for (const args of [resumeArgs(stateDir, sessionId), resumeArgs(stateDir)]) {
        const second = await run('a second resume while the first runs', args);
        expect(second.code, second.stderr).toBe(2);
        expect(second.stderr).toMatch(new RegExp(`^error: Session ${sessionId} is already running \\(pid ${tool.pid} on \\S+, since \\S+\\)\\.$`, 'm'));
        expect(second.stderr).toMatch(new RegExp(`what to do: Wait for it to finish or stop it \\(kill ${tool.pid}\\); two runs of one session could repeat an action\\.`));
      }
      // The refused runs wrote nothing: the journal ends with the frozen run's intent.
      const journal = readFileSync(join(stateDir, 'sessions', sessionId, 'journal.ndjson'), 'utf8').trim().split('\n');
      expect(JSON.parse(journal.at(-1)!).event).toMatchObject({ type: 'mutation.intent', key: 'hop1.publish-addon/publish' });
      expect(modes(join(stateDir, '..', '..'))).toEqual([]);
      expect(existsSync(join(stateDir, 'sessions', sessionId, 'lock'))).toBe(true);

      // The holder dies (SIGKILL, mid-publish): its lock is stale, the next resume takes over and finishes.
      tool.proc.kill('SIGKILL');
      const killed = await tool.done;
      outputs.push({ what: 'the killed run', r: killed });
      // Taken over: to the end, or (the sample) up to the next gate, a VM restart (exit 3).
      const resumeAll = resumeArgs(stateDir, sessionId);
      const resumed = await run('resume after the kill', opts.finish ? resumeAll : resumeAll.filter((a) => a !== '--approve-all-restarts'));
      expect(resumed.code, resumed.stderr).toBe(opts.finish ? 0 : 3);
      expect(loadSession(stateDir, sessionId).run.status).toBe(opts.finish ? 'done' : 'awaitingApproval');
      const applied = appliedMutations(await lab.audit());
      expect(duplicates(applied)).toEqual([]);
      expect(applied).toEqual(opts.finish ? expectedHealthyMutations(lab) : expectedHealthyMutations(lab).slice(0, 4));
      expect(modes(join(stateDir, '..', '..'))).toEqual([]);
    }, 240_000);
  });

  describe('the API key appears nowhere', () => {
    it('runs every other command on the same session and lab (text and JSON, success and failure)', async () => {
      const p = lab.json.params;
      const commands: Array<[string, string[]]> = opts.allCommands
        ? [
            ['plan', ['plan', '--params', p]],
            ['plan --json', ['plan', '--params', p, '--json']],
            ['diff', ['diff', '--params', p]],
            ['diff --json', ['diff', '--params', p, '--json']],
            ['verify', ['verify', '--params', p]],
            ['verify --json', ['verify', '--params', p, '--json']],
            ['report', ['report', sessionId, '--state-dir', stateDir]],
            ['report --json', ['report', sessionId, '--json', '--state-dir', stateDir]],
            ['sessions', ['sessions', '--state-dir', stateDir]],
            ['sessions --json', ['sessions', '--json', '--state-dir', stateDir]],
          ]
        : [
            ['plan', ['plan', '--params', p]],
            ['diff --json', ['diff', '--params', p, '--json']],
            ['verify --json', ['verify', '--params', p, '--json']],
            ['report', ['report', sessionId, '--state-dir', stateDir]],
            ['sessions --json', ['sessions', '--json', '--state-dir', stateDir]],
          ];
      // Independent of each other: run together.
      await Promise.all(commands.map(([what, args]) => run(what, args)));
      // A failure that quotes the request: a key file with the key and a second line is refused.
      const badKeyFile = join(logs, 'two-lines.key');
      writeFileSync(badKeyFile, `${lab.json.apiKey}\nsecond line\n`, { mode: 0o600 });
      const refused = await run('a refused key file', ['start', '--params', p, '--api-key-file', badKeyFile, '--non-interactive', '--state-dir', stateDir], { UPGRADE_PILOT_API_KEY: '' });
      expect(refused.code).toBe(2);
      // The key passed where it must not be: refused, and not echoed back.
      const asFlag = await run('the key as a flag', ['start', '--params', p, `--api-key=${lab.json.apiKey}`, '--state-dir', stateDir]);
      expect(asFlag.code).toBe(2);
      // Each ran to its own end: everything read-only succeeded on the upgraded cluster, the refusals exit 2.
      const byWhat = new Map(outputs.map(({ what, r }) => [what, r.code]));
      // (Mid-upgrade, the sample's verify finds the versions short of the target: red, exit 1.)
      const expected = (what: string) => (!opts.finish && what.startsWith('verify') ? 1 : 0);
      expect(commands.map(([what]) => `${what}: ${byWhat.get(what)}`)).toEqual(commands.map(([what]) => `${what}: ${expected(what)}`));
      expect([byWhat.get('a refused key file'), byWhat.get('the key as a flag')]).toEqual([2, 2]);
      }, 240_000);

    it('not in any file of the state folder, any output, any child process argument or environment', () => {
      const key = lab.json.apiKey;
      const needles = [key, Buffer.from(key).toString('base64')];
      const found: string[] = [];
      const search = (where: string, text: string | Buffer) => {
        for (const n of needles) if (text.includes(n)) found.push(`${where} (${n === key ? 'the key' : 'the key in base64'})`);
      };
      const files = walk(join(stateDir, '..', '..')).filter((e) => !e.dir);
      expect(files.map((f) => f.path.split('/').pop())).toEqual(expect.arrayContaining(['journal.ndjson', 'state.json', 'report.md', 'report.json']));
      for (const f of files) search(f.path, readFileSync(f.path));
      for (const { what, r } of outputs) {
        search(`${what}: stdout`, r.stdout);
        search(`${what}: stderr`, r.stderr);
      }
      // Every child process, whatever the program: arguments and environment.
      const spawns = readFileSync(spawnLog, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { file?: string; args: string[]; env: Record<string, string> }).filter((s): s is { file: string; args: string[]; env: Record<string, string> } => s.file !== undefined);
      for (const s of spawns) {
        search(`${s.file} arguments`, s.args.join(' '));
        for (const [name, value] of Object.entries(s.env)) search(`${s.file} environment ${name}`, value);
      }
      // What kubectl itself received.
      search('kubectl arguments (PATH wrapper)', readFileSync(argvLog, 'utf8'));
      search('kubectl environment (PATH wrapper)', readFileSync(envLog, 'utf8'));
      expect(found).toEqual([]);
      // And no output drove the terminal.
      for (const { what, r } of outputs) expect(`${r.stdout}${r.stderr}`, what).not.toMatch(RAW_CONTROL);

      const programs = new Set(spawns.map((s) => s.file));
      const argv = readFileSync(argvLog, 'utf8').trim().split('\n');
      const kubectlCalls = argv.length;
      // Reads go through one kubectl proxy per command (its arguments and environment searched
      // too); changes and the rest are kubectl calls of their own.
      expect(argv.filter((a) => / proxy --unix-socket=/.test(a)).length).toBeGreaterThan(2);
      expect(kubectlCalls).toBeGreaterThan(5);
      console.log(`secrets: ${files.length} files, ${outputs.length} command outputs, ${spawns.length} child processes (${[...programs].join(', ')}), ${kubectlCalls} kubectl calls searched; key found 0 times`);
    });
  });
}
