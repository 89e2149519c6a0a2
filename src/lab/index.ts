/**
 * The embedded lab, assembled: a simulated Palette API (plain HTTP) and a Kubernetes API for the
 * real kubectl (HTTPS, bearer token) on 127.0.0.1, both backed by one world model on simulated
 * time, seeded from a scenario. Each lab gets a fresh API key, project uid and cluster uid, and
 * writes `lab.json`, a kubeconfig and a params file into its state folder.
 *
 * Control routes on the Palette server (all need the ApiKey header):
 *   POST /_lab/token  {"action":"expire"|"renew"}   kube token expiry; renew rewrites the kubeconfig
 *   POST /_lab/clock  {"advanceMs":N} | {"speed":N}  jump simulated time / change the speed
 *   GET  /_lab/state                                 a summary of the world
 *   GET|POST /_lab/faults                            Palette API fault plan (the double's own)
 *   GET|POST /_lab/kube-faults                       Kubernetes API fault plan (same body)
 *   POST /_lab/kube-hung {"on":true|false}           the Kubernetes API stops answering
 *   GET  /_lab/audit                                 every mutating call to either API
 */
import { randomBytes, randomInt } from 'node:crypto';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { AuditLog } from './audit.js';
import { buildProfiles } from './data/profiles.js';
import { labRegistry } from './data/registry.js';
import { labSite } from './data/site.js';
import { FaultPlan } from './faults.js';
import { ResourceStore } from './kube/store.js';
import { startKubeApiServer, type KubeApiServer } from './kube/server.js';
import { labFilePaths, writeLabFiles, writeLabKubeconfig, type LabJson } from './lab-files.js';
import { builtInLabRoutes } from './palette/lab-routes.js';
import { ProfileStore } from './palette/store.js';
import { startPaletteServer, type PaletteServer } from './palette/server.js';
import type { LabRouteHandler, LabRouteResult, PaletteDialect } from './palette/types.js';
import { labClusterVariables } from './palette/variable-routes.js';
import { SimClock } from './sim-clock.js';
import { Random } from './world/random.js';
import { scenarioSpec, type LabSizes, type ScenarioName } from './world/scenarios/index.js';
import { seedSpanMs, seedWorld } from './world/seed.js';
import { World } from './world/world.js';

export interface StartLabOptions {
  scenario: ScenarioName;
  /** Folder for lab.json, the kubeconfig, the params file and the audit log (created 0700). */
  stateDir: string;
  /** Simulated-time speed-up; default 60 (a minute of cluster time per second). */
  speed?: number;
  /**
   * `spec` (default): the spec's service, a publish reaches the cluster by itself. `palette`: a
   * real Palette (its shapes, versions as objects, clone, apply, per-pack status, repave).
   */
  flavor?: PaletteDialect;
  /** Old name of `flavor`. */
  dialect?: PaletteDialect;
  /** `large` only. */
  sizes?: Partial<LabSizes>;
  /** Makes uids, names and failures repeat run to run (tests). */
  seed?: number;
  /**
   * Serve the Kubernetes API only under this path, as a gateway does (`/k8s/clusters/c-lab`):
   * the kubeconfig's server URL carries it (src/lab/kube/server-path.ts).
   */
  serverPath?: string;
}

export interface LabHandle {
  scenario: ScenarioName;
  paletteUrl: string;
  kubeUrl: string;
  apiKey: string;
  projectUid: string;
  clusterUid: string;
  clusterName: string;
  profileUids: { addon: string; infra: string };
  referenceUids: Array<{ version: string; addon: string; infra: string }>;
  /** Paths. */
  kubeconfig: string;
  params: string;
  labJsonPath: string;
  auditUrl: string;
  labJson: LabJson;
  world: World;
  clock: SimClock;
  audit: AuditLog;
  store: ResourceStore;
  profiles: ProfileStore;
  paletteFaults: FaultPlan;
  kubeFaults: FaultPlan;
  /** The Kubernetes API answers 401 until `renewToken`. */
  expireToken(): void;
  /** A new token, written into the kubeconfig. */
  renewToken(): Promise<void>;
  close(): Promise<void>;
}

const json = (status: number, body: unknown): LabRouteResult => ({ status, body });
const bad = (message: string): LabRouteResult => json(400, { code: 'BadRequest', message });

function parseJson(body: string): { ok: true; value: Record<string, unknown> } | { ok: false } {
  try {
    const value = JSON.parse(body || '{}') as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? { ok: true, value: value as Record<string, unknown> } : { ok: false };
  } catch {
    return { ok: false };
  }
}

export async function startLab(opts: StartLabOptions): Promise<LabHandle> {
  const speed = opts.speed ?? 60;
  if (!(speed > 0)) throw new Error(`the lab's speed must be above 0, got ${speed}`);
  const flavor = opts.flavor ?? opts.dialect ?? 'spec';
  const dialect = flavor;
  const seed = opts.seed ?? randomInt(2 ** 31);
  const rng = new Random(seed ^ 0x5eed);
  const spec = scenarioSpec(opts.scenario, opts.sizes);
  const paths = labFilePaths(opts.stateDir);

  const apiKey = randomBytes(24).toString('base64url');
  const projectUid = rng.hex(24);
  const clusterUid = rng.hex(24);
  const cluster = { uid: clusterUid, name: labSite.clusterName, agentNamespace: `cluster-${clusterUid}` };

  // The clock starts in the past; seeding brings it to the present (see seed.ts)
  const clock = new SimClock(speed, Date.now() - seedSpanMs);
  const store = new ResourceStore({ now: () => clock.now() });
  const layout = spec.layout ?? 'standard';
  const profileSet = buildProfiles({
    deployed: spec.deployed,
    rng,
    createdAt: Date.now() - seedSpanMs,
    flavor,
    layout,
    ...(spec.history ? { history: spec.history } : {}),
    ...(spec.referenceTags ? { referenceTags: spec.referenceTags } : {}),
    upTo: spec.target,
  });
  const profiles = new ProfileStore([...profileSet.earlier, profileSet.addon, profileSet.infra, ...profileSet.references.flatMap((r) => [r.addon, r.infra])]);

  await mkdir(opts.stateDir, { recursive: true, mode: 0o700 });
  await chmod(opts.stateDir, 0o700);
  // Each lab's audit log starts empty, so the folder's file shows this run's calls only
  await writeFile(paths.audit, '', { mode: 0o600 });
  const audit = new AuditLog(paths.audit);
  const world = new World({
    clock,
    store,
    seed,
    cluster,
    deployed: { addon: profileSet.addon, infra: profileSet.infra },
    flavor,
    lookup: (uid) => profiles.get(uid),
    ...(spec.packFailures ? { packFailures: spec.packFailures } : {}),
    variableValues: (profileUid) => labClusterVariables(profiles, cluster.uid)[profileUid],
  });
  seedWorld(world, spec);
  world.start();

  const paletteFaults = new FaultPlan(seed);
  const kubeFaults = new FaultPlan(seed + 1);
  let kube: KubeApiServer | undefined;
  let palette: PaletteServer | undefined;
  try {
    kube = await startKubeApiServer({
      store,
      hooks: world.kubeHooks,
      audit,
      faults: kubeFaults,
      tokenClock: { now: () => clock.now(), speed: () => clock.getSpeed() },
      // A scenario without Multus has no network attachment definitions group.
      absentGroups: [...world.absentGroups],
      ...(opts.serverPath !== undefined ? { serverPath: opts.serverPath } : {}),
    });
    const kubeServer = kube;
    const kubeFaultRoutes = builtInLabRoutes(audit, kubeFaults);
    const extraRoutes: Record<string, LabRouteHandler> = {
      'POST /_lab/token': async (_req, body) => {
        const parsed = parseJson(body);
        if (!parsed.ok) return bad('The request body is not valid JSON');
        if (parsed.value.action === 'expire') {
          kubeServer.expireToken();
          return json(200, { action: 'expire', kubeconfig: paths.kubeconfig });
        }
        if (parsed.value.action === 'renew') {
          await writeLabKubeconfig(opts.stateDir, kubeServer.url, kubeServer.caPem, kubeServer.renewToken());
          return json(200, { action: 'renew', kubeconfig: paths.kubeconfig });
        }
        return bad('action must be "expire" or "renew"');
      },
      'POST /_lab/clock': (_req, body) => {
        const parsed = parseJson(body);
        if (!parsed.ok) return bad('The request body is not valid JSON');
        const { advanceMs, speed: newSpeed } = parsed.value;
        if (advanceMs !== undefined) {
          if (typeof advanceMs !== 'number' || !Number.isFinite(advanceMs) || advanceMs < 0) return bad('advanceMs must be a number of milliseconds >= 0');
          clock.advance(advanceMs);
        }
        if (newSpeed !== undefined) {
          if (typeof newSpeed !== 'number' || !(newSpeed > 0)) return bad('speed must be a number above 0');
          clock.setSpeed(newSpeed);
        }
        return json(200, { simTime: new Date(clock.now()).toISOString(), speed: clock.getSpeed() });
      },
      'GET /_lab/clock': () => json(200, { simTime: new Date(clock.now()).toISOString(), now: clock.now(), speed: clock.getSpeed() }),
      'GET /_lab/state': () => json(200, { scenario: spec.name, summary: spec.summary, target: spec.target, clusterUid, ...world.summary() }),
      'GET /_lab/kube-faults': kubeFaultRoutes['GET /_lab/faults']!,
      'POST /_lab/kube-faults': kubeFaultRoutes['POST /_lab/faults']!,
      'POST /_lab/kube-hung': (_req, body) => {
        const parsed = parseJson(body);
        if (!parsed.ok || typeof parsed.value.on !== 'boolean') return bad('body must be {"on": true|false}');
        kubeServer.setHung(parsed.value.on);
        return json(200, { hung: parsed.value.on });
      },
    };
    const registries = [labRegistry(profileSet.registryUid)];
    // The cluster's Prometheus, as far as the plan asks it: one instant query of the dirty-rate gauge
    // (Prometheus HTTP API `/api/v1/query`: status, data.resultType vector, result[].metric/value).
    const openRoutes: Record<string, LabRouteHandler> = {
      'GET /_lab/prometheus/api/v1/query': (req) => {
        const query = new URL(req.url ?? '/', 'http://lab').searchParams.get('query') ?? '';
        if (query === '') return json(400, { status: 'error', errorType: 'bad_data', error: 'invalid parameter "query": unknown query' });
        const at = clock.now() / 1000;
        const result =
          query === 'kubevirt_vmi_dirty_rate_bytes_per_second'
            ? world.dirtyRates().map((r) => ({ metric: { __name__: query, namespace: r.namespace, name: r.name, node: r.node, job: 'kubevirt-prometheus-metrics' }, value: [at, String(r.bytesPerSecond)] }))
            : [];
        return json(200, { status: 'success', data: { resultType: 'vector', result } });
      },
    };
    palette = await startPaletteServer({ store: profiles, hooks: world.paletteHooks, audit, faults: paletteFaults, apiKey, projectUid, dialect, extraRoutes, openRoutes, now: () => clock.now(), registries, ...(spec.clusterShape ? { clusterShape: spec.clusterShape } : {}) });

    const labJson = await writeLabFiles({
      stateDir: opts.stateDir,
      paletteUrl: palette.url,
      kubeUrl: kube.url,
      apiKey,
      projectUid,
      clusterUid,
      clusterName: cluster.name,
      profiles: { addon: { uid: profileSet.addon.uid, name: profileSet.addon.name }, infra: { uid: profileSet.infra.uid, name: profileSet.infra.name } },
      references: profileSet.references.map((r) => ({ version: r.version, addon: r.addon.uid, infra: r.infra.uid, labels: r.labels })),
      target: spec.target,
      deployed: spec.deployed,
      layout,
      ...(spec.referenceTags ? { referenceTags: spec.referenceTags } : {}),
      scenario: spec.name,
      summary: spec.summary,
      dialect,
      speed,
      caPem: kube.caPem,
      token: kube.token,
    });

    const paletteServer = palette;
    let closed = false;
    return {
      scenario: spec.name,
      paletteUrl: palette.url,
      kubeUrl: kube.url,
      apiKey,
      projectUid,
      clusterUid,
      clusterName: cluster.name,
      profileUids: labJson.profileUids,
      referenceUids: labJson.references,
      kubeconfig: paths.kubeconfig,
      params: paths.params,
      labJsonPath: paths.labJson,
      auditUrl: labJson.auditUrl,
      labJson,
      world,
      clock,
      audit,
      store,
      profiles,
      paletteFaults,
      kubeFaults,
      expireToken: () => kubeServer.expireToken(),
      renewToken: () => writeLabKubeconfig(opts.stateDir, kubeServer.url, kubeServer.caPem, kubeServer.renewToken()),
      close: async () => {
        if (closed) return;
        closed = true;
        world.stop();
        clock.stop();
        await Promise.all([kubeServer.close(), paletteServer.close()]);
      },
    };
  } catch (err) {
    world.stop();
    clock.stop();
    await Promise.all([kube?.close(), palette?.close()]);
    throw err;
  }
}

export type { LabJson } from './lab-files.js';
export { scenarioNames, type LabSizes, type ScenarioName } from './world/scenarios/index.js';
