/**
 * The fleet lab: one Palette (palette flavor) with N clusters that share their two profiles, each
 * cluster its own world and its own Kubernetes API (one HTTPS server per cluster, under a gateway
 * path `/k8s/clusters/<name>` as Rancher and Palette's own proxy serve them). Every cluster starts
 * as the `pack-error` scenario's site without its fault (VMO 4.5.4, target 4.6.3: one hop); a
 * cluster named in `fails` gets its fault (faults.ts: pack-error, stuck-migration, node-not-ready,
 * each the single-cluster lab's own). It writes lab.json (with `fleet`: a ready
 * fleet file), a kubeconfig per cluster and the fleet file (canary 1, wave-1 of up to 3, wave-2 the
 * rest, failure threshold 1).
 *
 * Palette facts: a shared profile's versions are shared objects; each cluster attaches versions
 * with its own apply (domain-notes "Palette for fleets and profile variables"). The cluster routes
 * are keyed by uid, so one Palette double serves every world through hooks that route by uid.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { AuditLog } from '../audit.js';
import { buildProfiles } from '../data/profiles.js';
import { labRegistry } from '../data/registry.js';
import { FaultPlan } from '../faults.js';
import { writeKubeconfig } from '../kube/kubeconfig.js';
import { ResourceStore } from '../kube/store.js';
import { startKubeApiServer, type KubeApiServer } from '../kube/server.js';
import { labContext, labFilePaths, labParams } from '../lab-files.js';
import { startPaletteServer, type PaletteServer } from '../palette/server.js';
import { ProfileStore } from '../palette/store.js';
import type { LabRouteResult, PaletteClusterHooks, PaletteLabHooks } from '../palette/types.js';
import { SimClock } from '../sim-clock.js';
import { defaultRateLimits } from '../../palette/rate-limit.js';
import { RequestRate } from './request-rate.js';
import { nextLabel } from '../../domain/ladder/labels.js';
import { Random } from '../world/random.js';
import { packErrorScenario } from '../world/scenarios/pack-error.js';
import { seedSpanMs, seedWorld } from '../world/seed.js';
import { World } from '../world/world.js';
import { fleetFileFor, type FleetLabCluster } from './fleet-file.js';
import { clearFault, faultPacks, faultySpec, injectFault, liveFaultKinds, type FleetFaultKind } from './faults.js';
import { fleetIngressIP, holdIngressAsVariable, ingressVariable } from './ingress-variable.js';
import { labClusterVariables, setClusterVariables } from '../palette/variable-routes.js';

/** A cluster's params with its own ingress address (the site's value the rules and checks expect). */
function withIngress(params: Record<string, unknown>, ingressIP: string | undefined): Record<string, unknown> {
  return ingressIP ? { ...params, site: { ...(params.site as Record<string, unknown>), ingressIP } } : params;
}

export { fleetFaultKinds, type FleetFaultKind } from './faults.js';

export interface StartFleetLabOptions {
  clusters: number;
  stateDir: string;
  speed?: number;
  seed?: number;
  /** Cluster name → how it fails. */
  fails?: Record<string, FleetFaultKind>;
  /** Clusters a cluster template manages (`spec.clusterTemplate` set): a fleet must leave them out. */
  templateManaged?: string[];
  /** The shared add-on profile holds the ingress address as the profile variable INGRESS_IP, each cluster its own value (ingress-variable.ts). */
  variables?: boolean;
}

export interface FleetLabMember extends FleetLabCluster {
  world: World;
  kube: KubeApiServer;
  /** The pack failures this world plays (mutable: clearing a fault removes its entry). */
  failures: Record<string, string>;
  /** The fault it plays now, if any (from --fleet-fail, or made live through the control route). */
  fault?: FleetFaultKind;
}

export interface FleetLabHandle {
  paletteUrl: string;
  apiKey: string;
  projectUid: string;
  auditUrl: string;
  fleetFile: string;
  labJsonPath: string;
  members: FleetLabMember[];
  profiles: ProfileStore;
  audit: AuditLog;
  clock: SimClock;
  /** The cluster's fault is gone (its operator fixed the cause): the next attempt goes through. */
  clearFault(name: string): boolean;
  close(): Promise<void>;
}

/**
 * A cluster's entries in the one audit log, under the path the client sent (the gateway path
 * included): the Kubernetes API servers record the path inside it, the same for every cluster.
 */
class ClusterAudit extends AuditLog {
  constructor(
    private readonly inner: AuditLog,
    private readonly prefix: string,
  ) {
    super();
  }

  override record(entry: Parameters<AuditLog['record']>[0]) {
    return this.inner.record({ ...entry, path: `${this.prefix}${entry.path}` });
  }
}

export const fleetClusterName = (i: number) => `store-${String(i).padStart(3, '0')}`;

/**
 * A lab cluster's tags in Palette (`metadata.labels`; a key-only tag has the value `spectro__tag`,
 * domain-notes): `region` east for store-001, 003, ..., west for the others, and the key-only `vmo`.
 */
export const labelsOf = (name: string): Record<string, string> => ({ region: Number(name.slice(-3)) % 2 === 1 ? 'east' : 'west', vmo: 'spectro__tag' });

export async function startFleetLab(opts: StartFleetLabOptions): Promise<FleetLabHandle> {
  const n = opts.clusters;
  if (!(Number.isInteger(n) && n >= 1 && n <= 500)) throw new Error(`a lab fleet has 1 to 500 clusters, got ${n}`);
  const names = Array.from({ length: n }, (_, i) => fleetClusterName(i + 1));
  for (const [flag, list] of [['--fleet-fail', Object.keys(opts.fails ?? {})], ['--fleet-template', opts.templateManaged ?? []]] as const) {
    for (const name of list) if (!names.includes(name)) throw new Error(`${flag} names ${name}, which is not a cluster of this fleet (store-001 to ${fleetClusterName(n)})`);
  }
  const speed = opts.speed ?? 60;
  const seed = opts.seed ?? randomInt(2 ** 31);
  const rng = new Random(seed ^ 0xf1ee7);
  const spec = { ...packErrorScenario(), packFailures: {} };
  const apiKey = randomBytes(24).toString('base64url');
  const projectUid = rng.hex(24);
  // Each world has its own clock: seeding moves a clock forward through the site's past (seed.ts),
  // which on a shared clock would replay every earlier world's past again. The Palette's clock is
  // the first world's; they all run at the same speed from the same present.
  const base = Date.now() - seedSpanMs;
  const clocks: SimClock[] = [];
  const profileSet = buildProfiles({ deployed: spec.deployed, rng, createdAt: Date.now() - seedSpanMs, flavor: 'palette', layout: 'standard', upTo: spec.target });
  if (opts.variables) holdIngressAsVariable(profileSet.addon);
  const profiles = new ProfileStore([...profileSet.earlier, profileSet.addon, profileSet.infra, ...profileSet.references.flatMap((r) => [r.addon, r.infra])]);
  /** Each cluster's own ingress address, when the add-on profile holds it as a variable. */
  const ingressOf = (i: number) => (opts.variables ? fleetIngressIP(i) : undefined);

  await mkdir(opts.stateDir, { recursive: true, mode: 0o700 });
  await chmod(opts.stateDir, 0o700);
  const paths = labFilePaths(opts.stateDir);
  await writeFile(paths.audit, '', { mode: 0o600 });
  const audit = new AuditLog(paths.audit);

  const members: FleetLabMember[] = [];
  /** The operator fixed the cause: the fault is gone, and the agent's next reconcile tries the failed change again. */
  const clear = (m: FleetLabMember): boolean => {
    const kind = m.fault;
    delete m.fault;
    return clearFault(m.world, kind, m.failures);
  };
  let started = Date.now();
  let palette: PaletteServer | undefined;
  const stopAll = async () => {
    for (const m of members) m.world.stop();
    for (const c of clocks) c.stop();
    await Promise.all([...members.map((m) => m.kube.close()), palette?.close()]);
  };
  try {
    for (let i = 1; i <= n; i++) {
      const name = fleetClusterName(i);
      const uid = rng.hex(24);
      if (clocks.length === 0) started = Date.now();
      // Started later, a clock starts further on by what the first ran meanwhile: all show one time.
      const clock = new SimClock(speed, base + (Date.now() - started) * speed);
      clocks.push(clock);
      const store = new ResourceStore({ now: () => clock.now() });
      const failures = faultPacks(opts.fails?.[name]);
      // The cluster's value was given when it was deployed: the world renders its packs with it from the start.
      const ingressIP = ingressOf(i);
      if (ingressIP) setClusterVariables(profiles, uid, profileSet.addon.uid, { [ingressVariable.name]: ingressIP });
      const world = new World({
        clock,
        store,
        seed: seed + i,
        cluster: { uid, name, agentNamespace: `cluster-${uid}` },
        deployed: { addon: profileSet.addon, infra: profileSet.infra },
        flavor: 'palette',
        lookup: (u) => profiles.get(u),
        packFailures: failures,
        variableValues: (profileUid) => labClusterVariables(profiles, uid)[profileUid],
      });

      seedWorld(world, faultySpec(spec, opts.fails?.[name]));
      world.start();
      const kube = await startKubeApiServer({
        store,
        hooks: world.kubeHooks,
        audit: new ClusterAudit(audit, `/k8s/clusters/${name}`),
        faults: new FaultPlan(seed + i),
        tokenClock: { now: () => clock.now(), speed: () => clock.getSpeed() },
        absentGroups: [...world.absentGroups],
        serverPath: `/k8s/clusters/${name}`,
      });
      const dir = join(opts.stateDir, 'clusters', name);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const kubeconfig = join(dir, 'kubeconfig');
      await writeKubeconfig(kubeconfig, { server: kube.url, caPem: kube.caPem, token: kube.token, context: labContext, cluster: name, user: `${name}-admin` });
      // Also one folder of kubeconfigs named by cluster, for a fleet file that takes its clusters from Palette (`kubeconfigDir`).
      await mkdir(join(opts.stateDir, 'kubeconfigs'), { recursive: true, mode: 0o700 });
      await writeKubeconfig(join(opts.stateDir, 'kubeconfigs', name), { server: kube.url, caPem: kube.caPem, token: kube.token, context: labContext, cluster: name, user: `${name}-admin` });
      members.push({ name, uid, kubeconfig, world, kube, failures, ...(opts.fails?.[name] ? { fault: opts.fails[name] } : {}) });
    }

    // A cluster deleted from Palette after the plan (POST /_lab/fleet-remove): every route answers 404.
    const removed = new Set<string>();
    // Tags an operator changed in Palette since the lab started (POST /_lab/fleet-tags), by cluster name.
    const retagged = new Map<string, Record<string, string>>();
    const byUid = (uid: string) => (removed.has(uid) ? undefined : members.find((m) => m.uid === uid)?.world.paletteHooks);
    const templateUid = rng.hex(24);
    const managed = new Set(members.filter((m) => opts.templateManaged?.includes(m.name)).map((m) => m.uid));
    const cluster: PaletteClusterHooks = {
      view: (uid) => {
        const view = byUid(uid)?.cluster?.view(uid);
        const m = members.find((x) => x.uid === uid);
        const tagged = view && m ? { ...view, labels: retagged.get(m.name) ?? labelsOf(m.name) } : view;
        return tagged && managed.has(uid) ? { ...tagged, clusterTemplate: { uid: templateUid, projectUid } } : tagged;
      },
      apply: (uid, entries, resolve) => byUid(uid)?.cluster?.apply(uid, entries, resolve) ?? { ok: false, status: 404, code: 'ResourceNotFound', message: `Cluster '${uid}' not found` },
      approveRepave: (uid) => byUid(uid)?.cluster?.approveRepave(uid) ?? { ok: false, status: 404, code: 'ResourceNotFound', message: `Cluster '${uid}' not found` },
      repaveReasons: (uid) => byUid(uid)?.cluster?.repaveReasons(uid),
      events: (uid) => byUid(uid)?.cluster?.events(uid),
      notifications: (uid) => byUid(uid)?.cluster?.notifications(uid),
    };
    const hooks: PaletteLabHooks = {
      // A published version raises "Updates Available" on every cluster that runs its profile.
      onPublish: (profile) => {
        for (const m of members) m.world.paletteHooks.onPublish?.(profile);
      },
      clusterProfiles: (uid) => byUid(uid)?.clusterProfiles(uid),
      cluster,
      // A cluster runs the versions its world has deployed (an apply moves it to the new one).
      inUseClusters: (profileUid) => members.filter((m) => byUid(m.uid)?.clusterProfiles(m.uid)?.some((d) => d.uid === profileUid)).map((m) => ({ uid: m.uid, name: m.name, projectUid })),
    };
    const json = (status: number, body: unknown): LabRouteResult => ({ status, body });
    /** A control route's body `{"cluster": NAME, ...}`: the member it names, or the refusal. */
    const memberAsked = (body: string, then: (m: FleetLabMember, asked: Record<string, unknown>) => LabRouteResult): LabRouteResult => {
      let asked: Record<string, unknown>;
      try {
        asked = JSON.parse(body || '{}') as Record<string, unknown>;
      } catch {
        return json(400, { code: 'BadRequest', message: 'The request body is not valid JSON' });
      }
      const m = members.find((x) => x.name === asked.cluster);
      return m ? then(m, asked) : json(404, { code: 'ResourceNotFound', message: `No cluster ${String(asked.cluster)} in this fleet` });
    };
    const clock = clocks[0]!;
    // Wall-clock arrivals: Palette counts real seconds, whatever the simulated time.
    const rate = new RequestRate(defaultRateLimits);
    palette = await startPaletteServer({
      store: profiles,
      hooks,
      audit,
      faults: new FaultPlan(seed),
      apiKey,
      projectUid,
      dialect: 'palette',
      now: () => clock.now(),
      onRequest: (_method, path) => rate.record(path),
      registries: [labRegistry(profileSet.registryUid)],
      extraRoutes: {
        'GET /_lab/request-rate': () => json(200, rate.peaks()),
        'GET /_lab/clock': () => json(200, { simTime: new Date(clock.now()).toISOString(), now: clock.now(), speed: clock.getSpeed() }),
        // The cluster is deleted from Palette (its world goes on; nothing reaches it through Palette).
        'POST /_lab/fleet-remove': (_req, body) =>
          memberAsked(body, (m) => {
            removed.add(m.uid);
            return json(200, { cluster: m.name, removed: true });
          }),
        // {"cluster": NAME, "labels": {...}}: the cluster's tags are now these (metadata.labels, key-only as spectro__tag).
        'POST /_lab/fleet-tags': (_req, body) =>
          memberAsked(body, (m, asked) => {
            const labels = asked.labels;
            if (typeof labels !== 'object' || labels === null || Object.values(labels).some((v) => typeof v !== 'string')) return json(400, { code: 'BadRequest', message: 'labels must be an object of strings' });
            retagged.set(m.name, { ...(labels as Record<string, string>) });
            return json(200, { cluster: m.name, labels });
          }),
        // {"cluster": NAME} clears its fault; {"cluster": NAME, "fault": KIND} makes it fail now (liveFaultKinds).
        'POST /_lab/fleet-fault': (_req, body) =>
          memberAsked(body, (m, asked) => {
            if (asked.fault === undefined) return json(200, { cluster: m.name, cleared: true, retried: clear(m) });
            if (!(liveFaultKinds as readonly unknown[]).includes(asked.fault)) return json(400, { code: 'BadRequest', message: `fault must be one of ${liveFaultKinds.join(', ')}` });
            const kind = asked.fault as (typeof liveFaultKinds)[number];
            m.fault = kind;
            injectFault(m.world, kind, m.failures);
            return json(200, { cluster: m.name, fault: m.fault });
          }),
      },
    });

    const params = members.map((m, i) =>
      withIngress(labParams({
        stateDir: opts.stateDir,
        paletteUrl: palette!.url,
        kubeUrl: m.kube.url,
        apiKey,
        projectUid,
        clusterUid: m.uid,
        clusterName: m.name,
        profiles: { addon: { uid: profileSet.addon.uid, name: profileSet.addon.name }, infra: { uid: profileSet.infra.uid, name: profileSet.infra.name } },
        references: [],
        target: spec.target,
        deployed: spec.deployed,
        layout: 'standard',
        scenario: 'fleet',
        summary: '',
        dialect: 'palette',
        speed,
        caPem: m.kube.caPem,
        token: m.kube.token,
      }), ingressOf(i + 1)),
    );
    const fleetFile = join(opts.stateDir, 'fleet.yaml');
    // One label per shared profile for the hop: every cluster attaches the same new version.
    const labelFor = (p: { name: string; published?: { version: string } | undefined }) => nextLabel(p.published?.version ?? '1.0.0', new Set(profiles.versionsOf(p.name).map((v) => v.version)));
    const labels = { addon: labelFor(profileSet.addon), infra: labelFor(profileSet.infra) };
    await writeFile(fleetFile, stringify(fleetFileFor(members, params, spec.target, labels)), { mode: 0o600 });
    const auditUrl = `${palette.url}/_lab/audit`;
    const lab = {
      paletteUrl: palette.url,
      apiKey,
      projectUid,
      fleet: fleetFile,
      auditUrl,
      clusters: members.map((m) => ({ name: m.name, uid: m.uid, kubeconfig: m.kubeconfig, kubeUrl: m.kube.url, tags: Object.entries(labelsOf(m.name)).map(([k, v]) => (v === 'spectro__tag' ? k : `${k}=${v}`)), ...(opts.fails?.[m.name] ? { fails: opts.fails[m.name] } : {}), ...(managed.has(m.uid) ? { clusterTemplate: templateUid } : {}) })),
      profileUids: { addon: profileSet.addon.uid, infra: profileSet.infra.uid },
      ...(opts.variables ? { variables: { profile: profileSet.addon.uid, name: ingressVariable.name, values: Object.fromEntries(members.map((m, i) => [m.name, ingressOf(i + 1)])) } } : {}),
      controlUrls: { requestRate: `${palette.url}/_lab/request-rate`, clock: `${palette.url}/_lab/clock`, fleetFault: `${palette.url}/_lab/fleet-fault`, fleetRemove: `${palette.url}/_lab/fleet-remove`, faults: `${palette.url}/_lab/faults` },
      flavor: 'palette',
      speed,
      target: spec.target,
      stateDir: opts.stateDir,
    };
    // Whole or not at all: whoever waits for lab.json reads it as soon as it exists.
    const tmp = `${paths.labJson}.${process.pid}.tmp`;
    await writeFile(tmp, `${JSON.stringify(lab, null, 2)}\n`, { mode: 0o600 });
    await rename(tmp, paths.labJson);
    const server = palette;
    return {
      paletteUrl: server.url,
      apiKey,
      projectUid,
      auditUrl,
      fleetFile,
      labJsonPath: paths.labJson,
      members,
      profiles,
      audit,
      clock: clocks[0]!,
      clearFault: (name) => {
        const m = members.find((x) => x.name === name);
        return m ? (clear(m), true) : false;
      },
      close: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
