/**
 * The compiled parse (src/io/fast-schema.ts) gives exactly what zod's `safeParse` gives: the same
 * values, the same keys in the same order (an absent optional key absent, a present null one
 * `undefined`), and the same verdict, on every object the lab serves, on the real corpus, and on
 * damaged copies of them (fields removed, set to null, given another type, unknown keys added).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { compiledParse, safeParseFast } from '../../src/io/fast-schema.js';
import * as kube from '../../src/kube/schemas.js';
import { PrometheusAnswerSchema } from '../../src/domain/window/dirty-rate.js';
import { seeded } from '../support/seed.js';
import { createHarness } from '../lab/support/world-harness.js';

/** Every key in order, `undefined` values shown (JSON and toEqual would hide an absent/undefined difference). */
function layout(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(layout);
  if (v !== null && typeof v === 'object') return Object.entries(v).map(([k, x]) => [k, x === undefined ? '<undefined>' : layout(x)]);
  return v;
}

function expectSame(schema: z.ZodType, value: unknown, where: string): boolean {
  const zod = schema.safeParse(value);
  const fast = compiledParse(schema, value);
  expect(fast, `${where}: the schema is not compiled`).toBeDefined();
  expect(fast!.fits, `${where}: zod ${zod.success ? 'accepts' : 'refuses'} it`).toBe(zod.success);
  if (zod.success && fast!.fits) expect(layout(fast!.value), where).toEqual(layout(zod.data));
  // And the drop-in: the same result whichever path answered.
  const drop = safeParseFast(schema, value);
  expect(drop.success).toBe(zod.success);
  return zod.success;
}

const json = <T,>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** The lab's objects of each kind, as the lab serves them (a healthy site: every kind present). */
const harness = createHarness('healthy', { seed: 11 });
afterAll(() => harness.close());

/** The real corpus (test/fixtures/real): YAML or JSON, one object, a list or a `List`; the objects of `kinds`. */
function corpus(dir: string, kinds: readonly string[]): unknown[] {
  if (!dir) return [];
  const base = join('test', 'fixtures', 'real', dir);
  return readdirSync(base)
    .filter((f) => /\.(ya?ml|json)$/.test(f))
    .flatMap((f) => {
      const text = readFileSync(join(base, f), 'utf8');
      const v = (f.endsWith('.json') ? JSON.parse(text) : parseYaml(text)) as { items?: unknown[] } | unknown[];
      return Array.isArray(v) ? v : Array.isArray((v as { items?: unknown[] }).items) ? (v as { items: unknown[] }).items : [v];
    })
    .filter((o) => kinds.includes(String((o as { kind?: unknown }).kind)));
}

/** Each answer schema with the objects it reads: the lab's (as served: through JSON) and the real corpus's. */
const kinds: Array<{ resource: string; schema: z.ZodType; objects: unknown[] }> = (
  [
    ['nodes', kube.NodeSchema, 'node', ['Node']],
    ['pods', kube.PodSchema, 'pod', ['Pod']],
    ['services', kube.ServiceSchema, 'service', ['Service']],
    ['events', kube.EventSchema, 'event', ['Event']],
    ['storageclasses', kube.StorageClassSchema, 'storage', ['StorageClass']],
    ['network-attachment-definitions', kube.NadSchema, 'nad', ['NetworkAttachmentDefinition']],
    ['namespaces', kube.NamespaceSchema, '', []],
    ['kubevirts', kube.KubeVirtSchema, 'kubevirt', ['KubeVirt']],
    ['cdis', kube.CdiSchema, 'cdi', ['CDI']],
    ['virtualmachines', kube.VmSchema, 'vm', ['VirtualMachine']],
    ['virtualmachineinstances', kube.VmiSchema, 'vmi', ['VirtualMachineInstance']],
    ['virtualmachineinstances', kube.VmiPhaseSchema, 'vmi', ['VirtualMachineInstance']],
    ['virtualmachineinstancemigrations', kube.VmimSchema, 'vmim', ['VirtualMachineInstanceMigration']],
    ['storageclusters', kube.StorageClusterSchema, 'storage', ['StorageCluster', 'CephCluster']],
    ['migrationpolicies', kube.MigrationPolicySchema, '', []],
  ] as const
).map(([resource, schema, dir, names]) => ({ resource, schema, objects: [...harness.list(resource).map(json), ...corpus(dir, names)] }));

/** Damage one place of a copy: remove it, null it, give it another type, or add an unknown key beside it. */
function damage(value: unknown, rand: () => number): unknown {
  const copy = json(value);
  const places: Array<{ holder: Record<string, unknown> | unknown[]; key: string | number }> = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach((x, i) => (places.push({ holder: v, key: i }), walk(x)));
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) (places.push({ holder: v as Record<string, unknown>, key: k }), walk(x));
  };
  walk(copy);
  if (!places.length) return copy;
  const { holder, key } = places[Math.floor(rand() * places.length)]!;
  const others: unknown[] = [null, 'text', 7, 1.5, true, false, [], {}, ['x'], { a: 1 }, '', -0, `a long message ${'that goes on '.repeat(400)}\u001b[31m`];
  const roll = rand();
  if (roll < 0.25) {
    if (Array.isArray(holder)) holder.splice(key as number, 1);
    else delete holder[key as string];
  } else if (roll < 0.45) (holder as Record<string | number, unknown>)[key] = null;
  else if (roll < 0.85) (holder as Record<string | number, unknown>)[key] = others[Math.floor(rand() * others.length)];
  else if (!Array.isArray(holder)) holder[`unknown${Math.floor(rand() * 5)}`] = 'x';
  return copy;
}

describe('the compiled parse of the answer schemas', () => {
  it.each(kinds.map((k) => [k.resource, k] as const))('agrees with zod on the lab’s %s and the real corpus', (resource, { schema, objects }) => {
    let accepted = 0;
    for (const [i, o] of objects.entries()) if (expectSame(schema, o, `${resource}[${i}]`)) accepted++;
    // The lab's and the corpus's objects are what the schemas were written for: zod accepts them, so the comparison compares values.
    expect(accepted).toBe(objects.length);
  });

  it('agrees with zod on 3,000 damaged copies (deterministic seeds), accepting and refusing alike', () => {
    let refused = 0;
    let accepted = 0;
    for (let round = 0; round < 3_000; round++) {
      const rand = seeded(36_100 + round);
      const { resource, schema, objects } = kinds[Math.floor(rand() * kinds.length)]!;
      if (!objects.length) continue;
      let value = objects[Math.floor(rand() * objects.length)];
      for (let n = 1 + Math.floor(rand() * 3); n > 0; n--) value = damage(value, rand);
      if (expectSame(schema, value, `round ${round} (${resource})`)) accepted++;
      else refused++;
    }
    expect(refused).toBeGreaterThan(300);
    expect(accepted).toBeGreaterThan(300);
  });

  it('agrees with zod on Prometheus answers (the dirty rates)', () => {
    const answer = { status: 'success', data: { resultType: 'vector', result: [{ metric: { namespace: 'a', name: 'b' }, value: [1700000000.5, '1234'] }] } };
    for (const v of [answer, { status: 'error', errorType: 'bad_data', error: 'x' }, { status: 'success', data: null }, { status: 'success', data: { resultType: 'vector', result: [{ metric: { a: 1 }, value: [] }] } }]) {
      expectSame(PrometheusAnswerSchema, v, JSON.stringify(v));
    }
  });
});
