/** The fleet lab's count of requests per second, per Palette rate class. */
import { describe, expect, it } from 'vitest';
import { RequestRate } from '../../src/lab/fleet/request-rate.js';

describe('RequestRate', () => {
  it.each<[string, Array<[number, string]>, Record<string, number>]>([
    ['spread out', [[0, '/v1/packs/a'], [1000, '/v1/packs/b'], [2000, '/v1/packs/c']], { '/v1/packs': 1 }],
    ['within one second', [[0, '/v1/packs/a'], [500, '/v1/packs/b'], [999, '/v1/packs/c']], { '/v1/packs': 3 }],
    ['a window that slides', [[0, '/x'], [600, '/x'], [1100, '/x'], [1200, '/x']], { default: 3 }],
    ['classes apart', [[0, '/v1/clusterprofiles/u'], [1, '/v1/dashboard/clusterprofiles'], [2, '/v1/clusterprofiles/v']], { '/v1/clusterprofiles': 2, '/v1/dashboard': 1 }],
  ])('%s', (_name, arrivals, want) => {
    let t = 0;
    const rate = new RequestRate({ '/v1/packs': 10, '/v1/clusterprofiles': 50, '/v1/dashboard': 10, default: 10 }, () => t);
    for (const [at, path] of arrivals) {
      t = at;
      rate.record(path);
    }
    expect(Object.fromEntries(Object.entries(rate.peaks()).map(([k, v]) => [k, v.peakPerSecond]))).toEqual(want);
  });
});
