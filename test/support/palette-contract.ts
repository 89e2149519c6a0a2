/**
 * The contract test's checker: every request the product sent to the profile API, held against a
 * published list of operations and request bodies.
 *
 * - A real Palette: test/fixtures/palette-contract/palette-apis.json, extracted from palette-sdk-go's
 *   `api/spec/palette-apis-spec.json` by scripts/palette-contract.mjs (operations with their path
 *   and query parameters; the request-body and list-answer definitions with their `$ref` closure).
 * - The spec's service: test/fixtures/palette-contract/seed-spec.json, the five endpoints of
 *   shared/spec/cluster-profile-api.md section 4 and its PUT payload (2.1, 2.2), written as JSON
 *   Schema; plus palette-sdk-go's registry reads, which the seed does not describe.
 *
 * Swagger 2 definitions are not quite JSON Schema; `toJsonSchema` converts them for ajv (draft-07):
 * `x-nullable: true` becomes a `null` alternative; other `x-*` extensions, `example`,
 * `discriminator` and `format` (Go serialization hints such as int64; no body here carries a
 * timestamp) are dropped; keywords beside a `$ref` are dropped, as Swagger 2 ignores them; a schema
 * with properties but no type gets `type: object`; and an object that lists its `properties` gets
 * `additionalProperties: false` unless it says otherwise.
 * That last one is stricter than the spec: go-swagger's server decodes JSON into Go structs and
 * drops an unknown field silently, which is exactly how a payload "applies nothing" (the seed's
 * spec.packs): a field the API would not read is a finding here.
 */
import { readFileSync } from 'node:fs';
import AjvModule, { type ValidateFunction } from 'ajv';

// ajv is CommonJS: under NodeNext its class is the default export's `default`.
const Ajv = AjvModule.default;

type Json = Record<string, unknown>;

export interface ContractOperation {
  method: string;
  path: string;
  operationId?: string;
  pathParams?: Array<{ name: string; enum?: string[] }>;
  query?: Array<{ name: string; maximum?: number; enum?: string[] }>;
  /** Definition name of the request body. */
  body?: string;
  success?: number;
  /** Definition name of the success answer. */
  answer?: string;
}

export interface Contract {
  source: Json;
  versionsCompared?: Json;
  operations: ContractOperation[];
  definitions: Record<string, Json>;
}

export interface SentRequest {
  method: string;
  /** Path and query as sent: `/v1/dashboard/clusterprofiles?limit=50`. */
  url: string;
  body?: unknown;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const dropped = new Set(['example', 'discriminator', 'format']);

/** One Swagger 2 schema as draft-07 JSON Schema (see the top of this file). */
export function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (!isObject(schema)) return schema;
  if (typeof schema.$ref === 'string') return schema['x-nullable'] === true ? { anyOf: [{ $ref: schema.$ref }, { type: 'null' }] } : { $ref: schema.$ref };
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith('x-') || dropped.has(key)) continue;
    // `properties` and `definitions` map names to schemas; every other object value is a schema.
    out[key] = key === 'properties' || key === 'definitions' ? Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, toJsonSchema(v)])) : toJsonSchema(value);
  }
  if (schema['x-nullable'] === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum)) out.enum = [...(out.enum as unknown[]), null];
  }
  // Swagger 2 leaves `type: object` out where the properties say it; JSON Schema wants it said.
  if (out.type === undefined && (isObject(out.properties) || Array.isArray(out.required) || out.additionalProperties !== undefined)) out.type = 'object';
  if (isObject(out.properties) && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

export function loadContract(file: string): Contract {
  return JSON.parse(readFileSync(new URL(`../fixtures/palette-contract/${file}`, import.meta.url), 'utf8')) as Contract;
}

export class ContractChecker {
  private readonly ajv = new Ajv({ allErrors: true, strict: true });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly routes: Array<{ op: ContractOperation; pattern: RegExp; literals: number; params: string[] }>;

  /** `swagger`: the definitions are Swagger 2 (converted); otherwise JSON Schema already. */
  constructor(
    readonly contracts: Array<{ contract: Contract; swagger: boolean; name: string }>,
  ) {
    this.routes = contracts.flatMap(({ contract }) =>
      contract.operations.map((op) => {
        const params: string[] = [];
        const segments = op.path.split('/').map((seg) => {
          const m = /^\{(.+)\}$/.exec(seg);
          if (!m) return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          params.push(m[1]!);
          return '([^/]+)';
        });
        return { op, pattern: new RegExp(`^${segments.join('/')}$`), literals: op.path.split('/').filter((s) => !s.startsWith('{')).length, params };
      }),
    );
    for (const { contract, swagger, name } of contracts) {
      const definitions = swagger ? Object.fromEntries(Object.entries(contract.definitions).map(([k, v]) => [k, toJsonSchema(v)])) : contract.definitions;
      this.ajv.addSchema({ $id: name, definitions });
    }
  }

  /** The operation a request is, the most specific path first; undefined when none has its method and path. */
  operationOf(method: string, path: string): { op: ContractOperation; params: Record<string, string> } | undefined {
    const hits = this.routes.filter((r) => r.op.method === method && r.pattern.test(path)).sort((a, b) => b.literals - a.literals);
    const hit = hits[0];
    if (!hit) return undefined;
    const values = hit.pattern.exec(path)!.slice(1).map(decodeURIComponent);
    return { op: hit.op, params: Object.fromEntries(hit.params.map((p, i) => [p, values[i]!])) };
  }

  /** A definition's validator (`definition` in the contract named `name`). */
  validator(contractName: string, definition: string): ValidateFunction {
    const key = `${contractName}#/definitions/${definition}`;
    const known = this.validators.get(key);
    if (known) return known;
    const found = this.ajv.getSchema(key);
    if (!found) throw new Error(`no definition ${definition} in ${contractName}`);
    this.validators.set(key, found);
    return found;
  }

  private contractOf(op: ContractOperation): string {
    return this.contracts.find(({ contract }) => contract.operations.includes(op))!.name;
  }

  /** What is wrong with one request, one line per finding (empty: it keeps the contract). */
  findings(req: SentRequest): string[] {
    const url = new URL(req.url, 'http://x');
    const where = `${req.method} ${req.url}`;
    const match = this.operationOf(req.method, url.pathname);
    if (!match) return [`${where}: no such operation in the published spec`];
    const { op, params } = match;
    const out: string[] = [];
    for (const p of op.pathParams ?? []) if (p.enum && !p.enum.includes(params[p.name]!)) out.push(`${where}: path parameter ${p.name} must be one of ${p.enum.join(', ')}`);
    for (const [name, value] of url.searchParams) {
      const q = (op.query ?? []).find((x) => x.name === name);
      if (!q) out.push(`${where}: query parameter ${name} is not one of ${op.method} ${op.path}'s (${(op.query ?? []).map((x) => x.name).join(', ') || 'none'})`);
      else if (q.maximum !== undefined && Number(value) > q.maximum) out.push(`${where}: ${name}=${value} is above its maximum ${q.maximum}`);
      else if (q.enum && !q.enum.includes(value)) out.push(`${where}: ${name}=${value} is not one of ${q.enum.join(', ')}`);
    }
    if (op.body === undefined) {
      if (req.body !== undefined) out.push(`${where}: the operation takes no body`);
      return out;
    }
    const validate = this.validator(this.contractOf(op), op.body);
    if (!validate(req.body ?? null)) {
      for (const e of validate.errors ?? []) {
        const extra = e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})` : '';
        out.push(`${where}: body ${e.instancePath || '/'} ${e.message ?? e.keyword}${extra} (${op.body})`);
      }
    }
    return out;
  }

  /** Findings for every request; each distinct finding once. */
  check(requests: readonly SentRequest[]): string[] {
    return [...new Set(requests.flatMap((r) => this.findings(r)))];
  }

  /** The contract's operations that no request exercised. */
  unexercised(requests: readonly SentRequest[], contractName: string): string[] {
    const seen = new Set(requests.flatMap((r) => {
      const m = this.operationOf(r.method, new URL(r.url, 'http://x').pathname);
      return m ? [`${m.op.method} ${m.op.path}`] : [];
    }));
    const contract = this.contracts.find((c) => c.name === contractName)!.contract;
    return contract.operations.map((o) => `${o.method} ${o.path}`).filter((k) => !seen.has(k));
  }
}

/** The checkers of the contract: a real Palette's (palette-sdk-go's spec) and the spec's service's (the seed's five endpoints). */
export function contractCheckers(): { palette: Contract; paletteChecker: ContractChecker; specChecker: ContractChecker } {
  const palette = loadContract('palette-apis.json');
  const seed = loadContract('seed-spec.json');
  return {
    palette,
    paletteChecker: new ContractChecker([{ contract: palette, swagger: true, name: 'palette' }]),
    specChecker: new ContractChecker([
      { contract: seed, swagger: false, name: 'seed' },
      // The registry reads: not in the seed's spec; palette-sdk-go's describe them.
      { contract: { ...palette, operations: palette.operations.filter((o) => o.path.startsWith('/v1/packs') || o.path.startsWith('/v1/registries')) }, swagger: true, name: 'palette' },
    ]),
  };
}

/** The operations of the seed's spec a run used (the registry reads left out), as `METHOD /path/{param}`. */
export function seedOperationsUsed(checker: ContractChecker, requests: SentRequest[]): string[] {
  const used = new Set(requests.map((r) => `${r.method} ${checker.operationOf(r.method, new URL(r.url, 'http://x').pathname)!.op.path}`));
  return [...used].filter((k) => !k.includes('/v1/packs') && !k.includes('/v1/registries')).sort();
}
