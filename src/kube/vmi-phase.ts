/**
 * VmiPhaseSchema (schemas.ts), checked by hand: the name, namespace, creation time and labels of
 * each VM instance and its phase, all verification reads of them. A list of 5,000 goes through it
 * at the very end of `verify`'s critical path, where zod's first use of a schema costs ~50 ms of
 * compiling and warming up; this costs ~2 ms. It gives what the schema gives (the same fields, the
 * same first problem with the same words: test/kube/vmi-phase.test.ts compares them case by case),
 * and follows the schemas' rule for optional fields: absent and `null` are both "not set"
 * (src/io/optional-field.ts).
 */
import { isSet } from '../io/optional-field.js';
import type { VmiPhase } from './schemas.js';

export type Checked<T> = { ok: true; value: T } | { ok: false; path: Array<string | number>; message: string };

/** zod's name for what it received. */
function received(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

const expected = (what: string, v: unknown) => `Invalid input: expected ${what}, received ${received(v)}`;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function checkVmiPhase(item: unknown): Checked<VmiPhase> {
  if (!isObject(item)) return { ok: false, path: [], message: expected('object', item) };
  const meta = item.metadata;
  if (!isObject(meta)) return { ok: false, path: ['metadata'], message: expected('object', meta) };
  if (typeof meta.name !== 'string') return { ok: false, path: ['metadata', 'name'], message: expected('string', meta.name) };
  const metadata: VmiPhase['metadata'] = { name: meta.name };
  for (const key of ['namespace', 'creationTimestamp'] as const) {
    const v = meta[key];
    if (!isSet(v)) continue;
    if (typeof v !== 'string') return { ok: false, path: ['metadata', key], message: expected('string', v) };
    metadata[key] = v;
  }
  if (isSet(meta.labels)) {
    if (!isObject(meta.labels)) return { ok: false, path: ['metadata', 'labels'], message: expected('record', meta.labels) };
    for (const [k, v] of Object.entries(meta.labels)) if (typeof v !== 'string') return { ok: false, path: ['metadata', 'labels', k], message: expected('string', v) };
    metadata.labels = { ...(meta.labels as Record<string, string>) };
  }
  const value: VmiPhase = { metadata };
  if (isSet(item.status)) {
    if (!isObject(item.status)) return { ok: false, path: ['status'], message: expected('object', item.status) };
    const phase = item.status.phase;
    if (isSet(phase) && typeof phase !== 'string') return { ok: false, path: ['status', 'phase'], message: expected('string', phase) };
    value.status = isSet(phase) ? { phase } : {};
  }
  return { ok: true, value };
}
