/**
 * Loaded into a measured node process with `node --import <this file>`: at exit, writes the
 * process's own peak resident memory (KiB) to the file named by UP_BENCH_RSS_FILE. GNU time reports
 * the largest process of a tree; this tells the node process apart from the kubectl it starts.
 */
import { writeFileSync } from 'node:fs';

export const RSS_FILE_ENV = 'UP_BENCH_RSS_FILE';

const file = process.env[RSS_FILE_ENV];
if (file) {
  process.on('exit', () => {
    try {
      writeFileSync(file, `${process.resourceUsage().maxRSS}\n`);
    } catch {
      // the measurement is lost, the run is not
    }
  });
}
