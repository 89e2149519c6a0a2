/**
 * What a capture collects, as the product's own reads happen: every answer the cluster and the
 * profile API give (through RecordingKubectl and the profile API transport's `onReply`), filed by
 * what it is. Kubernetes objects are filed per collection and kept once (the latest read wins:
 * a list and a read of one of its objects are one object), stripped and redacted as they arrive,
 * and kept as their JSON text: what is held in memory is what will be written, and its size is
 * known at every read. Past the cap, `onOverCap` stops the reads at once.
 */
import { KubeError } from '../kube/errors.js';
import { REDACTED, type Redactor } from '../session/redact.js';
import { parseKubeRead, resourceKey, type KubeRead } from './kube-path.js';
import { RawJson } from './layered-json.js';
import { SECRET_NAME, stripKubeObjectInPlace } from './redact-kube.js';
import { redactValuesText } from './redact-values.js';
import type { CapturedAbsence, CapturedLog, PartRecord } from './types.js';

interface Collection {
  group: string;
  version: string;
  resource: string;
  /** Each object's JSON, and what was stripped from it. */
  objects: Map<string, { json: string; stripped: string[] }>;
  reads: Map<string, Set<string>>;
}

interface Sized<T> {
  value: T;
  bytes: number;
  passes: Set<string>;
}

export interface RecorderOptions {
  redactor: Redactor;
  /** The most bytes the capture may hold. */
  maxBytes: number;
  /** Called once, when a read takes the capture past `maxBytes`. */
  onOverCap: () => void;
}

/** What each Kubernetes collection is, for the manifest (the plural names the rest). */
const KUBE_WHAT: Record<string, string> = {
  nodes: 'Nodes',
  pods: 'Pods',
  events: 'Events',
  services: 'Services',
  storageclasses: 'Storage classes',
  'network-attachment-definitions': 'Network attachment definitions (Multus)',
  kubevirts: 'The KubeVirt resource',
  virtualmachines: 'VMs',
  virtualmachineinstances: 'VM instances',
  virtualmachineinstancemigrations: 'VM migrations',
  cdis: 'The CDI resource',
  storageclusters: 'The Portworx storage cluster',
  cephclusters: 'The Rook-Ceph cluster',
};

/** What a profile API answer is, from its path. */
export function paletteWhat(path: string): string {
  const p = path.split('?')[0]!;
  const rules: Array<[RegExp, string]> = [
    [/^\/v1\/clusterprofiles$/, 'the profile list'],
    [/^\/v1\/dashboard\/clusterprofiles\/metadata$/, 'the profile list (every version: name, uid, label)'],
    [/^\/v1\/dashboard\/clusterprofiles$/, "a profile's versions (the dashboard search by name)"],
    [/^\/v1\/clusterprofiles\/[^/]+$/, 'profile documents (packs, values, versions)'],
    [/^\/v1\/clusterprofiles\/[^/]+\/packs\/[^/]+\/manifests$/, 'pack manifests of the profiles'],
    [/^\/v1\/(clusters|spectroclusters)\/[^/]+\/profiles$/, "the cluster's deployed profiles"],
    [/^\/v1\/spectroclusters\/[^/]+$/, 'the cluster object (attached versions, pack status, conditions, repave)'],
    [/^\/v1\/spectroclusters\/[^/]+\/repave\/status$/, 'the repave status'],
    [/^\/v1\/spectroclusters\/[^/]+\/variables$/, "the cluster's profile-variable values (Palette masks the sensitive ones)"],
    [/^\/v1\/events\/components\/spectrocluster\/[^/]+$/, "the cluster's events"],
    [/^\/v1\/notifications\/spectrocluster\/[^/]+$/, "the cluster's pending notifications"],
    [/^\/v1\/packs$/, 'pack registry: pack versions and their default values'],
    [/^\/v1\/packs\/[^/]+\/registries\/[^/]+$/, "pack registry: a pack's tags and values"],
    [/^\/v1\/registries\/metadata$/, 'pack registries'],
  ];
  return rules.find(([re]) => re.test(p))?.[1] ?? 'other profile API answers';
}

/** A request as the manifest lists it: its path and selectors, without paging. */
function readLabel(path: string, read: KubeRead): string {
  const q = path.indexOf('?');
  const query = new URLSearchParams(q < 0 ? '' : path.slice(q + 1));
  for (const k of ['limit', 'continue', 'includeObject']) query.delete(k);
  const qs = query.toString();
  return `GET ${q < 0 ? path : path.slice(0, q)}${qs ? `?${decodeURIComponent(qs)}` : ''}${read.table ? ' (as a table)' : ''}`;
}

export class CaptureRecorder {
  /** The pass the reads belong to now. */
  pass = 'access';
  over = false;
  private total = 0;
  private readonly collections = new Map<string, Collection>();
  private version: Record<string, unknown> | undefined;
  private readonly logs = new Map<string, Sized<CapturedLog>>();
  private readonly absences = new Map<string, CapturedAbsence>();
  private readonly answers = new Map<string, Sized<{ status: number; json: string; stripped: string[]; request?: string }>>();
  /** Reads answered as a server-side table (rows, not objects), by their whole-list path. */
  private readonly tables = new Map<string, { path: string; read: KubeRead }>();
  /** Whole lists read, by the same key. */
  private readonly fullLists = new Set<string>();
  /** Redactions of things not kept per object (a Secret read). */
  private readonly tallies = new Map<string, number>();

  constructor(private readonly opts: RecorderOptions) {}

  bytes(): number {
    return this.total;
  }

  tally = (what: string): void => {
    this.tallies.set(what, (this.tallies.get(what) ?? 0) + 1);
  };

  private grow(delta: number): void {
    this.total += delta;
    if (!this.over && this.total > this.opts.maxBytes) {
      this.over = true;
      this.opts.onOverCap();
    }
  }

  /** One answer of the cluster to `GET path`. */
  kubeAnswer(path: string, text: string): void {
    const read = parseKubeRead(path);
    if (!read) {
      if (/(^|\/)version$/.test(path.split('?')[0]!)) this.version = this.parse(text);
      return;
    }
    if (read.resource === 'secrets') {
      this.tally('Secrets read (never recorded)');
      return;
    }
    if (read.subresource === 'log' && read.namespace && read.name) return this.log(path, read, text);
    if (read.subresource) return;
    const body = this.parse(text);
    if (!body) return;
    const selectorKey = `${resourceKey(read)}|${read.namespace ?? ''}|${read.labelSelector ?? ''}|${read.fieldSelector ?? ''}`;
    const coll = this.collection(read);
    const label = readLabel(path, read);
    if (!coll.reads.has(label)) coll.reads.set(label, new Set());
    coll.reads.get(label)!.add(this.pass);
    if (body.kind === 'Table') {
      if (read.name === undefined) this.tables.set(selectorKey, { path, read });
      return;
    }
    const items = Array.isArray(body.items) ? (body.items as unknown[]) : read.name !== undefined ? [body] : [];
    if (Array.isArray(body.items) && read.name === undefined) this.fullLists.add(selectorKey);
    for (const item of items) this.object(coll, item);
  }

  /** A read that failed: a missing object or a collection the cluster does not serve is what the replay answers too. */
  kubeFailure(path: string, err: unknown): void {
    if (!(err instanceof KubeError) || (err.failure !== 'not-found' && err.failure !== 'missing-crd')) return;
    // An API group's discovery document not found: the group is not installed (Multus on many clusters).
    if (/^\/apis\/[^/?]+$/.test(path)) {
      this.absences.set(path, { path, failure: err.failure });
      return;
    }
    const read = parseKubeRead(path);
    if (!read || read.subresource) return;
    this.absences.set(path.split('?')[0]!, { path: path.split('?')[0]!, failure: err.failure });
  }

  /**
   * One answer of the profile API: to a GET, or to a POST that only reads (`read`: a dashboard
   * search, kept with its filter). Changes are never recorded.
   */
  paletteAnswer(call: { method: string; path: string; read?: boolean | undefined; body?: unknown }, status: number, text: string): void {
    const search = call.method === 'POST' && call.read === true;
    if (call.method !== 'GET' && !search) return;
    const body = this.parse(text, true);
    if (body === undefined) return;
    const stripped: string[] = [];
    const clean = this.redactValues(this.opts.redactor.value(body), 0, stripped);
    const json = JSON.stringify(clean);
    const request = search ? JSON.stringify(this.opts.redactor.value(call.body ?? {})) : undefined;
    const key = search ? `POST ${call.path} ${request}` : call.path;
    const old = this.answers.get(key);
    this.answers.set(key, { value: { status, json, stripped, ...(request !== undefined ? { request } : {}) }, bytes: json.length, passes: new Set([...(old?.passes ?? []), this.pass]) });
    this.grow(json.length + (request?.length ?? 0) - (old?.bytes ?? 0));
  }

  /** Reads answered only as a table: their whole list must be read too (the rows are not objects). */
  tableOnlyReads(): KubeRead[] {
    return [...this.tables].filter(([key]) => !this.fullLists.has(key)).map(([, t]) => t.read);
  }

  /** The parts for the document, and the manifest's account of them. */
  build(): {
    kube: { version: Record<string, unknown> | undefined; resources: Record<string, unknown>; logs: CapturedLog[]; absent: CapturedAbsence[] };
    palette: { answers: unknown[] };
    parts: PartRecord[];
    redactions: Array<{ what: string; count: number }>;
  } {
    const parts: PartRecord[] = [];
    const resources: Record<string, unknown> = {};
    for (const [key, c] of [...this.collections].sort(([a], [b]) => a.localeCompare(b))) {
      const objects = [...c.objects].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, o]) => new RawJson(o.json));
      for (const o of c.objects.values()) for (const t of o.stripped) this.tally(t);
      resources[key] = { group: c.group, version: c.version, resource: c.resource, objects };
      parts.push({ part: `kube.resources[${JSON.stringify(key)}]`, what: KUBE_WHAT[c.resource] ?? key, count: objects.length, reads: [...c.reads.keys()].sort(), passes: union(c.reads.values()) });
    }
    const logs = [...this.logs.values()].map((l) => l.value).sort((a, b) => `${a.namespace}/${a.pod}`.localeCompare(`${b.namespace}/${b.pod}`));
    if (logs.length) {
      parts.push({
        part: 'kube.logs',
        what: 'Pod log tails the diagnosis reads (virt-handler on the affected nodes, launchers of the affected VMIs)',
        count: logs.length,
        reads: logs.map((l) => `GET /api/v1/namespaces/${l.namespace}/pods/${l.pod}/log?${l.container ? `container=${l.container}&` : ''}tailLines=${l.tailLines ?? ''}`),
        passes: union([...this.logs.values()].map((l) => l.passes)),
      });
    }
    const answers = [...this.answers].sort(([a], [b]) => a.localeCompare(b));
    for (const [, a] of answers) for (const t of a.value.stripped) this.tally(t);
    const pathOf = (key: string) => (key.startsWith('POST ') ? key.split(' ')[1]! : key);
    const byWhat = new Map<string, Array<[string, Sized<{ status: number; json: string; stripped: string[]; request?: string }>]>>();
    for (const a of answers) byWhat.set(paletteWhat(pathOf(a[0])), [...(byWhat.get(paletteWhat(pathOf(a[0]))) ?? []), a]);
    for (const [what, list] of byWhat) parts.push({ part: 'palette.answers', what, count: list.length, reads: list.map(([k]) => (k.startsWith('POST ') ? k : `GET ${k}`)), passes: union(list.map(([, a]) => a.passes)) });
    return {
      kube: { version: this.version, resources, logs, absent: [...this.absences.values()] },
      palette: {
        answers: answers.map(([key, a]) =>
          a.value.request !== undefined ? { method: 'POST', path: pathOf(key), request: new RawJson(a.value.request), status: a.value.status, body: new RawJson(a.value.json) } : { path: key, status: a.value.status, body: new RawJson(a.value.json) },
        ),
      },
      parts,
      redactions: [...this.tallies].map(([what, count]) => ({ what, count })),
    };
  }

  private parse(text: string, any = false): Record<string, unknown> | undefined {
    try {
      const v = JSON.parse(text) as unknown;
      return v !== null && typeof v === 'object' && (any || !Array.isArray(v)) ? (v as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  }

  private collection(read: KubeRead): Collection {
    const key = resourceKey(read);
    let c = this.collections.get(key);
    if (!c) {
      c = { group: read.group, version: read.version, resource: read.resource, objects: new Map(), reads: new Map() };
      this.collections.set(key, c);
    }
    return c;
  }

  private object(coll: Collection, item: unknown): void {
    const meta = (item as { metadata?: { name?: unknown; namespace?: unknown } } | null)?.metadata;
    if (typeof meta?.name !== 'string') return;
    const key = typeof meta.namespace === 'string' && meta.namespace !== '' ? `${meta.namespace}/${meta.name}` : meta.name;
    const stripped: string[] = [];
    // The item was parsed here from the answer's text, for the capture alone: stripped in place, then
    // every known secret blanked in its JSON (the redactor's field names were blanked by the strip).
    const json = this.opts.redactor.text(JSON.stringify(stripKubeObjectInPlace(item, coll.resource, (t) => stripped.push(t))));
    const old = coll.objects.get(key);
    coll.objects.set(key, { json, stripped });
    this.grow(json.length - (old?.json.length ?? 0));
  }

  private log(path: string, read: KubeRead, text: string): void {
    const query = new URLSearchParams(path.includes('?') ? path.slice(path.indexOf('?') + 1) : '');
    const container = query.get('container') ?? '';
    const tail = Number(query.get('tailLines'));
    const value: CapturedLog = { namespace: read.namespace!, pod: read.name!, container, ...(Number.isInteger(tail) && tail > 0 ? { tailLines: tail } : {}), text: this.opts.redactor.text(text) };
    const key = `${value.namespace}/${value.pod}/${container}`;
    const bytes = JSON.stringify(value.text).length;
    const old = this.logs.get(key);
    this.logs.set(key, { value, bytes, passes: new Set([...(old?.passes ?? []), this.pass]) });
    this.grow(bytes - (old?.bytes ?? 0));
  }

  /** Every `values` string (a pack's YAML) with its credential-named keys redacted. */
  private redactValues(v: unknown, depth: number, stripped: string[]): unknown {
    if (v === null || typeof v !== 'object' || depth > 64) return v;
    if (Array.isArray(v)) return v.map((x) => this.redactValues(x, depth + 1, stripped));
    const out: Record<string, unknown> = {};
    // A profile variable whose name says credential (`{name, value}` of a cluster's variables): Palette
    // masks only those declared sensitive, so a password declared otherwise would be in clear.
    const credential = typeof (v as { name?: unknown }).name === 'string' && SECRET_NAME.test((v as { name: string }).name);
    for (const [k, x] of Object.entries(v)) {
      if (credential && (k === 'value' || k === 'defaultValue') && typeof x === 'string' && x !== '') {
        stripped.push(VARIABLE_REDACTED);
        out[k] = REDACTED;
      } else if (k === 'values' && typeof x === 'string') {
        const r = redactValuesText(x);
        for (let i = 0; i < r.count; i++) stripped.push(VALUES_REDACTED);
        out[k] = r.text;
      } else out[k] = this.redactValues(x, depth + 1, stripped);
    }
    return out;
  }
}

const VALUES_REDACTED = 'pack values under credential-named keys (redacted)';
const VARIABLE_REDACTED = 'profile-variable values with credential names (redacted)';

function union(sets: Iterable<Set<string>>): string[] {
  const out = new Set<string>();
  for (const s of sets) for (const v of s) out.add(v);
  return [...out];
}
