/**
 * The lab cluster's objects, in memory. Built for the `large` scenario (20,000 pods, 5,000 VMIs):
 * one Map per resource keyed like etcd (`ns/name`, or `name` for cluster-scoped types), a lazily
 * rebuilt key order for stable paging, and each object's JSON cached until it changes, so a big
 * list is answered by concatenating strings instead of serializing thousands of objects.
 *
 * Stored objects are deep-frozen copies: what `get`/`list` return is read-only, and changing it
 * throws instead of silently leaving the cached JSON stale. Change objects through `update`.
 * Every write (upsert, update, remove) takes the next resourceVersion, whatever the caller passed.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { deepFreeze } from '../../io/deep-freeze.js';
import { servedType, apiVersionOf, type ServedType } from './kinds.js';
import { fieldMatcher, labelMatcher } from './selectors.js';
import type { KubeObject, ListOptions, ResourceStoreApi } from './types.js';

export interface StoredEntry {
  /** etcd-style key: `namespace/name`, or `name` for cluster-scoped types. */
  readonly key: string;
  obj: KubeObject;
  /** The object's JSON, computed on first need and dropped whenever the object changes. */
  json: string | undefined;
}

interface Table {
  type: ServedType;
  entries: Map<string, StoredEntry>;
  /** Entries in key order; undefined after an insert or a removal. */
  sorted: StoredEntry[] | undefined;
}

export interface ResourceStoreOptions {
  /** The world's simulated clock (ms since epoch), used for creationTimestamps and table ages. */
  now: () => number;
}

export function objectKey(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

/** Kubernetes timestamps are RFC 3339 with whole seconds. */
export function kubeTimestamp(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

const GENERATED_SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** The apiserver's generateName suffix: five characters without vowels or look-alikes. */
function generatedSuffix(): string {
  return [...randomBytes(5)].map((b) => GENERATED_SUFFIX_ALPHABET[b % GENERATED_SUFFIX_ALPHABET.length]).join('');
}

export class ResourceStore implements ResourceStoreApi {
  private readonly tables = new Map<string, Table>();
  private revision = 0;

  constructor(private readonly options: ResourceStoreOptions) {}

  now(): number {
    return this.options.now();
  }

  /** The latest resourceVersion handed out (what a list reports). */
  resourceVersion(): string {
    return String(this.revision);
  }

  upsert(resource: string, obj: KubeObject): KubeObject {
    const table = this.table(resource);
    const copy = structuredClone(obj);
    const meta = copy.metadata;
    if (!meta.name && meta.generateName) meta.name = `${meta.generateName}${generatedSuffix()}`;
    this.validate(table.type, copy);
    const key = objectKey(meta.namespace, meta.name);
    const existing = table.entries.get(key);
    // A replace keeps the object's identity unless the caller gives a new one.
    meta.uid ??= existing?.obj.metadata.uid ?? randomUUID();
    meta.creationTimestamp ??= existing?.obj.metadata.creationTimestamp ?? kubeTimestamp(this.now());
    meta.resourceVersion = this.nextRevision();
    deepFreeze(copy);
    if (existing) {
      existing.obj = copy;
      existing.json = undefined;
    } else {
      table.entries.set(key, { key, obj: copy, json: undefined });
      table.sorted = undefined;
    }
    return copy;
  }

  get(resource: string, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.entry(resource, namespace, name)?.obj;
  }

  /** The stored entry (object and cached JSON); the namespace is ignored for cluster-scoped types. */
  entry(resource: string, namespace: string | undefined, name: string): StoredEntry | undefined {
    const table = this.table(resource);
    return table.entries.get(objectKey(table.type.namespaced ? namespace : undefined, name));
  }

  list(resource: string, opts: ListOptions = {}): KubeObject[] {
    return this.select(resource, opts).map((e) => e.obj);
  }

  update(resource: string, namespace: string | undefined, name: string, mutate: (obj: KubeObject) => void): KubeObject | undefined {
    const entry = this.entry(resource, namespace, name);
    if (!entry) return undefined;
    const copy = structuredClone(entry.obj);
    mutate(copy);
    if (copy.metadata.name !== entry.obj.metadata.name || copy.metadata.namespace !== entry.obj.metadata.namespace) {
      throw new Error(`update of ${resource} ${entry.key} must not change its name or namespace`);
    }
    this.validate(this.table(resource).type, copy);
    copy.metadata.resourceVersion = this.nextRevision();
    entry.obj = deepFreeze(copy);
    entry.json = undefined;
    return entry.obj;
  }

  remove(resource: string, namespace: string | undefined, name: string): KubeObject | undefined {
    const table = this.table(resource);
    const key = objectKey(table.type.namespaced ? namespace : undefined, name);
    const entry = table.entries.get(key);
    if (!entry) return undefined;
    table.entries.delete(key);
    table.sorted = undefined;
    this.nextRevision();
    return entry.obj;
  }

  count(resource: string): number {
    return this.table(resource).entries.size;
  }

  /**
   * Entries in key order, filtered by namespace and selectors. Throws a KubeStatusException (400)
   * for a selector that does not parse. This is what the server lists and pages through.
   */
  select(resource: string, opts: ListOptions = {}): StoredEntry[] {
    const table = this.table(resource);
    const matchLabels = labelMatcher(opts.labelSelector);
    const matchFields = fieldMatcher(opts.fieldSelector);
    const namespace = table.type.namespaced ? opts.namespace : undefined;
    const prefix = namespace ? `${namespace}/` : undefined;
    const out: StoredEntry[] = [];
    for (const e of this.sorted(table)) {
      if (prefix !== undefined && !e.key.startsWith(prefix)) continue;
      if (matchLabels(e.obj.metadata.labels) && matchFields(e.obj)) out.push(e);
    }
    return out;
  }

  /** The entry's JSON, serialized at most once per version of the object. */
  json(entry: StoredEntry): string {
    entry.json ??= JSON.stringify(entry.obj);
    return entry.json;
  }

  private nextRevision(): string {
    this.revision += 1;
    return String(this.revision);
  }

  private table(resource: string): Table {
    let table = this.tables.get(resource);
    if (!table) {
      table = { type: servedType(resource), entries: new Map(), sorted: undefined };
      this.tables.set(resource, table);
    }
    return table;
  }

  private sorted(table: Table): StoredEntry[] {
    table.sorted ??= [...table.entries.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return table.sorted;
  }

  private validate(type: ServedType, obj: KubeObject): void {
    const where = `${type.resource} ${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`;
    if (!obj.metadata?.name) throw new Error(`${where}: metadata.name (or generateName) is required`);
    if (obj.kind !== type.kind || obj.apiVersion !== apiVersionOf(type)) {
      throw new Error(`${where}: expected ${apiVersionOf(type)} ${type.kind}, got ${obj.apiVersion} ${obj.kind}`);
    }
    if (type.namespaced && !obj.metadata.namespace) throw new Error(`${where}: metadata.namespace is required for ${type.resource}`);
    if (!type.namespaced && obj.metadata.namespace) throw new Error(`${where}: ${type.resource} are cluster-scoped; remove metadata.namespace`);
  }
}
