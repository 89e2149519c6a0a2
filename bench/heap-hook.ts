/**
 * Loaded into the fleet coordinator with `node --import <this file>`: samples the process's own
 * heap every 100 ms and notes when each HTTP(S) request to the profile API leaves the process
 * (`http.request` / `https.request`, which got calls); at exit it writes, as JSON to the file named
 * by UP_BENCH_HEAP_FILE, its peak resident memory (KiB), the heap peak (bytes) and per Palette rate
 * class the most requests sent within any one second. The lab's own count is of arrivals, which
 * its busy event loop can bunch; this is what the client's shared limiter governs.
 */
import http from 'node:http';
import https from 'node:https';
import { syncBuiltinESMExports } from 'node:module';
import { writeFileSync } from 'node:fs';
import { defaultRateLimits, routeClass } from '../src/palette/rate-limit.js';

const file = process.env.UP_BENCH_HEAP_FILE;
const paletteOrigin = process.env.UP_BENCH_PALETTE_ORIGIN;

/** Per class, the most entries within any 1000 ms of sorted times. */
function peaks(byClass: Map<string, number[]>): Record<string, { requests: number; peakPerSecond: number; limit: number }> {
  const out: Record<string, { requests: number; peakPerSecond: number; limit: number }> = {};
  for (const [cls, times] of byClass) {
    let peak = 0;
    for (let start = 0, end = 0; end < times.length; end++) {
      while (times[end]! - times[start]! >= 1000) start++;
      peak = Math.max(peak, end - start + 1);
    }
    out[cls] = { requests: times.length, peakPerSecond: peak, limit: defaultRateLimits[cls] ?? defaultRateLimits.default! };
  }
  return out;
}

if (file) {
  let heapPeak = 0;
  const sample = () => (heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed));
  setInterval(sample, 100).unref();
  const sent = new Map<string, number[]>();
  const note = (target: unknown): void => {
    const url = typeof target === 'string' ? new URL(target) : target instanceof URL ? target : undefined;
    const o = (url ?? target) as { host?: string; hostname?: string; port?: string | number; path?: string; pathname?: string; protocol?: string } | undefined;
    if (!o || !paletteOrigin) return;
    const origin = url ? url.origin : `${o.protocol ?? 'http:'}//${o.hostname ?? o.host}${o.port ? `:${o.port}` : ''}`;
    if (origin !== paletteOrigin) return;
    const path = url ? url.pathname : (o.path ?? o.pathname ?? '');
    if (path.startsWith('/_lab/')) return;
    const cls = routeClass(defaultRateLimits, path);
    (sent.get(cls) ?? sent.set(cls, []).get(cls)!).push(Date.now());
  };
  for (const mod of [http, https]) {
    const request = mod.request.bind(mod) as (...args: unknown[]) => http.ClientRequest;
    (mod as { request: unknown }).request = (...args: unknown[]) => {
      note(args[0]);
      return request(...args);
    };
  }
  syncBuiltinESMExports();
  process.on('exit', () => {
    sample();
    try {
      writeFileSync(file, JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS, heapPeakBytes: heapPeak, sent: peaks(sent) }));
    } catch {
      // the measurement is lost, the run is not
    }
  });
}
