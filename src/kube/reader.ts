/**
 * Typed reads of the cluster: one `kubectl get --raw` per resource kind, server-side selectors,
 * parsed once and checked against the fields used. A response that does not fit says which
 * field of which item, from which path.
 */
import type { z } from 'zod';
import { isKubeError, KubeError } from './errors.js';
import { safeParseFast } from '../io/fast-schema.js';
import { parseKubeJson } from './parse-json.js';
import { sanitizeText } from '../text/sanitize.js';
import type { Kubectl, KubeTable, RawListOptions } from './kubectl.js';
import { checkVmiPhase } from './vmi-phase.js';
import {
  CdiSchema,
  EventSchema,
  KubeVirtSchema,
  MigrationPolicySchema,
  NamespaceSchema,
  NadSchema,
  NodeSchema,
  PodSchema,
  ServiceSchema,
  StorageClassSchema,
  StorageClusterSchema,
  VmiSchema,
  VmimSchema,
  VmSchema,
  type Cdi,
  type Event,
  type KubeVirt,
  type MigrationPolicy,
  type Namespace,
  type Nad,
  type Node,
  type Pod,
  type Service,
  type StorageClass,
  type StorageCluster,
  type Vm,
  type Vmi,
  type VmiPhase,
  type Vmim,
} from './schemas.js';

const kubevirt = '/apis/kubevirt.io/v1';
/** Longest log line kept; the signatures of known issues match well within it. */
export const LOG_LINE_MAX = 4_000;

/** Each item checked and stripped to the fields used (the schema compiled once: src/io/fast-schema.ts; zod words a misfit). */
function parseAll<S extends z.ZodType>(schema: S, items: unknown[], path: string): z.output<S>[] {
  const out: z.output<S>[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const r = safeParseFast(schema, items[i]);
    if (!r.success) throw shapeError(path, r.error.issues[0]!, `items[${i}]`, items[i]);
    out[i] = r.data;
  }
  return out;
}

function shapeError(path: string, issue: { path: PropertyKey[]; message: string }, prefix: string, item: unknown): KubeError {
  const name = (item as { metadata?: { name?: string } } | undefined)?.metadata?.name;
  const field = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
  return new KubeError('failed', `GET ${path}: ${field}${name ? ` (${name})` : ''}: ${issue.message}`, {
    hint: 'The cluster answered with an unexpected shape; check the versions of KubeVirt, CDI and the storage operator.',
    kind: 'failed',
  });
}

/**
 * VM instances from the server's table: the metadata of each row's object and KubeVirt's `Phase`
 * column (`.status.phase`), all that verification reads of them. A table without that column or
 * without the objects (another KubeVirt, `includeObject` not honoured) gives undefined: the list is
 * read whole instead. Each item is then checked by VmiPhaseSchema as a listed one would be.
 */
export function vmiPhasesFromTable(table: KubeTable): unknown[] | undefined {
  const phase = table.columnDefinitions.findIndex((c) => c.name === 'Phase');
  if (phase < 0) return undefined;
  const out: unknown[] = new Array(table.rows.length);
  for (let i = 0; i < table.rows.length; i++) {
    const row = table.rows[i]!;
    const metadata = row.object?.metadata;
    if (metadata === undefined || !Array.isArray(row.cells)) return undefined;
    const cell: unknown = row.cells[phase];
    out[i] = { metadata, status: typeof cell === 'string' && cell !== '' ? { phase: cell } : {} };
  }
  return out;
}

/**
 * API groups a cluster may well not have. Multus (`k8s.cni.cncf.io`) is not on every cluster: there
 * a list of network attachment definitions answers 404, which means there are none.
 */
const OPTIONAL_GROUPS: Readonly<Record<string, string>> = { 'k8s.cni.cncf.io': 'Multus', 'migrations.kubevirt.io': 'KubeVirt migration policies' };

/**
 * The items of a resource of an optional API group. `notInstalled` says, once, that the group is
 * not installed and so there are none; a failed read of an installed group is an error as any.
 */
export class OptionalList<T> {
  constructor(
    readonly items: T[],
    readonly notInstalled?: string,
  ) {}
}

const nsPath = (base: string, resource: string, namespace?: string) => (namespace ? `${base}/namespaces/${namespace}/${resource}` : `${base}/${resource}`);

export class ClusterReader {
  constructor(
    readonly kubectl: Kubectl,
    private readonly signal?: AbortSignal,
  ) {}

  private async list<S extends z.ZodType>(schema: S, path: string, action: string, opts: RawListOptions = {}): Promise<z.output<S>[]> {
    const items = await this.kubectl.listRaw(path, { ...opts, action, ...(this.signal ? { signal: this.signal } : {}) });
    return parseAll(schema, items, path);
  }

  private async one<S extends z.ZodType>(schema: S, path: string, action: string): Promise<z.output<S> | undefined> {
    const obj = await this.kubectl.getObject(path, action, this.signal);
    if (obj === undefined) return undefined;
    const r = safeParseFast(schema, obj);
    if (!r.success) throw shapeError(path, r.error.issues[0]!, '', obj);
    return r.data;
  }

  nodes(): Promise<Node[]> {
    return this.list(NodeSchema, '/api/v1/nodes', 'list nodes');
  }

  pods(opts: RawListOptions & { namespace?: string } = {}): Promise<Pod[]> {
    return this.list(PodSchema, nsPath('/api/v1', 'pods', opts.namespace), `list pods${opts.namespace ? ` in ${opts.namespace}` : ''}`, opts);
  }

  pod(namespace: string, name: string): Promise<Pod | undefined> {
    return this.one(PodSchema, `/api/v1/namespaces/${namespace}/pods/${name}`, `read pod ${namespace}/${name}`);
  }

  events(opts: RawListOptions & { namespace?: string } = {}): Promise<Event[]> {
    return this.list(EventSchema, nsPath('/api/v1', 'events', opts.namespace), 'list events', opts);
  }

  services(opts: RawListOptions & { namespace?: string } = {}): Promise<Service[]> {
    return this.list(ServiceSchema, nsPath('/api/v1', 'services', opts.namespace), 'list services', opts);
  }

  storageClasses(): Promise<StorageClass[]> {
    return this.list(StorageClassSchema, '/apis/storage.k8s.io/v1/storageclasses', 'list storage classes');
  }

  /** Multus's network attachment definitions; none, said once, on a cluster without Multus. */
  networkAttachmentDefinitions(): Promise<OptionalList<Nad>> {
    return this.optionalList(NadSchema, 'k8s.cni.cncf.io', '/apis/k8s.cni.cncf.io/v1/network-attachment-definitions', 'network attachment definitions');
  }

  /**
   * A list in an optional API group. A 404 on the list is either the group not installed (no
   * objects of it: fine) or a group that is installed but does not serve this resource (a problem,
   * reported as the failure it is): the group's discovery document tells which.
   */
  private async optionalList<S extends z.ZodType>(schema: S, group: string, path: string, what: string): Promise<OptionalList<z.output<S>>> {
    try {
      return new OptionalList(await this.list(schema, path, `list ${what}`));
    } catch (err) {
      if (!isKubeError(err, 'missing-crd') && !isKubeError(err, 'not-found')) throw err;
      if (!(await this.groupMissing(group))) throw err;
      return new OptionalList<z.output<S>>([], `${OPTIONAL_GROUPS[group] ?? 'The API group'} (${group}) is not installed on this cluster: no ${what}`);
    }
  }

  /** True when the cluster's discovery has no such API group (404 on `/apis/GROUP`). */
  private async groupMissing(group: string): Promise<boolean> {
    try {
      await this.kubectl.getRaw(`/apis/${group}`, `read the API group ${group}`, this.signal);
      return false;
    } catch (err) {
      if (isKubeError(err, 'missing-crd') || isKubeError(err, 'not-found')) return true;
      throw err;
    }
  }

  /** KubeVirt's MigrationPolicies (cluster-scoped); none, said once, where the CRD is not installed. */
  migrationPolicies(): Promise<OptionalList<MigrationPolicy>> {
    return this.optionalList(MigrationPolicySchema, 'migrations.kubevirt.io', '/apis/migrations.kubevirt.io/v1alpha1/migrationpolicies', 'migration policies');
  }

  namespaces(): Promise<Namespace[]> {
    return this.list(NamespaceSchema, '/api/v1/namespaces', 'list namespaces');
  }

  kubeVirt(namespace: string, name: string): Promise<KubeVirt | undefined> {
    return this.one(KubeVirtSchema, `${kubevirt}/namespaces/${namespace}/kubevirts/${name}`, 'read the KubeVirt resource');
  }

  cdi(name: string): Promise<Cdi | undefined> {
    return this.one(CdiSchema, `/apis/cdi.kubevirt.io/v1beta1/cdis/${name}`, 'read the CDI resource');
  }

  /** Portworx's StorageCluster, or (kind `CephCluster`) Rook-Ceph's cluster resource. */
  storageCluster(namespace: string, name: string, kind: 'StorageCluster' | 'CephCluster' = 'StorageCluster'): Promise<StorageCluster | undefined> {
    const path = kind === 'CephCluster' ? `/apis/ceph.rook.io/v1/namespaces/${namespace}/cephclusters/${name}` : `/apis/core.libopenstorage.org/v1/namespaces/${namespace}/storageclusters/${name}`;
    return this.one(StorageClusterSchema, path, 'read the storage cluster');
  }

  vms(opts: RawListOptions = {}): Promise<Vm[]> {
    return this.list(VmSchema, `${kubevirt}/virtualmachines`, 'list VMs', opts);
  }

  vmis(opts: RawListOptions = {}): Promise<Vmi[]> {
    return this.list(VmiSchema, `${kubevirt}/virtualmachineinstances`, 'list VM instances', opts);
  }

  /** Every VM instance with only its name, labels and phase checked and kept (verification). */
  /** Checked by hand (vmi-phase.ts: VmiPhaseSchema's checks without zod's first-use cost on 5,000 items). */
  async vmiPhases(opts: RawListOptions = {}): Promise<VmiPhase[]> {
    const path = `${kubevirt}/virtualmachineinstances`;
    const items = await this.kubectl.listRaw(path, { ...opts, action: 'list VM instances', fromTable: vmiPhasesFromTable, ...(this.signal ? { signal: this.signal } : {}) });
    const out: VmiPhase[] = new Array(items.length);
    for (let i = 0; i < items.length; i++) {
      const r = checkVmiPhase(items[i]);
      if (!r.ok) throw shapeError(path, r, `items[${i}]`, items[i]);
      out[i] = r.value;
    }
    return out;
  }

  migrations(opts: RawListOptions = {}): Promise<Vmim[]> {
    return this.list(VmimSchema, `${kubevirt}/virtualmachineinstancemigrations`, 'list VM migrations', opts);
  }

  /**
   * The last `tailLines` lines of a pod's log (bounded: never the whole log), safe to show: no
   * control characters, no line longer than LOG_LINE_MAX (a program can log anything).
   */
  async podLog(namespace: string, pod: string, tailLines: number, container?: string): Promise<string> {
    const q = new URLSearchParams({ tailLines: String(tailLines), ...(container ? { container } : {}) });
    const text = await this.kubectl.getRaw(`/api/v1/namespaces/${namespace}/pods/${pod}/log?${q}`, `read the log of ${namespace}/${pod}`, this.signal);
    return text
      .split('\n')
      .slice(-tailLines - 1)
      .map((line) => sanitizeText(line, { max: LOG_LINE_MAX }))
      .join('\n');
  }

  /** A cheap call that proves the API answers with these credentials. */
  async ping(): Promise<string> {
    const v = parseKubeJson<{ gitVersion?: string }>(await this.kubectl.getRaw('/version', 'read the cluster version', this.signal), '/version');
    return v.gitVersion ?? 'unknown';
  }
}
