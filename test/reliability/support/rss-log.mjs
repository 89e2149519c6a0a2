// Loaded with `node --import` into the real CLI by tests that measure memory: when the process
// exits (however it ends, short of SIGKILL), its peak resident set size is appended to the file
// named by UP_RSS_LOG, in KiB, as one JSON line.
import { appendFileSync } from 'node:fs';

const log = process.env.UP_RSS_LOG;
if (log) {
  process.on('exit', () => {
    appendFileSync(log, `${JSON.stringify({ pid: process.pid, argv: process.argv.slice(2), maxRssKiB: process.resourceUsage().maxRSS })}\n`);
  });
}
