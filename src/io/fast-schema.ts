/**
 * A zod schema's parse, compiled into plain functions for the hot paths: lists of thousands of
 * objects decoded from JSON (a cluster's VMs, VM instances, pods, nodes). zod walks its wrappers,
 * checks and per-parse bookkeeping for every field of every item, and its first use of a schema in a
 * process costs several times a later one (its code is generated and warmed then): on 5,000 VMs,
 * 5,000 VM instances, 500 nodes and their pods that was a fifth of `plan`'s time. The compiled
 * function gives what zod's `safeParse` gives (the same values, keys in the same order, an absent
 * optional key absent and a present one holding `undefined`), for the forms the answer schemas use:
 * objects (unknown keys stripped), strings, numbers, booleans, unknown, arrays, string-keyed records,
 * unions, literals and enums, optional, nullable, `overwrite` checks and transforms (`opt()` and the
 * cut-to-length text of src/kube/schemas.ts). Anything else (a refinement, a default, a strict
 * object, coercion) and the schema is left to zod whole. Whenever the compiled function finds a
 * value that does not fit, zod parses that value, so every issue reported is zod's own.
 *
 * For values decoded from JSON (no class instances, no symbols, no `undefined` in arrays).
 * test/io/fast-schema.test.ts holds it to zod on the lab's and the real corpus's objects and on
 * thousands of damaged copies of them.
 */
import type { z } from 'zod';
import { notSetWhenNull } from './optional-field.js';

/** What a compiled function answers for a value the schema does not accept. */
const FAIL: unique symbol = Symbol('does not fit');
type Parse = (value: unknown) => unknown;

/** Thrown while compiling: a form this module does not compile. */
class Unsupported {
  constructor(readonly what: string) {}
}

interface ZodLike {
  _zod: { def: Def; optin?: 'optional' | 'defaulted'; optout?: 'optional'; values?: ReadonlySet<unknown> };
}

interface Def {
  type: string;
  coerce?: boolean;
  checks?: Array<{ _zod: { def: { check: string; tx?: (v: unknown) => unknown; when?: unknown } } }>;
  innerType?: ZodLike;
  in?: ZodLike;
  out?: ZodLike;
  element?: ZodLike;
  keyType?: ZodLike;
  valueType?: ZodLike;
  options?: ZodLike[];
  shape?: Record<string, ZodLike>;
  catchall?: ZodLike;
  transform?: (value: unknown, payload: { value: unknown; issues: unknown[] }) => unknown;
  mode?: string;
  inclusive?: boolean;
  discriminator?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (!isObject(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
};

function withChecks(def: Def, parse: Parse): Parse {
  const checks = def.checks ?? [];
  if (checks.length === 0) return parse;
  const txs = checks.map((c) => {
    const d = c._zod.def;
    if (d.check !== 'overwrite' || typeof d.tx !== 'function' || d.when !== undefined) throw new Unsupported(`check ${d.check}`);
    return d.tx;
  });
  return (v) => {
    let r = parse(v);
    if (r === FAIL) return FAIL;
    for (const tx of txs) r = tx(r);
    return r;
  };
}

/**
 * `opt(x)` (optional-field.ts): an optional of a nullable of x whose one check turns null into
 * undefined. As one function: absent or null is undefined, anything else is x's answer (null made
 * undefined, as the check would).
 */
function compileOpt(schema: ZodLike): Parse | undefined {
  const def = schema._zod.def;
  const checks = def.checks ?? [];
  if (def.type !== 'optional' || checks.length !== 1 || checks[0]!._zod.def.check !== 'overwrite' || checks[0]!._zod.def.tx !== notSetWhenNull) return undefined;
  const nullable = def.innerType!;
  if (nullable._zod.def.type !== 'nullable' || (nullable._zod.def.checks?.length ?? 0) > 0 || nullable._zod.def.innerType!._zod.optin !== undefined) return undefined;
  const inner = compile(nullable._zod.def.innerType!);
  return (v) => {
    if (v === undefined || v === null) return undefined;
    const r = inner(v);
    return r === FAIL ? FAIL : (r ?? undefined);
  };
}

function compileObject(def: Def): Parse {
  if (def.catchall !== undefined) throw new Unsupported('an object with a catchall (strict or loose)');
  const shape = def.shape ?? {};
  if (Object.getOwnPropertySymbols(shape).length) throw new Unsupported('symbol keys');
  const fields = Object.keys(shape)
    .filter((key) => key !== '__proto__')
    .map((key) => {
      const field = shape[key]!;
      const optin = field._zod.optin;
      if (optin === 'defaulted') throw new Unsupported('a default');
      return { key, parse: compile(field), optin, optout: field._zod.optout };
    });
  // As zod's object parse (handlePropertyResult): an absent optional key stays absent, a present one is kept even when undefined.
  return (v) => {
    if (!isObject(v)) return FAIL;
    const out: Record<string, unknown> = {};
    for (const f of fields) {
      const raw = v[f.key];
      // (`in`, as zod asks it, also sees inherited keys; a value read is there either way.)
      const present = raw !== undefined || f.key in v;
      if (!present && f.optin === 'optional' && f.optout === 'optional') continue;
      const r = f.parse(raw);
      if (r === FAIL) {
        if (f.optin !== undefined && f.optout === 'optional' && !present) continue;
        return FAIL;
      }
      if (!present && f.optin === undefined) return FAIL;
      if (r !== undefined || present) out[f.key] = r;
    }
    return out;
  };
}

function compileRecord(def: Def): Parse {
  const key = def.keyType!;
  const k = key._zod.def;
  if (k.type !== 'string' || k.coerce || (k.checks?.length ?? 0) > 0 || key._zod.values !== undefined || (def.mode !== undefined && def.mode !== 'strict')) throw new Unsupported('a record not keyed by plain strings');
  const value = compile(def.valueType!);
  return (v) => {
    if (!isPlainObject(v)) return FAIL;
    const out: Record<string, unknown> = {};
    for (const name of Reflect.ownKeys(v)) {
      if (name === '__proto__' || !Object.prototype.propertyIsEnumerable.call(v, name)) continue;
      if (typeof name !== 'string') return FAIL;
      const r = value(v[name]);
      if (r === FAIL) return FAIL;
      out[name] = r;
    }
    return out;
  };
}

function compileType(schema: ZodLike): Parse {
  const def = schema._zod.def;
  if (def.coerce) throw new Unsupported('coercion');
  switch (def.type) {
    case 'string':
      return (v) => (typeof v === 'string' ? v : FAIL);
    case 'number':
      return (v) => (typeof v === 'number' && Number.isFinite(v) ? v : FAIL);
    case 'boolean':
      return (v) => (typeof v === 'boolean' ? v : FAIL);
    case 'unknown':
    case 'any':
      return (v) => v;
    case 'literal':
    case 'enum': {
      const values = schema._zod.values;
      if (!values) throw new Unsupported(def.type);
      return (v) => (values.has(v) ? v : FAIL);
    }
    case 'optional': {
      if (def.innerType!._zod.optin === 'defaulted') throw new Unsupported('an optional default');
      const inner = compile(def.innerType!);
      return (v) => (v === undefined ? undefined : inner(v));
    }
    case 'nullable': {
      const inner = compile(def.innerType!);
      return (v) => (v === null ? null : inner(v));
    }
    case 'pipe': {
      const a = compile(def.in!);
      const b = compile(def.out!);
      return (v) => {
        const left = a(v);
        return left === FAIL ? FAIL : b(left);
      };
    }
    case 'transform': {
      const transform = def.transform!;
      return (v) => {
        const payload = { value: v, issues: [] as unknown[] };
        const out = transform(v, payload);
        if (out instanceof Promise) throw new Error('fast-schema: an async transform');
        return payload.issues.length ? FAIL : out;
      };
    }
    case 'array': {
      const element = compile(def.element!);
      return (v) => {
        if (!Array.isArray(v)) return FAIL;
        const out: unknown[] = new Array(v.length);
        for (let i = 0; i < v.length; i++) {
          const r = element(v[i]);
          if (r === FAIL) return FAIL;
          out[i] = r;
        }
        return out;
      };
    }
    case 'object':
      return compileObject(def);
    case 'record':
      return compileRecord(def);
    case 'union': {
      if (def.inclusive === false || def.discriminator !== undefined) throw new Unsupported('an exclusive or discriminated union');
      const options = def.options!.map(compile);
      return (v) => {
        for (const o of options) {
          const r = o(v);
          if (r !== FAIL) return r;
        }
        return FAIL;
      };
    }
    default:
      throw new Unsupported(def.type);
  }
}

function compile(schema: ZodLike): Parse {
  return compileOpt(schema) ?? withChecks(schema._zod.def, compileType(schema));
}

/** Compiled once per schema; `null` when the schema has a form this module leaves to zod. */
const compiled = new WeakMap<object, Parse | null>();

function compiledOf(schema: z.ZodType): Parse | null {
  let c = compiled.get(schema);
  if (c === undefined) {
    try {
      c = compile(schema as unknown as ZodLike);
    } catch (err) {
      if (!(err instanceof Unsupported)) throw err;
      c = null;
    }
    compiled.set(schema, c);
  }
  return c;
}

/**
 * The compiled parse alone: `undefined` when the schema is left to zod, else whether the value fits
 * and what comes out (tests hold this to zod's `safeParse`).
 */
export function compiledParse<S extends z.ZodType>(schema: S, value: unknown): { fits: true; value: z.output<S> } | { fits: false } | undefined {
  const parse = compiledOf(schema);
  if (!parse) return undefined;
  const r = parse(value);
  return r === FAIL ? { fits: false } : { fits: true, value: r as z.output<S> };
}

/**
 * `schema.safeParse(value)`, through the compiled function when the schema compiles and the value
 * fits it; else zod's own parse (whose issues are then the answer).
 */
export function safeParseFast<S extends z.ZodType>(schema: S, value: unknown): z.ZodSafeParseResult<z.output<S>> {
  const parse = compiledOf(schema);
  if (parse) {
    const r = parse(value);
    if (r !== FAIL) return { success: true, data: r as z.output<S> } as z.ZodSafeParseResult<z.output<S>>;
  }
  return schema.safeParse(value);
}
