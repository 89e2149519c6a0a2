/**
 * How far the fleet coordinator's heap grows between two full collections: to twice what is live.
 *
 * V8 sizes the old generation after each full collection from how fast the program allocates
 * against how fast it collects, up to four times what survived (a choice for throughput). A
 * coordinator runs twenty sessions in one process, and nearly all of what they allocate dies young
 * (answers parsed, records and reports written); the factor swung between 1.5 and 4 from one
 * collection to the next, and with it the coordinator's peak: 255 to 302 MB for the same fleet of
 * 200 clusters at 20 (BENCHMARKS.md, "The fleet coordinator's memory"). At 2 the peak was 217-219
 * MB and each cluster's time unchanged: a full collection of its ~40 MB takes milliseconds.
 * V8 reads the flag each time it sizes the heap, so setting it in the running process takes effect
 * (test/fleet/heap-growth.test.ts holds it against this Node's V8).
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 100;

export function boundHeapGrowth(set: (flags: string) => void = setFlagsFromString): void {
  set(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
