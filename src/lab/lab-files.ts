/**
 * The files a running lab leaves in its state folder, per the `lab.json` contract: `lab.json`
 * (where everything is), a kubeconfig for the Kubernetes double, and a params file that makes
 * every command work against the lab. The folder is 0700 and the files 0600: lab.json holds the
 * lab's API key and the kubeconfig its token.
 */
import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { ParamsSchema } from '../engine/params.js';
import { packStack, vmoVersions, type SiteLayout, type VmoVersion } from './data/pack-catalog.js';
import { labRookSite, labSite } from './data/site.js';
import { writeKubeconfig } from './kube/kubeconfig.js';

export const labContext = 'upgrade-pilot-lab';

export interface LabJson {
  paletteUrl: string;
  apiKey: string;
  projectUid: string;
  clusterUid: string;
  profileUids: { addon: string; infra: string };
  /** Path of the kubeconfig. */
  kubeconfig: string;
  /** Path of the params file. */
  params: string;
  /** The lab-only audit endpoint (needs the ApiKey header). */
  auditUrl: string;
  kubeUrl: string;
  /** The lab's control routes (need the ApiKey header). */
  controlUrls: { state: string; clock: string; token: string; faults: string; kubeFaults: string };
  scenario: string;
  summary: string;
  /** `spec`: the spec's service; `palette`: a real Palette. */
  flavor: 'spec' | 'palette';
  /** The same as `flavor` (its old name). */
  dialect: 'spec' | 'palette';
  speed: number;
  clusterName: string;
  target: string;
  references: Array<{ version: string; addon: string; infra: string }>;
  /** The same site's params with `references:` (reference profiles) instead of the pack registry. */
  paramsWithReferences: string;
  stateDir: string;
}

export interface LabFilesInput {
  stateDir: string;
  paletteUrl: string;
  kubeUrl: string;
  apiKey: string;
  projectUid: string;
  clusterUid: string;
  clusterName: string;
  profiles: { addon: { uid: string; name: string }; infra: { uid: string; name: string } };
  references: Array<{ version: string; addon: string; infra: string; labels: { addon: string; infra: string } }>;
  target: string;
  /** The orchestration pack version deployed, and which packs the site's profiles hold. */
  deployed: VmoVersion;
  layout: SiteLayout;
  /** Pack tags a version's reference profiles carry instead of the stack's (the scenario's). */
  referenceTags?: Partial<Record<VmoVersion, Record<string, string>>>;
  scenario: string;
  summary: string;
  dialect: 'spec' | 'palette';
  speed: number;
  caPem: string;
  token: string;
}

export const labFilePaths = (stateDir: string) => ({
  labJson: join(stateDir, 'lab.json'),
  kubeconfig: join(stateDir, 'kubeconfig'),
  params: join(stateDir, 'params.yaml'),
  paramsWithReferences: join(stateDir, 'params-references.yaml'),
  audit: join(stateDir, 'audit.ndjson'),
});

/**
 * The packs that move with the orchestration pack in each hop, as the pack registry offers them:
 * per pack whose tag changes between the versions, the tag of each version after the deployed one
 * (what the lab's reference profiles hold, so both kinds of params plan the same hops).
 */
export function labMoveWith(deployed: VmoVersion, layout: SiteLayout, referenceTags: LabFilesInput['referenceTags'] = {}, target?: string): Record<string, Record<string, string>> {
  const last = target && (vmoVersions as readonly string[]).includes(target) ? vmoVersions.indexOf(target as VmoVersion) : vmoVersions.length - 1;
  const later = vmoVersions.slice(vmoVersions.indexOf(deployed), Math.max(last, vmoVersions.indexOf(deployed)) + 1);
  const stacks = later.map((v) => ({ v, packs: [...packStack(v, layout).addon, ...packStack(v, layout).infra].map((p) => ({ ...p, tag: referenceTags[v]?.[p.name] ?? p.tag })) }));
  const out: Record<string, Record<string, string>> = {};
  for (const pack of stacks[0]?.packs ?? []) {
    if (pack.name === 'virtual-machine-orchestrator') continue;
    const tags = stacks.map((s) => ({ v: s.v, tag: s.packs.find((p) => p.name === pack.name)?.tag ?? pack.tag }));
    if (tags.every((t) => t.tag === pack.tag)) continue;
    out[pack.name] = Object.fromEntries(tags.slice(1).map((t) => [t.v, t.tag]));
  }
  return out;
}

/** What differs between the standard site and the Rook-Ceph one (no ingress, no monitoring). */
function siteOf(input: LabFilesInput): { packs: Record<string, string | null>; site: Record<string, unknown> } {
  const base = { orchestration: 'virtual-machine-orchestrator', loadBalancer: 'lb-metallb-helm', network: 'cni-cilium-oss' };
  const agentNamespace = `cluster-${input.clusterUid}`;
  if (input.layout === 'rook-ceph' || input.layout === 'rook-ceph-no-placement') {
    return {
      packs: { ...base, ingress: 'none', monitoring: 'none', storage: 'csi-rook-ceph-helm' },
      site: {
        blockStorageClass: labRookSite.blockStorageClass,
        storageClassParameters: { ...labRookSite.storageClassParameters },
        loadBalancerServices: [...labRookSite.intendedLoadBalancerServices],
        storageCluster: labRookSite.storageCluster,
        storageClusterKind: 'CephCluster',
        agentNamespace,
      },
    };
  }
  return {
    packs: { ...base, ingress: 'nginx', monitoring: 'prometheus-operator', storage: 'csi-portworx-generic' },
    site: {
      ingressIP: labSite.ingressIP,
      ingressService: labSite.ingressService,
      blockStorageClass: labSite.blockStorageClass,
      storageClassParameters: { ...labSite.storageClassParameters },
      loadBalancerServices: [...labSite.intendedLoadBalancerServices],
      storageCluster: labSite.storageCluster,
      agentNamespace,
    },
  };
}

/**
 * The params document for this lab; validated against the tool's own schema before it is written.
 * The default is the small file: the pack registry gives the versions and the defaults, `moveWith`
 * the packs that move with the orchestration pack. `withReferences` names the reference profiles instead.
 */
export function labParams(input: LabFilesInput, withReferences = false): Record<string, unknown> {
  const paths = labFilePaths(input.stateDir);
  const { packs, site } = siteOf(input);
  const params = {
    palette: {
      baseUrl: input.paletteUrl,
      projectUid: input.projectUid,
      clusterCollection: input.dialect === 'palette' ? 'spectroclusters' : 'clusters',
      timeout: '30s',
    },
    cluster: { uid: input.clusterUid, name: input.clusterName, kubeconfig: paths.kubeconfig, context: labContext },
    profiles: { addon: input.profiles.addon, infra: input.profiles.infra },
    packs,
    target: input.target,
    ...(withReferences
      ? { references: input.references.map((r) => ({ version: r.version, addon: r.addon, infra: r.infra, labels: r.labels })) }
      : { moveWith: labMoveWith(input.deployed, input.layout, input.referenceTags, input.target) }),
    site,
    kubevirt: { namespace: 'kubevirt', name: 'kubevirt' },
    // The lab plays the cluster's Prometheus too (the dirty-rate gauge only).
    metrics: { prometheusUrl: `${input.paletteUrl}/_lab/prometheus` },
    cdi: { name: 'cdi' },
    window: '4h',
    // The lab's cluster runs on accelerated simulated time: tools read its clock here so that ages,
    // time-outs and poll intervals follow the cluster's time, as they would on a real one.
    extra: { labClockUrl: `${input.paletteUrl}/_lab/clock` },
  };
  const checked = ParamsSchema.safeParse(params);
  if (!checked.success) throw new Error(`the lab's params file does not validate: ${checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return params;
}

export function labJson(input: LabFilesInput): LabJson {
  const paths = labFilePaths(input.stateDir);
  return {
    paletteUrl: input.paletteUrl,
    apiKey: input.apiKey,
    projectUid: input.projectUid,
    clusterUid: input.clusterUid,
    profileUids: { addon: input.profiles.addon.uid, infra: input.profiles.infra.uid },
    kubeconfig: paths.kubeconfig,
    params: paths.params,
    paramsWithReferences: paths.paramsWithReferences,
    auditUrl: `${input.paletteUrl}/_lab/audit`,
    kubeUrl: input.kubeUrl,
    controlUrls: {
      state: `${input.paletteUrl}/_lab/state`,
      clock: `${input.paletteUrl}/_lab/clock`,
      token: `${input.paletteUrl}/_lab/token`,
      faults: `${input.paletteUrl}/_lab/faults`,
      kubeFaults: `${input.paletteUrl}/_lab/kube-faults`,
    },
    scenario: input.scenario,
    summary: input.summary,
    flavor: input.dialect,
    dialect: input.dialect,
    speed: input.speed,
    clusterName: input.clusterName,
    target: input.target,
    references: input.references.map((r) => ({ version: r.version, addon: r.addon, infra: r.infra })),
    stateDir: input.stateDir,
  };
}

export async function writePrivate(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text, { mode: 0o600 });
  await chmod(tmp, 0o600);
  await rename(tmp, file);
}

/** Writes (or rewrites) the kubeconfig with the current token. */
export async function writeLabKubeconfig(stateDir: string, server: string, caPem: string, token: string): Promise<void> {
  await writeKubeconfig(labFilePaths(stateDir).kubeconfig, { server, caPem, token, context: labContext, cluster: 'upgrade-pilot-lab', user: 'upgrade-pilot-lab-admin' });
}

export async function writeLabFiles(input: LabFilesInput): Promise<LabJson> {
  await mkdir(input.stateDir, { recursive: true, mode: 0o700 });
  await chmod(input.stateDir, 0o700);
  const paths = labFilePaths(input.stateDir);
  await writeLabKubeconfig(input.stateDir, input.kubeUrl, input.caPem, input.token);
  const header = `# Site parameters of the upgrade-pilot lab (scenario ${input.scenario}).\n# Use with: UPGRADE_PILOT_API_KEY=<apiKey from lab.json> upgrade-pilot <command> --params ${paths.params}\n`;
  await writePrivate(paths.params, header + stringify(labParams(input)));
  const refHeader = `# The same site parameters with reference profiles (references:) instead of the pack registry.\n`;
  await writePrivate(paths.paramsWithReferences, refHeader + stringify(labParams(input, true)));
  const json = labJson(input);
  await writePrivate(paths.labJson, `${JSON.stringify(json, null, 2)}\n`);
  return json;
}
