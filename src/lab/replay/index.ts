/**
 * `lab --replay FILE`: a capture served as the lab. The Kubernetes API (the lab's server, seeded with
 * the captured objects and log tails) and the profile API (the captured answers, in the captured
 * flavor) on 127.0.0.1, a clock that starts at the cluster's time of the capture, and the lab's
 * files (lab.json, kubeconfig, params.yaml, the values folder if the site had one), so `plan`,
 * `diff`, `verify` and `rehearse` run against the site's state offline.
 *
 * Frozen: nothing simulates, and every change is refused by both APIs (405 from the profile API,
 * 403 from the Kubernetes API) and written to the audit log, so a replay never drifts from the
 * capture and a session that tries to change it stops at once instead of believing it did.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { ParamsSchema } from '../../engine/params.js';
import { InputError } from '../../errors.js';
import { describeIssues } from '../../palette/issues.js';
import type { CaptureDocument } from '../../capture/types.js';
import { AuditLog } from '../audit.js';
import { FaultPlan } from '../faults.js';
import { ResourceStore } from '../kube/store.js';
import { startKubeApiServer, type KubeApiServer } from '../kube/server.js';
import { labContext, labFilePaths, writeLabKubeconfig, writePrivate, type LabJson } from '../lab-files.js';
import { ProfileStore } from '../palette/store.js';
import { startPaletteServer, type PaletteServer } from '../palette/server.js';
import type { LabRouteHandler } from '../palette/types.js';
import { absentGroups, replayLogs, seedReplayStore } from './kube.js';
import { loadCapture } from './load.js';
import { replayRoutes } from './palette-routes.js';

export interface StartReplayOptions {
  /** The capture file. */
  file: string;
  /** Folder for lab.json, the kubeconfig, the params file, the values folder and the audit log (0700). */
  stateDir: string;
  /** Serve the Kubernetes API only under this path, as a gateway does (`lab --server-path`). */
  serverPath?: string;
}

/** lab.json of a replay: the lab's contract (URLs, key, uids, kubeconfig, params, audit), and what is replayed. */
export type ReplayLabJson = Pick<LabJson, 'paletteUrl' | 'apiKey' | 'projectUid' | 'clusterUid' | 'profileUids' | 'kubeconfig' | 'params' | 'auditUrl' | 'kubeUrl' | 'summary' | 'flavor' | 'dialect' | 'clusterName' | 'target' | 'stateDir'> & {
  /** The replay's control routes (no token, clock or fault changes: it is frozen). */
  controlUrls: { state: string; clock: string; faults: string };
  scenario: 'replay';
  speed: 1;
  replay: {
    file: string;
    capturedAt: string;
    clusterTime: string;
    tool: string;
    serverVersion: string;
    readOnly: true;
    /** Where the site's verify judged failures from, and the `--since` that judges the same on this replay. */
    verifySince?: { at: string; source: string; arg: string };
  };
};

export interface ReplayHandle {
  paletteUrl: string;
  kubeUrl: string;
  apiKey: string;
  kubeconfig: string;
  params: string;
  labJson: ReplayLabJson;
  /** What the Kubernetes API serves, and what it left out. */
  served: { objects: Record<string, number>; logs: number; answers: number; skipped: string[] };
  close(): Promise<void>;
}

/** The verbs RBAC names changes by: all refused. */
const CHANGES = ['create', 'update', 'patch', 'delete', 'deletecollection'];
/** Who the refusals name, so kubectl's "Forbidden" says why. */
const REPLAY_USER = 'upgrade-pilot-replay (a frozen capture: read-only)';

/** The site's params pointed at the replay: its URLs, kubeconfig, clock and values folder. Validated as every params file is. */
function replayParams(doc: CaptureDocument, file: string, urls: { palette: string; kubeconfig: string; valuesDir: string | undefined }): Record<string, unknown> {
  const site = structuredClone(doc.params) as Record<string, Record<string, unknown> | undefined>;
  const params = {
    ...site,
    palette: { ...site.palette, baseUrl: urls.palette },
    cluster: { ...site.cluster, kubeconfig: urls.kubeconfig, context: labContext },
    ...(urls.valuesDir ? { valuesDir: urls.valuesDir } : {}),
    extra: { ...site.extra, labClockUrl: `${urls.palette}/_lab/clock` },
  };
  const checked = ParamsSchema.safeParse(params);
  if (!checked.success) {
    throw new InputError('replay.params', `The site parameters in ${file} do not validate: ${describeIssues(checked.error.issues).slice(0, 500)}.`, { hint: 'The capture was made with other parameters than this version accepts: capture the site again with this version.', where: file });
  }
  return params;
}

async function writeValues(dir: string, values: Record<string, string>): Promise<string | undefined> {
  const files = Object.entries(values);
  if (files.length === 0) return undefined;
  for (const [rel, text] of files) {
    const [pack, name] = rel.split('/') as [string, string];
    await mkdir(join(dir, pack), { recursive: true, mode: 0o700 });
    await writeFile(join(dir, pack, name), text, { mode: 0o600 });
  }
  return dir;
}

export async function startReplay(opts: StartReplayOptions): Promise<ReplayHandle> {
  const doc = loadCapture(opts.file);
  const m = doc.manifest;
  const base = Date.parse(m.clusterTime);
  const startedAt = Date.now();
  // The cluster's time, from the moment of the capture on: ages and expiries read as they did then.
  const now = () => base + (Date.now() - startedAt);
  const paths = labFilePaths(opts.stateDir);

  const store = new ResourceStore({ now });
  const seeded = seedReplayStore(store, doc.kube.resources);

  await mkdir(opts.stateDir, { recursive: true, mode: 0o700 });
  await chmod(opts.stateDir, 0o700);
  await writeFile(paths.audit, '', { mode: 0o600 });
  const audit = new AuditLog(paths.audit);
  const apiKey = randomBytes(24).toString('base64url');
  const clusterName = m.cluster.name ?? m.cluster.uid;
  const summary = `Replay of ${clusterName} as captured at ${m.capturedAt} by upgrade-pilot ${m.tool.version} (frozen, read-only)`;

  let kube: KubeApiServer | undefined;
  let palette: PaletteServer | undefined;
  try {
    kube = await startKubeApiServer({
      store,
      hooks: replayLogs(doc.kube.logs),
      audit,
      forbid: CHANGES.map((verb) => ({ verb, resource: '*' })),
      user: REPLAY_USER,
      tokenClock: { now, speed: () => 1 },
      // A group the site did not have (Multus) is not there in the replay either: 404, as the site answered.
      absentGroups: absentGroups(doc.kube.absent),
      ...(opts.serverPath !== undefined ? { serverPath: opts.serverPath } : {}),
    });
    const state: LabRouteHandler = () => ({
      status: 200,
      body: { scenario: 'replay', summary, file: opts.file, capturedAt: m.capturedAt, clusterTime: m.clusterTime, simTime: new Date(now()).toISOString(), cluster: m.cluster, flavor: m.palette.flavor, objects: seeded.counts, logs: doc.kube.logs.length, answers: doc.palette.answers.length, skipped: seeded.skipped },
    });
    const clock: LabRouteHandler = () => ({ status: 200, body: { simTime: new Date(now()).toISOString(), now: now(), speed: 1 } });
    palette = await startPaletteServer({
      store: new ProfileStore(),
      hooks: { clusterProfiles: () => undefined },
      audit,
      faults: new FaultPlan(),
      apiKey,
      projectUid: m.palette.projectUid,
      dialect: m.palette.flavor,
      routes: replayRoutes(doc.palette.answers),
      extraRoutes: { 'GET /_lab/state': state, 'GET /_lab/clock': clock },
      now,
    });

    await writeLabKubeconfig(opts.stateDir, kube.url, kube.caPem, kube.token);
    const valuesDir = await writeValues(join(opts.stateDir, 'values'), doc.values);
    const params = replayParams(doc, opts.file, { palette: palette.url, kubeconfig: paths.kubeconfig, valuesDir });
    const header = `# Site parameters of a replay of ${clusterName} (captured ${m.capturedAt}): frozen and read-only.\n# Use with: UPGRADE_PILOT_API_KEY=<apiKey from lab.json> upgrade-pilot plan|diff|verify|rehearse --params ${paths.params}\n`;
    await writePrivate(paths.params, header + stringify(params));
    const site = doc.params as { profiles: { addon: { uid: string }; infra: { uid: string } }; target?: unknown };
    const labJson: ReplayLabJson = {
      paletteUrl: palette.url,
      apiKey,
      projectUid: m.palette.projectUid,
      clusterUid: m.cluster.uid,
      profileUids: { addon: site.profiles.addon.uid, infra: site.profiles.infra.uid },
      kubeconfig: paths.kubeconfig,
      params: paths.params,
      auditUrl: `${palette.url}/_lab/audit`,
      kubeUrl: kube.url,
      controlUrls: { state: `${palette.url}/_lab/state`, clock: `${palette.url}/_lab/clock`, faults: `${palette.url}/_lab/faults` },
      scenario: 'replay',
      summary,
      flavor: m.palette.flavor,
      dialect: m.palette.flavor,
      speed: 1,
      clusterName,
      target: String(site.target ?? ''),
      stateDir: opts.stateDir,
      replay: {
        file: opts.file,
        capturedAt: m.capturedAt,
        clusterTime: m.clusterTime,
        tool: m.tool.version,
        serverVersion: m.kube.serverVersion,
        readOnly: true,
        // `--since TIME` is read as wall time and put on the replay's clock (which runs from the
        // capture's cluster time since the replay started): this TIME lands on the site's start.
        ...(m.verifySince?.at ? { verifySince: { at: m.verifySince.at, source: m.verifySince.source, arg: `--since ${new Date(startedAt + (Date.parse(m.verifySince.at) - base)).toISOString()}` } } : {}),
      },
    };
    await writePrivate(paths.labJson, `${JSON.stringify(labJson, null, 2)}\n`);

    const kubeServer = kube;
    const paletteServer = palette;
    let closed = false;
    return {
      paletteUrl: palette.url,
      kubeUrl: kube.url,
      apiKey,
      kubeconfig: paths.kubeconfig,
      params: paths.params,
      labJson,
      served: { objects: seeded.counts, logs: doc.kube.logs.length, answers: doc.palette.answers.length, skipped: seeded.skipped },
      close: async () => {
        if (closed) return;
        closed = true;
        await Promise.all([kubeServer.close(), paletteServer.close()]);
      },
    };
  } catch (err) {
    await Promise.all([kube?.close(), palette?.close()]);
    throw err;
  }
}
