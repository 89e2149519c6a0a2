// Loaded with `node --import` into the real CLI by tests: records every child process the tool
// starts (program, arguments, the environment it hands over, its pid and when, in ms since the tool
// started), one JSON line per spawn, and a line `{exited, at}` when it ends, in the file named by
// UP_SPAWN_LOG. The environment's values are written too: the secrets test searches this file for the
// planted key, so a key passed to a child through its environment shows.
import childProcess from 'node:child_process';
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const log = process.env.UP_SPAWN_LOG;
if (log) {
  const { spawn } = childProcess;
  const { appendFileSync } = fs;
  childProcess.spawn = function (file, args, options) {
    const argv = Array.isArray(args) ? args : [];
    const opts = Array.isArray(args) ? options : args;
    const env = opts?.env ?? process.env;
    const child = spawn.apply(this, arguments);
    const at = performance.now();
    appendFileSync(log, `${JSON.stringify({ file, args: argv, env, pid: child.pid, at })}\n`);
    child.once('exit', () => appendFileSync(log, `${JSON.stringify({ exited: child.pid, at: performance.now() })}\n`));
    return child;
  };
  syncBuiltinESMExports();
}
