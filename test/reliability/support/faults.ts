/**
 * The mix on every profile API route: 20% 5xx, 10% dropped connections, 429 bursts. The
 * bursts count requests per rule, so giving the two mutations their own rule makes the first
 * publish and the first draft PUT meet a 429 for sure (the random faults come on top): a test
 * cannot pass without the mutations themselves being faulted.
 */
const mix = { errorRate: 0.2, dropRate: 0.1 };

export const FLAKY_PROFILE_API = [
  { route: 'PATCH /v1/clusterprofiles/*/publish', faults: { ...mix, rateLimit: { burst: 1, every: 4, retryAfterSeconds: 1 } } },
  { route: 'PUT /v1/clusterprofiles/*', faults: { ...mix, rateLimit: { burst: 1, every: 4, retryAfterSeconds: 1 } } },
  { route: '* /v1/**', faults: { ...mix, rateLimit: { burst: 2, every: 25, retryAfterSeconds: 1 } } },
];
