/**
 * The pack registry as the default source, against the lab over real sockets: a params file
 * without `references:` and `valuesDir` plans and carries exactly what the reference profiles
 * give; a registry without a tag is bad input (exit 2) naming pack, tag and registry; one that
 * cannot be reached is the environment (exit 4); nothing is ever sent.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse, stringify } from 'yaml';
import { startLab, type LabHandle } from '../../../src/lab/index.js';
import { labRegistryName } from '../../../src/lab/data/registry.js';
import { defaultMarginMs, RateLimiter, routeClass, SlidingWindow, type RateLimits } from '../../../src/palette/rate-limit.js';
import type { CustomizeOutput } from '../../../src/steps/customize/types.js';
import type { PlanOutput } from '../../../src/steps/plan/types.js';
import { runCommand } from './support/commands.js';
import { startRecordingProxy } from './support/recording-proxy.js';

let lab: LabHandle;
const dir = mkdtempSync(join(tmpdir(), 'up16-registry-'));

beforeAll(async () => {
  lab = await startLab({ scenario: 'healthy', stateDir: join(dir, 'lab'), seed: 16, speed: 60 });
});
afterAll(async () => {
  await lab?.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = () => ({ UPGRADE_PILOT_API_KEY: lab.apiKey });

/** The lab's params (registry by default), changed and written to a new file. */
function params(name: string, change: (p: Record<string, any>) => void = () => undefined, from = lab.params): string {
  const doc = parse(readFileSync(from, 'utf8')) as Record<string, any>;
  change(doc);
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, stringify(doc));
  return file;
}

const mutations = () => lab.audit.entries({ api: 'palette' }).filter((e) => e.method !== 'GET');

describe('a params file without references gives the same plan and customizations as one with them', () => {
  it('plan: the same hops, pack moves, labels and expectations; only the sources differ', async () => {
    const plain = await runCommand('plan', ['--params', lab.params, '--json'], env());
    const refs = await runCommand('plan', ['--params', lab.labJson.paramsWithReferences, '--json'], env());
    expect([plain.code, refs.code]).toEqual([0, 0]);
    const a = JSON.parse(plain.stdout) as PlanOutput;
    const b = JSON.parse(refs.stdout) as PlanOutput;
    const shape = (p: PlanOutput) => ({
      hops: p.hops.map((h) => ({ from: h.from, to: h.to, kubevirt: h.kubevirtVersion, cdi: h.cdiVersion, profiles: h.profiles.map((x) => ({ role: x.role, to: x.toVersion, packs: x.packs.map((k) => `${k.name} ${k.from}→${k.to}`) })) })),
      expectations: p.expectations,
    });
    expect(shape(a)).toEqual(shape(b));
    expect(a.hops.map((h) => h.to)).toEqual(['4.5.4', '4.6.3']);
    expect(a.versionSource).toMatch(new RegExp(`^registry "${labRegistryName}" \\([0-9a-f]{24}\\)$`));
    // The registry holds 4.5.1 and 4.5.4: the ladder takes the highest patch of the minor.
    expect(a.hops[0]!.source).toBe(`the highest 4.5.x tag in ${a.versionSource}`);
    expect(a.hops[0]!.profiles.map((p) => p.reference?.kind)).toEqual(['registry', 'registry']);
    expect(a.hops[0]!.profiles[0]!.stays).toEqual(['ubuntu-maas 22.04', 'kubernetes 1.32.2']);
    expect(b.hops[0]!.profiles.map((p) => p.reference?.kind)).toEqual(['profile', 'profile']);
  }, 60_000);

  it('diff: the same carried values, decisions and rules, pack by pack, hop by hop', async () => {
    const plain = await runCommand('diff', ['--params', lab.params, '--json'], env());
    const refs = await runCommand('diff', ['--params', lab.labJson.paramsWithReferences, '--json'], env());
    expect([plain.code, refs.code]).toEqual([0, 0]);
    const shape = (out: CustomizeOutput) =>
      out.byHop.map((h) => ({ hop: h.index, profiles: h.profiles.map((p) => ({ role: p.role, rules: p.rules.map((r) => `${r.id} ${r.status}`), packs: p.packs.map((k) => ({ name: k.name, tag: k.tag, mode: k.mode, counts: k.counts, entries: k.entries })) })) }));
    const a = JSON.parse(plain.stdout) as CustomizeOutput;
    const b = JSON.parse(refs.stdout) as CustomizeOutput;
    expect(shape(a)).toEqual(shape(b));
    expect(a.byHop.flatMap((h) => h.profiles.flatMap((p) => p.packs.map((k) => k.mode)))).not.toContain('twoWay');
    expect(a.byHop[0]!.profiles[1]!.packs[0]!.sources.newDefaults).toMatch(/^lb-metallb-helm 0\.14\.9 in the pack registry "Palette Registry"/);
    expect(mutations()).toEqual([]);
  }, 90_000);
});

describe('a registry without what the plan needs', () => {
  it('lacks the target tag: exit 2 naming the pack, the tag and the registry', async () => {
    const r = await runCommand('plan', ['--params', params('no-target', (p) => (p.target = '4.6.9'))], env());
    expect(r.code).toBe(2);
    expect(r.error).toMatch(/^The pack registry "Palette Registry" \([0-9a-f]{24}\) has no virtual-machine-orchestrator 4\.6\.9 \(the target\)\. It holds virtual-machine-orchestrator 4\.6\.0, 4\.6\.3, 4\.7\.2, 4\.8\.1, 4\.8\.4, 4\.9\.3, 4\.9\.9, 4\.10\.0\.$/);
    expect(mutations()).toEqual([]);
  });

  it('lacks a pack tag that moveWith names: exit 2 naming that pack, tag and registry (diff too)', async () => {
    const file = params('no-pack-tag', (p) => (p.moveWith.nginx['4.6.3'] = '1.12.9'));
    for (const command of ['plan', 'diff'] as const) {
      const r = await runCommand(command, ['--params', file], env());
      expect(r.code).toBe(2);
      expect(r.error).toMatch(/^The pack registry "Palette Registry" \([0-9a-f]{24}\) has no nginx 1\.12\.9 \(moveWith for 4\.6\.3\)\. It holds nginx 1\.10\.1, 1\.11\.3, 1\.12\.1\.$/);
    }
    expect(mutations()).toEqual([]);
  }, 60_000);

  it('cannot be reached: exit 4, the registry read named, nothing sent', async () => {
    lab.paletteFaults.set([
      { route: 'GET /v1/packs', faults: { dropRate: 1 } },
      { route: 'GET /v1/packs/**', faults: { dropRate: 1 } },
    ]);
    try {
      const r = await runCommand('diff', ['--params', params('retry-fast', (p) => (p.palette.timeout = '2s'))], env());
      expect(r.code).toBe(4);
      expect(r.error).toMatch(/^Cannot read the tags of virtual-machine-orchestrator from the pack registry ("Palette Registry" \()?[0-9a-f]{24}\)?: Cannot reach the profile API at \S+ for GET \/v1\/packs\/virtual-machine-orchestrator\/registries\//);
      expect(r.hint).toMatch(/`references:` .* or `valuesDir:`/);
    } finally {
      lab.paletteFaults.clear();
    }
    expect(mutations()).toEqual([]);
  }, 90_000);
});

describe('the client-side rate limits', () => {
  /** Most starts in any window of `windowMs`. */
  const busiestIn = (times: number[], windowMs: number) => {
    const sorted = [...times].sort((x, y) => x - y);
    let busiest = 0;
    for (let i = 0, j = 0; j < sorted.length; j++) {
      while (sorted[j]! - sorted[i]! >= windowMs) i++;
      busiest = Math.max(busiest, j - i + 1);
    }
    return busiest;
  };
  const byClass = (limits: RateLimits, seen: Array<{ path: string; at: number }>) => {
    const out = new Map<string, number[]>();
    for (const q of seen) out.set(routeClass(limits, q.path), [...(out.get(routeClass(limits, q.path)) ?? []), q.at]);
    return out;
  };

  it('a cold plan and a cold diff never exceed the configured rate in any second, by the requests the server saw', async () => {
    const proxy = await startRecordingProxy(lab.paletteUrl);
    // Each start the limiter grants, as the client makes it.
    const granted: Array<{ path: string; at: number }> = [];
    const acquire = RateLimiter.prototype.acquire;
    const spy = vi.spyOn(RateLimiter.prototype, 'acquire').mockImplementation(async function (this: RateLimiter, path: string, signal?: AbortSignal) {
      await acquire.call(this, path, signal);
      granted.push({ path, at: performance.now() });
    });
    // The limiter's own record of each start, at the instant it granted it (a stalled event loop can
    // hold back the caller's continuation, and with it the time `granted` notes; not this one).
    const starts: Array<{ window: SlidingWindow; at: number }> = [];
    const take = SlidingWindow.prototype.take;
    const takeSpy = vi.spyOn(SlidingWindow.prototype, 'take').mockImplementation(function (this: SlidingWindow, now: number) {
      starts.push({ window: this, at: now });
      take.call(this, now);
    });
    // The server's count can only be trusted while this process kept time: a stall longer than the
    // limiter's margin bunches requests up on their way to the proxy (the proxy runs here too).
    const stalls = monitorEventLoopDelay({ resolution: 10 });
    stalls.enable();
    try {
      const limits = { '/v1/packs': 4, '/v1/registries': 4, '/v1/clusterprofiles': 6, default: 4 };
      const file = params('limited', (p) => {
        p.palette.baseUrl = proxy.url;
        p.palette.rateLimits = limits;
        // The lab's clock is read with the key on the profile API's origin only: through the proxy that is another origin, and only Palette's requests are counted here.
        delete (p.extra as Record<string, unknown> | undefined)?.labClockUrl;
      });
      for (const command of ['plan', 'diff'] as const) {
        const from = proxy.requests.length;
        const grantedFrom = granted.length;
        const startsFrom = starts.length;
        stalls.reset();
        const r = await runCommand(command, ['--params', file], env());
        expect(r.code, r.error).toBe(0);
        const seen = proxy.requests.slice(from);
        // The client never starts more than the limit in any second (its own window is a second and a
        // margin, which also covers the instant between its start and this record of it).
        const byWindow = new Map<SlidingWindow, number[]>();
        for (const t of starts.slice(startsFrom)) byWindow.set(t.window, [...(byWindow.get(t.window) ?? []), t.at]);
        expect(byWindow.size).toBeGreaterThan(1);
        for (const [window, times] of byWindow) {
          expect(busiestIn(times, 1000), `${command}: a class limited to ${window.limit}/s, as the limiter started them`).toBeLessThanOrEqual(window.limit);
        }
        expect(granted.slice(grantedFrom).some((g) => g.path.startsWith('/v1/packs'))).toBe(true);
        // And the server saw no more than the limit in any second, unless this process itself stalled
        // for longer than the margin (then what the proxy timed says more about the machine).
        const stalledMs = stalls.max / 1e6;
        // Requests of a class reach the server in the order they started: how unevenly their trips
        // took (the latest trip minus the earliest) is what can bunch them there beyond the margin.
        const startedBy = byClass(limits, granted.slice(grantedFrom));
        const spreadMs = Math.max(
          0,
          ...[...byClass(limits, seen)].map(([cls, arrived]) => {
            const started = [...(startedBy.get(cls) ?? [])].sort((x, y) => x - y);
            const trips = [...arrived].sort((x, y) => x - y).map((at, i) => at - (started[i] ?? at));
            return trips.length === started.length && trips.length ? Math.max(...trips) - Math.min(...trips) : 0;
          }),
        );
        if (stalledMs <= defaultMarginMs && spreadMs <= defaultMarginMs) {
          for (const [cls, times] of byClass(limits, seen)) {
            expect(busiestIn(times, 1000), `${command}: ${cls}, as the server saw them`).toBeLessThanOrEqual(limits[cls as keyof typeof limits]);
          }
        } else if (spreadMs > defaultMarginMs) {
          console.log(`rate limits, ${command}: trips to the server differed by ${Math.round(spreadMs)} ms (over the ${defaultMarginMs} ms margin); the server's count was not judged`);
        } else {
          console.log(`rate limits, ${command}: the test process stalled for ${Math.round(stalledMs)} ms (over the ${defaultMarginMs} ms margin); the server's count was not judged`);
        }
        expect(seen.some((q) => q.path.startsWith('/v1/packs'))).toBe(true);
      }
    } finally {
      stalls.disable();
      spy.mockRestore();
      takeSpy.mockRestore();
      await proxy.close();
    }
  }, 120_000);
});
