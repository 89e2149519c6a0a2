// Loaded with `node --import` into the real CLI by the secrets test: records every child process the
// tool starts (program, arguments, and which environment variables it hands over), one JSON line per
// spawn, in the file named by UP_SPAWN_LOG. The environment's values are written too: the test
// searches this file for the planted key, so a key passed to a child through its environment shows.
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
    appendFileSync(log, `${JSON.stringify({ file, args: argv, env })}\n`);
    return spawn.apply(this, arguments);
  };
  syncBuiltinESMExports();
}
