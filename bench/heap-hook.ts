/**
 * Loaded into the fleet coordinator with `node --import <this file>`: samples the process's own
 * heap every 100 ms and, at exit, writes `maxRSS heapPeak` (KiB, bytes) to the file named by
 * UP_BENCH_HEAP_FILE. The coordinator's memory apart from the kubectl processes it starts.
 */
import { writeFileSync } from 'node:fs';

const file = process.env.UP_BENCH_HEAP_FILE;
if (file) {
  let heapPeak = 0;
  const sample = () => (heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed));
  setInterval(sample, 100).unref();
  process.on('exit', () => {
    sample();
    try {
      writeFileSync(file, `${process.resourceUsage().maxRSS} ${heapPeak}\n`);
    } catch {
      // the measurement is lost, the run is not
    }
  });
}
