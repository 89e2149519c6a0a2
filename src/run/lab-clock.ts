/**
 * The clock of the embedded lab, mirrored: the lab's cluster runs on accelerated simulated time, so
 * against it the tool measures ages, time-outs and poll intervals in that time (at speed 60 a
 * 45-minute reconcile time-out is 45 seconds). Re-synchronised at every sleep, so jumps and speed
 * changes made through the lab's control routes are followed. Never used against a real cluster.
 *
 * The clock is read with the profile API's key, so its URL must be on the profile API's own origin
 * (a params file cannot send the key anywhere else), redirects are not followed, and each read is
 * bounded in time and size (a clock that never answers costs CLOCK_TIMEOUT_MS, not the run).
 */
import { systemClock, type Clock } from '../engine/clock.js';
import type { Params } from '../engine/params.js';
import { InputError } from '../errors.js';
import { LIMITS } from '../io/limits.js';
import { boundedRequest, originOf } from '../net/bounded-http.js';
import { assertSafeBaseUrl, displayUrl } from '../palette/transport.js';

interface LabTime {
  now: number;
  speed: number;
}

/** One read of the lab clock may take this long; past it the mirror keeps its last reading. */
export const CLOCK_TIMEOUT_MS = 2_000;

const isLabTime = (v: unknown): v is LabTime =>
  typeof v === 'object' && v !== null && Number.isFinite((v as LabTime).now) && Number.isFinite((v as LabTime).speed) && (v as LabTime).speed > 0;

export async function labClock(url: string, headers: Record<string, string>): Promise<Clock> {
  const read = async (): Promise<LabTime> => {
    const r = await boundedRequest({ url, headers, timeoutMs: CLOCK_TIMEOUT_MS, maxBytes: LIMITS.sideResponse });
    if (r.status !== 200) throw new Error(`the lab clock at ${url} answered ${r.status}`);
    const value = JSON.parse(r.body.toString('utf8')) as unknown;
    if (!isLabTime(value)) throw new Error(`the lab clock at ${url} answered something that is not a clock`);
    return value;
  };
  // The clock is read with the same key and project as the profile API. When that first read fails
  // (a refused key, a lab that is not there), run on real time and keep trying at each sleep: the
  // profile API's own calls report the cause properly (401, unreachable) in preflight.
  let healthy = true;
  let base = await read().catch((): LabTime => {
    healthy = false;
    return { now: Date.now(), speed: 1 };
  });
  let realBase = Date.now();
  let inflight: Promise<void> | undefined;
  const refresh = (): Promise<void> =>
    (inflight ??= read().then(
      (t) => {
        base = t;
        realBase = Date.now();
        healthy = true;
        inflight = undefined;
      },
      () => {
        // Not answering: keep the mirror; the next real call reports the problem.
        healthy = false;
        inflight = undefined;
      },
    ));
  const now = () => base.now + (Date.now() - realBase) * base.speed;
  return {
    now,
    simulated: {
      label: 'lab time',
      speed: () => base.speed,
      toWall: (t) => realBase + (t - base.now) / base.speed,
      fromWall: (wall) => base.now + (wall - realBase) * base.speed,
    },
    async sleep(ms, signal) {
      await systemClock.sleep(ms / base.speed, signal);
      // A clock that answers is followed at once; one that does not is retried in the background,
      // so a hung clock costs one time-out in all, not one per sleep.
      const pending = refresh();
      if (healthy) await pending;
    },
  };
}

/**
 * `extra.labClockUrl` checked before anything is sent: it must be an http(s) URL on the profile
 * API's origin, the only place the key may go.
 */
export function checkLabClockUrl(url: unknown, baseUrl: string): string {
  const apiOrigin = originOf(baseUrl);
  const origin = typeof url === 'string' ? originOf(url) : undefined;
  if (origin === undefined || origin !== apiOrigin) {
    const shown = typeof url === 'string' ? displayUrl(url).slice(0, 200) : typeof url;
    throw new InputError('params.lab-clock', `extra.labClockUrl (${shown}) is not on the profile API's origin (${apiOrigin ?? displayUrl(baseUrl)}): the clock is read with the API key, which goes to the profile API only.`, {
      hint: 'Remove extra.labClockUrl (only a lab needs it), or point it at the same scheme, host and port as palette.baseUrl.',
      where: 'extra.labClockUrl',
    });
  }
  return url as string;
}

/**
 * Where the params would send the key, checked before anything is created or sent: the profile
 * API's base URL (no plain http to another host unless allowed) and the lab clock (same origin).
 */
export function checkKeyDestinations(params: Params | undefined, opts: { allowInsecureHttp?: boolean } = {}): void {
  if (!params) return;
  assertSafeBaseUrl(params.palette.baseUrl, Boolean(opts.allowInsecureHttp) || params.palette.allowInsecureHttp);
  if (params.extra.labClockUrl !== undefined) checkLabClockUrl(params.extra.labClockUrl, params.palette.baseUrl);
}

/** The lab's clock when the params name one (lab params do), else the system clock. */
export async function clockFor(params: Params | undefined, apiKey: string | undefined, opts: { allowInsecureHttp?: boolean } = {}): Promise<Clock> {
  const url = params?.extra.labClockUrl;
  if (url === undefined || !params || !apiKey) return systemClock;
  checkKeyDestinations(params, opts);
  return labClock(url as string, { ApiKey: apiKey, ProjectUid: params.palette.projectUid });
}
