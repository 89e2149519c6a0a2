/**
 * The real-objects corpus (test/fixtures/real), loaded as a cluster would serve it: each file's
 * objects (a `List` is its items) by kind, and a Kubectl stand-in that answers the reader's paths
 * with them, so the readers parse exactly what a real apiserver sends.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { Kubectl } from '../../src/kube/kubectl.js';

export const CORPUS_DIR = new URL('../fixtures/real/', import.meta.url).pathname;

export interface CorpusObject {
  file: string;
  obj: { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } } & Record<string, unknown>;
}

export function loadCorpus(): CorpusObject[] {
  const out: CorpusObject[] = [];
  for (const dir of readdirSync(CORPUS_DIR, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    for (const name of readdirSync(join(CORPUS_DIR, dir.name)).sort()) {
      const file = `${dir.name}/${name}`;
      const text = readFileSync(join(CORPUS_DIR, file), 'utf8');
      const doc = (name.endsWith('.json') ? JSON.parse(text) : parse(text)) as CorpusObject['obj'] & { items?: CorpusObject['obj'][] };
      for (const obj of doc.kind === 'List' ? doc.items! : [doc]) out.push({ file, obj });
    }
  }
  return out;
}

export const ofKind = (corpus: CorpusObject[], kind: string, file?: string) => corpus.filter((c) => c.obj.kind === kind && (!file || c.file === file));

/** The API path of a kind's collection, as the reader asks for it. */
const collection: Record<string, string> = {
  Node: '/api/v1/nodes',
  Pod: '/api/v1/pods',
  Event: '/api/v1/events',
  Service: '/api/v1/services',
  StorageClass: '/apis/storage.k8s.io/v1/storageclasses',
  NetworkAttachmentDefinition: '/apis/k8s.cni.cncf.io/v1/network-attachment-definitions',
  VirtualMachine: '/apis/kubevirt.io/v1/virtualmachines',
  VirtualMachineInstance: '/apis/kubevirt.io/v1/virtualmachineinstances',
  VirtualMachineInstanceMigration: '/apis/kubevirt.io/v1/virtualmachineinstancemigrations',
};

const plural = (kind: string) => (kind === 'CDI' ? 'cdis' : `${kind.toLowerCase()}s`);

/** A Kubectl that answers lists and gets from the given objects (what a served cluster would hold), nothing else. */
export function corpusKubectl(objects: CorpusObject['obj'][]): Kubectl {
  const byPath = (path: string) => {
    const base = path.split('?')[0]!;
    const kind = Object.entries(collection).find(([, p]) => p === base)?.[0];
    if (!kind) throw new Error(`the corpus serves no list at ${path}`);
    return objects.filter((o) => o.kind === kind);
  };
  const stub = {
    // Label selectors as the readers use them (`key` present); field selectors are not needed.
    listRaw: async (path: string, opts: { labelSelector?: string } = {}) => byPath(path).filter((o) => !opts.labelSelector || Object.hasOwn((o.metadata as { labels?: object }).labels ?? {}, opts.labelSelector)),
    getObject: async (path: string) => objects.find((o) => path.endsWith(`/${plural(o.kind)}/${o.metadata.name}`) && (!o.metadata.namespace || path.includes(`/namespaces/${o.metadata.namespace}/`))),
    getRaw: async (path: string) => {
      throw new Error(`the corpus serves no raw read of ${path}`);
    },
  };
  return stub as unknown as Kubectl;
}
