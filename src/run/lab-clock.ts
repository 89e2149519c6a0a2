/**
 * The clock of the embedded lab, mirrored: the lab's cluster runs on accelerated simulated time, so
 * against it the tool measures ages, time-outs and poll intervals in that time (at speed 60 a
 * 45-minute reconcile time-out is 45 seconds). Re-synchronised at every sleep, so jumps and speed
 * changes made through the lab's control routes are followed. Never used against a real cluster.
 */
import { systemClock, type Clock } from '../engine/clock.js';

interface LabTime {
  now: number;
  speed: number;
}

export async function labClock(url: string, headers: Record<string, string>): Promise<Clock> {
  const read = async (): Promise<LabTime> => {
    const r = await fetch(url, { headers });
    if (!r.ok) throw new Error(`the lab clock at ${url} answered ${r.status}`);
    return (await r.json()) as LabTime;
  };
  // The clock is read with the same key and project as the profile API. When that first read fails
  // (a refused key, a lab that is not there), run on real time and keep trying at each sleep: the
  // profile API's own calls report the cause properly (401, unreachable) in preflight.
  let base = await read().catch((): LabTime => ({ now: Date.now(), speed: 1 }));
  let realBase = Date.now();
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
      try {
        base = await read();
        realBase = Date.now();
      } catch {
        // The lab stopped answering: keep the mirror; the next real call reports the problem.
      }
    },
  };
}

/** The lab's clock when the params name one (lab params do), else the system clock. */
export async function clockFor(extra: Record<string, unknown> | undefined, apiKey: string | undefined, projectUid: string | undefined): Promise<Clock> {
  const url = extra?.labClockUrl;
  if (typeof url !== 'string' || !apiKey || !projectUid) return systemClock;
  return labClock(url, { ApiKey: apiKey, ProjectUid: projectUid });
}
