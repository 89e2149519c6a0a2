/**
 * Table columns per type, as the apiserver prints them for `kubectl get`: the built-in printers'
 * columns and cell logic (pod STATUS and RESTARTS, node STATUS and ROLES, service EXTERNAL-IP, ...)
 * and, for custom resources, the printer columns their CRDs declare. Priority 1 columns appear
 * only with `-o wide`. A null cell prints as `<none>`.
 */
import { ageOf, humanDuration } from '../../text/age.js';
import type { ServedType } from './kinds.js';
import type { KubeObject } from './types.js';

export interface ColumnDefinition {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  format: string;
  description: string;
  priority: number;
}

export interface Column extends ColumnDefinition {
  cell(obj: KubeObject, now: number): unknown;
}

type Json = Record<string, unknown>;

function at(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Json)[part];
  }
  return cur;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const list = (v: unknown): Json[] => (Array.isArray(v) ? (v.filter((x) => typeof x === 'object' && x !== null) as Json[]) : []);
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const orNone = (v: string | undefined): string => v ?? '<none>';

function col(name: string, cell: Column['cell'], opts: Partial<ColumnDefinition> = {}): Column {
  return { name, type: 'string', format: '', description: '', priority: 0, ...opts, cell };
}

const nameColumn = col('Name', (o) => o.metadata.name, { format: 'name', description: 'Name must be unique within a namespace.' });
const ageColumn = col('Age', (o, now) => ageOf(o.metadata.creationTimestamp, now), {
  description: 'CreationTimestamp is a timestamp representing the server time when this object was created.',
});

function conditionStatus(obj: KubeObject, type: string): string | undefined {
  return text(list(at(obj, 'status.conditions')).find((c) => c.type === type)?.status);
}

// ---------------------------------------------------------------- pods

interface PodSummary {
  ready: string;
  status: string;
  restarts: string;
}

function lastTerminatedAt(status: Json): number {
  const finished = text(at(status, 'lastState.terminated.finishedAt'));
  return finished ? Date.parse(finished) || 0 : 0;
}

function terminatedReason(terminated: Json, prefix: string): string {
  const reason = text(terminated.reason);
  if (reason) return prefix + reason;
  return num(terminated.signal) !== 0 ? `${prefix}Signal:${num(terminated.signal)}` : `${prefix}ExitCode:${num(terminated.exitCode)}`;
}

// Three cells of a row come from one summary. Stored objects are frozen per version, so the
// object itself is a safe cache key.
const podSummaries = new WeakMap<KubeObject, { now: number; summary: PodSummary }>();

function summarizePod(pod: KubeObject, now: number): PodSummary {
  let cached = podSummaries.get(pod);
  if (cached?.now !== now) {
    cached = { now, summary: computePodSummary(pod, now) };
    podSummaries.set(pod, cached);
  }
  return cached.summary;
}

/** The pod STATUS, READY and RESTARTS cells, following the apiserver's pod printer. */
function computePodSummary(pod: KubeObject, now: number): PodSummary {
  const spec = (pod.spec ?? {}) as Json;
  const status = (pod.status ?? {}) as Json;
  const total = list(spec.containers).length;
  let ready = 0;
  let restarts = 0;
  let lastRestart = 0;
  let reason = text(status.reason) ?? text(status.phase) ?? '';

  let initializing = false;
  const initStatuses = list(status.initContainerStatuses);
  for (const [i, c] of initStatuses.entries()) {
    restarts += num(c.restartCount);
    lastRestart = Math.max(lastRestart, lastTerminatedAt(c));
    const terminated = at(c, 'state.terminated') as Json | undefined;
    const waiting = at(c, 'state.waiting') as Json | undefined;
    if (terminated && num(terminated.exitCode) === 0) continue;
    if (terminated) reason = terminatedReason(terminated, 'Init:');
    else if (waiting && text(waiting.reason) && waiting.reason !== 'PodInitializing') reason = `Init:${String(waiting.reason)}`;
    else reason = `Init:${i}/${list(spec.initContainers).length}`;
    initializing = true;
    break;
  }

  if (!initializing || conditionStatus(pod, 'Initialized') === 'True') {
    let hasRunning = false;
    for (const c of [...list(status.containerStatuses)].reverse()) {
      restarts += num(c.restartCount);
      lastRestart = Math.max(lastRestart, lastTerminatedAt(c));
      const waiting = at(c, 'state.waiting') as Json | undefined;
      const terminated = at(c, 'state.terminated') as Json | undefined;
      if (waiting && text(waiting.reason)) reason = String(waiting.reason);
      else if (terminated) reason = terminatedReason(terminated, '');
      else if (c.ready === true && at(c, 'state.running') !== undefined) {
        hasRunning = true;
        ready += 1;
      }
    }
    if (reason === 'Completed' && hasRunning) reason = conditionStatus(pod, 'Ready') === 'True' ? 'Running' : 'NotReady';
  }

  if (pod.metadata.deletionTimestamp) reason = status.reason === 'NodeLost' ? 'Unknown' : 'Terminating';
  const restartText = lastRestart > 0 ? `${restarts} (${humanDuration(now - lastRestart)} ago)` : String(restarts);
  return { ready: `${ready}/${total}`, status: reason, restarts: restartText };
}

function readinessGates(pod: KubeObject): string {
  const gates = list(at(pod, 'spec.readinessGates'));
  if (gates.length === 0) return '<none>';
  const trueCount = gates.filter((g) => conditionStatus(pod, String(g.conditionType)) === 'True').length;
  return `${trueCount}/${gates.length}`;
}

const podColumns: Column[] = [
  nameColumn,
  col('Ready', (o, now) => summarizePod(o, now).ready, { description: 'The aggregate readiness state of this pod for accepting traffic.' }),
  col('Status', (o, now) => summarizePod(o, now).status, { description: 'The aggregate status of the containers in this pod.' }),
  col('Restarts', (o, now) => summarizePod(o, now).restarts, { description: 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.' }),
  ageColumn,
  col('IP', (o) => orNone(text(at(o, 'status.podIP'))), { priority: 1, description: 'IP address allocated to the pod.' }),
  col('Node', (o) => orNone(text(at(o, 'spec.nodeName'))), { priority: 1, description: 'Name of the node the pod is assigned to.' }),
  col('Nominated Node', (o) => orNone(text(at(o, 'status.nominatedNodeName'))), { priority: 1, description: 'Name of the node where the pod is nominated.' }),
  col('Readiness Gates', (o) => readinessGates(o), { priority: 1, description: 'The readiness gates of the pod.' }),
];

// ---------------------------------------------------------------- nodes

function nodeStatus(node: KubeObject): string {
  const ready = conditionStatus(node, 'Ready');
  const base = ready === 'True' ? 'Ready' : ready === 'False' ? 'NotReady' : 'Unknown';
  return at(node, 'spec.unschedulable') === true ? `${base},SchedulingDisabled` : base;
}

function nodeRoles(node: KubeObject): string {
  const roles = new Set<string>();
  for (const [key, value] of Object.entries(node.metadata.labels ?? {})) {
    if (key.startsWith('node-role.kubernetes.io/') && key.length > 'node-role.kubernetes.io/'.length) roles.add(key.slice('node-role.kubernetes.io/'.length));
    else if (key === 'kubernetes.io/role' && value) roles.add(value);
  }
  return roles.size === 0 ? '<none>' : [...roles].sort().join(',');
}

function nodeAddress(node: KubeObject, type: string): string {
  return orNone(text(list(at(node, 'status.addresses')).find((a) => a.type === type)?.address));
}

const nodeInfo = (node: KubeObject, field: string): string => text(at(node, `status.nodeInfo.${field}`)) ?? '<unknown>';

const nodeColumns: Column[] = [
  nameColumn,
  col('Status', nodeStatus, { description: 'The status of the node' }),
  col('Roles', nodeRoles, { description: 'The roles of the node' }),
  ageColumn,
  col('Version', (o) => nodeInfo(o, 'kubeletVersion'), { description: 'Kubelet Version reported by the node.' }),
  col('Internal-IP', (o) => nodeAddress(o, 'InternalIP'), { priority: 1, description: 'List of internal IPs in the node.' }),
  col('External-IP', (o) => nodeAddress(o, 'ExternalIP'), { priority: 1, description: 'List of external IPs in the node.' }),
  col('OS-Image', (o) => nodeInfo(o, 'osImage'), { priority: 1, description: 'OS Image reported by the node.' }),
  col('Kernel-Version', (o) => nodeInfo(o, 'kernelVersion'), { priority: 1, description: 'Kernel Version reported by the node.' }),
  col('Container-Runtime', (o) => nodeInfo(o, 'containerRuntimeVersion'), { priority: 1, description: 'Container Runtime Version reported by the node.' }),
];

// ---------------------------------------------------------------- services

function serviceExternalIp(svc: KubeObject): string {
  const type = text(at(svc, 'spec.type')) ?? 'ClusterIP';
  const externalIps = (Array.isArray(at(svc, 'spec.externalIPs')) ? (at(svc, 'spec.externalIPs') as unknown[]) : []).filter((x): x is string => typeof x === 'string');
  if (type === 'ExternalName') return orNone(text(at(svc, 'spec.externalName')));
  if (type === 'LoadBalancer') {
    const ingress = list(at(svc, 'status.loadBalancer.ingress'))
      .map((i) => text(i.ip) ?? text(i.hostname))
      .filter((x): x is string => x !== undefined);
    const all = [...ingress, ...externalIps];
    return all.length > 0 ? all.join(',') : '<pending>';
  }
  return externalIps.length > 0 ? externalIps.join(',') : '<none>';
}

function servicePorts(svc: KubeObject): string {
  const ports = list(at(svc, 'spec.ports')).map((p) => {
    const protocol = text(p.protocol) ?? 'TCP';
    return p.nodePort ? `${num(p.port)}:${num(p.nodePort)}/${protocol}` : `${num(p.port)}/${protocol}`;
  });
  return ports.length > 0 ? ports.join(',') : '<none>';
}

function selectorText(v: unknown): string {
  if (typeof v !== 'object' || v === null) return '<none>';
  const pairs = Object.entries(v as Record<string, unknown>).map(([k, val]) => `${k}=${String(val)}`);
  return pairs.length > 0 ? pairs.sort().join(',') : '<none>';
}

const serviceColumns: Column[] = [
  nameColumn,
  col('Type', (o) => text(at(o, 'spec.type')) ?? 'ClusterIP', { description: 'The type of the service.' }),
  col('Cluster-IP', (o) => orNone(text(at(o, 'spec.clusterIP'))), { description: 'The IP address of the service.' }),
  col('External-IP', serviceExternalIp, { description: 'The external IP address of the service.' }),
  col('Port(s)', servicePorts, { description: 'The ports of the service.' }),
  ageColumn,
  col('Selector', (o) => selectorText(at(o, 'spec.selector')), { priority: 1, description: 'The selector of the service.' }),
];

// ---------------------------------------------------------------- the rest of the built-ins

const containerField = (o: KubeObject, field: string): string =>
  list(at(o, 'spec.template.spec.containers'))
    .map((c) => text(c[field]) ?? '')
    .join(',');

const deploymentColumns: Column[] = [
  nameColumn,
  col('Ready', (o) => `${num(at(o, 'status.readyReplicas'))}/${num(at(o, 'spec.replicas'))}`, { description: 'Number of the pod with ready state' }),
  col('Up-to-date', (o) => num(at(o, 'status.updatedReplicas')), { type: 'integer', description: 'Total number of non-terminated pods targeted by this deployment that have the desired template spec.' }),
  col('Available', (o) => num(at(o, 'status.availableReplicas')), { type: 'integer', description: 'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.' }),
  ageColumn,
  col('Containers', (o) => containerField(o, 'name'), { priority: 1, description: 'Names of each container in the template.' }),
  col('Images', (o) => containerField(o, 'image'), { priority: 1, description: 'Images referenced by each container in the template.' }),
  col('Selector', (o) => selectorText(at(o, 'spec.selector.matchLabels')), { priority: 1, description: 'Label selector for pods.' }),
];

const namespaceColumns: Column[] = [nameColumn, col('Status', (o) => text(at(o, 'status.phase')) ?? 'Active', { description: 'The status of the namespace' }), ageColumn];

const storageClassColumns: Column[] = [
  col('Name', (o) => (o.metadata.annotations?.['storageclass.kubernetes.io/is-default-class'] === 'true' ? `${o.metadata.name} (default)` : o.metadata.name), {
    format: 'name',
    description: 'Name must be unique within a namespace.',
  }),
  col('Provisioner', (o) => text(o.provisioner) ?? '', { description: 'Indicates the type of the provisioner.' }),
  col('ReclaimPolicy', (o) => text(o.reclaimPolicy) ?? 'Delete', { description: 'Indicates the type of the reclaim policy.' }),
  col('VolumeBindingMode', (o) => text(o.volumeBindingMode) ?? 'Immediate', { description: 'Indicates how PersistentVolumeClaims should be provisioned and bound.' }),
  col('AllowVolumeExpansion', (o) => o.allowVolumeExpansion === true, { type: 'boolean', description: 'Indicates whether the storage class allow volume expand.' }),
  ageColumn,
];

const eventColumns: Column[] = [
  col('Last Seen', (o, now) => ageOf(text(o.lastTimestamp) ?? text(o.eventTime) ?? o.metadata.creationTimestamp, now), { description: 'Time when last event occurred.' }),
  col('Type', (o) => text(o.type) ?? '', { description: 'Type of this event.' }),
  col('Reason', (o) => text(o.reason) ?? '', { description: 'Short, machine understandable string that gives the reason for this event being generated.' }),
  col('Object', (o) => `${(text(at(o, 'involvedObject.kind')) ?? '').toLowerCase()}/${text(at(o, 'involvedObject.name')) ?? ''}`, { description: 'The object this Event is about.' }),
  col('Message', (o) => text(o.message) ?? '', { description: 'A human-readable description of the status of this operation.' }),
  col('Name', (o) => o.metadata.name, { format: 'name', priority: 1, description: 'Name must be unique within a namespace.' }),
];

// ---------------------------------------------------------------- custom resources

/** A CRD printer column: a JSON path's first value, text for string columns, a human age for dates. */
function printerColumn(name: string, path: string, type: ColumnDefinition['type'] = 'string', priority = 0): Column {
  return col(
    name,
    (o, now) => {
      const value = path.startsWith('condition:') ? conditionStatus(o, path.slice('condition:'.length)) : at(o, path);
      if (value === undefined || value === null) return null;
      if (type === 'date') return ageOf(value, now);
      if (type !== 'string') return value;
      return typeof value === 'string' ? value : JSON.stringify(value);
    },
    { type, priority },
  );
}

const crdAge = printerColumn('Age', 'metadata.creationTimestamp', 'date');

const customColumns: Record<string, Column[]> = {
  kubevirts: [crdAge, printerColumn('Phase', 'status.phase')],
  virtualmachines: [crdAge, printerColumn('Status', 'status.printableStatus'), printerColumn('Ready', 'condition:Ready')],
  virtualmachineinstances: [
    crdAge,
    printerColumn('Phase', 'status.phase'),
    printerColumn('IP', 'status.interfaces.0.ipAddress'),
    printerColumn('NodeName', 'status.nodeName'),
    printerColumn('Ready', 'condition:Ready'),
    printerColumn('Live-Migratable', 'condition:LiveMigratable', 'string', 1),
    printerColumn('Paused', 'condition:Paused', 'string', 1),
  ],
  virtualmachineinstancemigrations: [printerColumn('Phase', 'status.phase'), printerColumn('VMI', 'spec.vmiName')],
  cdis: [crdAge, printerColumn('Phase', 'status.phase')],
  storageclusters: [printerColumn('Cluster UUID', 'status.clusterUid'), printerColumn('Status', 'status.phase'), printerColumn('Version', 'status.version'), crdAge],
  cephclusters: [printerColumn('DataDirHostPath', 'spec.dataDirHostPath'), printerColumn('MonCount', 'spec.mon.count'), crdAge, printerColumn('Phase', 'status.phase'), printerColumn('Message', 'status.message'), printerColumn('Health', 'status.ceph.health')],
};

const builtinColumns: Record<string, Column[]> = {
  pods: podColumns,
  nodes: nodeColumns,
  services: serviceColumns,
  deployments: deploymentColumns,
  namespaces: namespaceColumns,
  storageclasses: storageClassColumns,
  events: eventColumns,
};

/** The columns `kubectl get` shows for a type; NAME AGE when nothing more specific is defined. */
export function columnsFor(type: ServedType): Column[] {
  if (type.custom) return [{ ...nameColumn, description: 'Name must be unique within a namespace. More info: http://kubernetes.io/docs/user-guide/identifiers#names' }, ...(customColumns[type.resource] ?? [crdAge])];
  return builtinColumns[type.resource] ?? [nameColumn, ageColumn];
}
