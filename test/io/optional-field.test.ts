/**
 * "Null is not set", everywhere an answer is read (src/io/optional-field.ts). Each schema of an
 * answer (the cluster, the profile API, a kubeconfig) is walked through zod's own description of
 * it: a value is made with every field set, then each optional field in turn is sent as `null`
 * and as absent. Both must parse alike, and the field must come out as undefined, never null.
 * A schema written later with `.optional()` or `.nullish()` fails here; so does a new module of
 * answer schemas that this test does not list (the last test).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { opt } from '../../src/io/optional-field.js';

/** Modules whose schemas read what another system sends. */
const ANSWER_MODULES = {
  'src/kube/schemas.ts': () => import('../../src/kube/schemas.js'),
  'src/kube/kubeconfig/read.ts': () => import('../../src/kube/kubeconfig/read.js'),
  'src/palette/schemas.ts': () => import('../../src/palette/schemas.js'),
  'src/palette/cluster-schemas.ts': () => import('../../src/palette/cluster-schemas.js'),
  'src/palette/registry-schemas.ts': () => import('../../src/palette/registry-schemas.js'),
  'src/palette/variables.ts': () => import('../../src/palette/variables.js'),
  'src/palette/list-schemas.ts': () => import('../../src/palette/list-schemas.js'),
  'src/fleet/from-palette.ts': () => import('../../src/fleet/from-palette.js'),
  'src/steps/migrations/lifecycle.ts': () => import('../../src/steps/migrations/lifecycle.js'),
  'src/steps/plan/kubevirt-config.ts': () => import('../../src/steps/plan/kubevirt-config.js'),
  'src/domain/window/dirty-rate.ts': () => import('../../src/domain/window/dirty-rate.js'),
} as const;

/**
 * Modules whose schemas read the product's own inputs (params, runbooks, step parameters, its
 * journal and report): there a `null` is a mistake to name, not a server's way to say "not set".
 * The lab (src/lab) is the server side and is not walked.
 */
const OWN_INPUT_MODULES = new Set([
  'src/engine/byte-size.ts',
  'src/engine/duration-schema.ts',
  'src/engine/params.ts',
  'src/engine/runbook.ts',
  'src/fleet/report-schema.ts',
  'src/fleet/schema.ts',
  'src/kube/check-schema.ts',
  'src/report/schema.ts',
  'src/report/timeline/schema.ts',
  'src/steps/cards.ts',
  'src/steps/known-issue-schema.ts',
  'src/steps/migrations/params.ts',
  'src/steps/runbook-schema.ts',
  'src/values/rule-schema.ts',
  'src/values/settings-schema.ts',
  'src/values/version-notes-schema.ts',
]);

type Path = Array<string | number>;
type Def = { type: string; [k: string]: unknown };
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;
const isOptionalField = (s: z.ZodType) => (s as unknown as { _zod: { optin?: string } })._zod.optin === 'optional';

/** A value with every field set (the first choice of a union), as a server that fills everything would send. */
function sample(s: z.ZodType): unknown {
  const def = defOf(s);
  switch (def.type) {
    case 'string':
      return 's';
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'unknown':
    case 'any':
      return 'x';
    case 'literal':
      return (def.values as unknown[])[0];
    case 'enum':
      return Object.values(def.entries as Record<string, unknown>)[0];
    case 'object':
      return Object.fromEntries(Object.entries(def.shape as Record<string, z.ZodType>).map(([k, v]) => [k, sample(v)]));
    case 'array':
      return [sample(def.element as z.ZodType)];
    case 'record':
      return { k: sample(def.valueType as z.ZodType) };
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
      return sample(def.innerType as z.ZodType);
    case 'pipe':
      return sample(def.in as z.ZodType);
    case 'union':
      return sample((def.options as z.ZodType[])[0]!);
    default:
      throw new Error(`sample: no rule for a ${def.type} schema`);
  }
}

/** The path of every optional field within the sample's shape. */
function optionalPaths(s: z.ZodType, at: Path = []): Path[] {
  const def = defOf(s);
  switch (def.type) {
    case 'object':
      return Object.entries(def.shape as Record<string, z.ZodType>).flatMap(([k, v]) => [...(isOptionalField(v) ? [[...at, k]] : []), ...optionalPaths(v, [...at, k])]);
    case 'array':
      return optionalPaths(def.element as z.ZodType, [...at, 0]);
    case 'record':
      return optionalPaths(def.valueType as z.ZodType, [...at, 'k']);
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
      return optionalPaths(def.innerType as z.ZodType, at);
    case 'pipe':
      return optionalPaths(def.in as z.ZodType, at);
    case 'union':
      return optionalPaths((def.options as z.ZodType[])[0]!, at);
    default:
      return [];
  }
}

function parentOf(root: unknown, path: Path): Record<string | number, unknown> {
  let node = root as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) node = node[k] as Record<string | number, unknown>;
  return node;
}

/** What goes wrong with `null` in each optional field of `schema`: nothing, for a schema that follows the rule. */
function nullProblems(schema: z.ZodType): string[] {
  const full = sample(schema);
  const whole = schema.safeParse(full);
  if (!whole.success) return [`the value with every field set does not parse: ${whole.error.issues[0]?.message}`];
  const problems: string[] = [];
  for (const path of optionalPaths(schema)) {
    const name = path.join('.');
    const withNull = structuredClone(full);
    parentOf(withNull, path)[path.at(-1)!] = null;
    const absent = structuredClone(full);
    delete parentOf(absent, path)[path.at(-1)!];
    const a = schema.safeParse(withNull);
    const b = schema.safeParse(absent);
    if (a.success !== b.success) {
      problems.push(`${name}: null ${a.success ? 'parses' : `is refused (${a.error.issues[0]?.message})`} but absent ${b.success ? 'parses' : 'is refused'}`);
    } else if (!a.success) {
      // A rule of the schema wants the field (e.g. a version beside a template): null must say the same as absent.
      if (JSON.stringify(a.error.issues.map((i) => i.message)) !== JSON.stringify(b.error?.issues.map((i) => i.message))) problems.push(`${name}: null and absent are refused differently`);
    } else {
      const out = parentOf(a.data, path)[path.at(-1)!];
      if (out !== undefined) problems.push(`${name}: null comes out as ${JSON.stringify(out)}, not as "not set"`);
    }
  }
  return problems;
}

const schemasOf = (mod: Record<string, unknown>) => Object.entries(mod).filter((e): e is [string, z.ZodType] => e[1] instanceof z.ZodType);

describe('null is "not set" in every answer schema', () => {
  for (const [file, load] of Object.entries(ANSWER_MODULES)) {
    it(file, async () => {
      const schemas = schemasOf((await load()) as Record<string, unknown>);
      expect(schemas.length).toBeGreaterThan(0);
      const problems = schemas.flatMap(([name, schema]) => nullProblems(schema).map((p) => `${name}: ${p}`));
      expect(problems).toEqual([]);
      // The walk did reach optional fields (a walk that finds none proves nothing).
      expect(schemas.reduce((n, [, s]) => n + optionalPaths(s).length, 0)).toBeGreaterThan(3);
    });
  }

  it('the walk fails a schema written without the rule', () => {
    expect(nullProblems(z.object({ a: z.string(), when: z.string().optional() }))).toEqual(['when: null is refused (Invalid input: expected string, received null) but absent parses']);
    expect(nullProblems(z.object({ status: z.object({ reason: z.string().nullish() }).optional() }))).toEqual([
      'status: null is refused (Invalid input: expected object, received null) but absent parses',
      'status.reason: null comes out as null, not as "not set"',
    ]);
    expect(nullProblems(z.object({ conditions: opt(z.array(z.object({ type: z.string(), lastProbeTime: opt(z.string()) }))) }))).toEqual([]);
  });

  it('a null timestamp comes out as undefined, a set one as itself', async () => {
    const { VmiSchema } = await import('../../src/kube/schemas.js');
    // The LiveMigratable condition of a running VMI (KubeVirt runbook VMCannotBeEvicted).
    const condition = { lastProbeTime: null, lastTransitionTime: null, reason: 'DisksNotLiveMigratable', status: 'False', type: 'LiveMigratable' };
    const vmi = VmiSchema.parse({ metadata: { name: 'fedora02', namespace: null }, status: { phase: 'Running', conditions: [condition, { type: 'Ready', status: 'True', lastTransitionTime: '2025-01-01T00:00:00Z' }] } });
    expect(vmi.metadata.namespace).toBeUndefined();
    expect(vmi.status?.conditions?.[0]?.lastTransitionTime).toBeUndefined();
    expect(vmi.status?.conditions?.[1]?.lastTransitionTime).toBe('2025-01-01T00:00:00Z');
  });

  it('every module of schemas is walked here or named as the product’s own input', () => {
    const root = join(import.meta.dirname, '../..');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.tsx?$/.test(name)) files.push(relative(root, p));
      }
    };
    walk(join(root, 'src'));
    const defining = files.filter((f) => !f.startsWith('src/lab/') && /\bz\.(object|looseObject|strictObject|array|string|record|union|discriminatedUnion)\(/.test(readFileSync(join(root, f), 'utf8')));
    const unlisted = defining.filter((f) => !(f in ANSWER_MODULES) && !OWN_INPUT_MODULES.has(f));
    expect(unlisted, 'list each in ANSWER_MODULES (it reads an answer) or OWN_INPUT_MODULES').toEqual([]);
    // and the list names only modules that still define schemas (a moved schema takes its entry along)
    expect([...OWN_INPUT_MODULES].filter((f) => !defining.includes(f)), 'no longer defining schemas: remove from OWN_INPUT_MODULES').toEqual([]);
  });
});
