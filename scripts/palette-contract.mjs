#!/usr/bin/env node
/**
 * Extracts the contract test's data (test/fixtures/palette-contract/palette-apis.json) from
 * palette-sdk-go's published OpenAPI spec, `api/spec/palette-apis-spec.json` (Swagger 2.0, ~2 MB):
 * the operations upgrade-pilot calls on a real Palette (method, path, path and query parameters,
 * the body's definition, the success answer) and the definitions of the bodies it sends and of the
 * list answers it reads, each with its whole `$ref` closure, copied as they are. Nothing else of the
 * spec is kept. Other versions of the spec given with --compare are checked against the main one:
 * the output records, per version, any operation or definition that differs.
 *
 *   git -C <palette-sdk-go clone> show HEAD:api/spec/palette-apis-spec.json > /tmp/spec-4.8.json
 *   node scripts/palette-contract.mjs --spec /tmp/spec-4.8.json --commit <sha> \
 *     --compare 4.7=/tmp/spec-4.7.json@<sha> --compare 4.6=... --compare 4.4=... \
 *     > test/fixtures/palette-contract/palette-apis.json
 *
 * A new call in the product means a new entry in OPERATIONS below (and in the product's test of
 * it, test/palette/contract.test.ts, which fails on any request outside this list).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

/** What upgrade-pilot calls on a real Palette: [method, path template]. */
const OPERATIONS = [
  ['get', '/v1/clusterprofiles/{uid}'],
  ['put', '/v1/clusterprofiles/{uid}'],
  ['patch', '/v1/clusterprofiles/{uid}/publish'],
  ['post', '/v1/clusterprofiles/{uid}/clone'],
  ['get', '/v1/clusterprofiles/{uid}/variables'],
  ['put', '/v1/clusterprofiles/{uid}/variables'],
  ['get', '/v1/clusterprofiles/{uid}/packs/{packName}/manifests'],
  ['get', '/v1/dashboard/clusterprofiles/metadata'],
  ['post', '/v1/dashboard/clusterprofiles'],
  ['get', '/v1/spectroclusters/{uid}'],
  ['patch', '/v1/spectroclusters/{uid}/profiles'],
  ['get', '/v1/spectroclusters/{uid}/variables'],
  ['patch', '/v1/spectroclusters/{uid}/repave/approve'],
  ['get', '/v1/spectroclusters/{uid}/repave/status'],
  ['get', '/v1/events/components/{objectKind}/{objectUid}'],
  ['get', '/v1/notifications/{objectKind}/{objectUid}'],
  ['get', '/v1/packs'],
  ['get', '/v1/packs/{packName}/registries/{registryUid}'],
  ['get', '/v1/registries/metadata'],
];

/** Answers whose shape the test also checks (the lists and the clone's answer; the lab serves them). */
const ANSWERS = ['v1Uid', 'v1ClusterProfilesMetadata', 'v1ClusterProfilesSummary', 'v1Variables', 'v1SpectroClusterVariables'];

const { values } = parseArgs({
  options: { spec: { type: 'string' }, commit: { type: 'string' }, compare: { type: 'string', multiple: true } },
});
if (!values.spec) {
  process.stderr.write('usage: node scripts/palette-contract.mjs --spec SPEC.json [--commit SHA] [--compare VERSION=SPEC.json@SHA ...]\n');
  process.exit(2);
}

const load = (file) => JSON.parse(readFileSync(file, 'utf8'));
const refName = (ref) => ref.replace('#/definitions/', '');

function operation(spec, method, path) {
  const item = spec.paths[path];
  const op = item?.[method];
  if (!op) return undefined;
  const params = [...(item.parameters ?? []), ...(op.parameters ?? [])];
  const body = params.find((p) => p.in === 'body');
  const success = Object.keys(op.responses).find((code) => code.startsWith('2'));
  const answer = op.responses[success]?.schema?.$ref;
  return {
    method: method.toUpperCase(),
    path,
    operationId: op.operationId,
    pathParams: params.filter((p) => p.in === 'path').map((p) => ({ name: p.name, ...(p.enum ? { enum: p.enum } : {}) })),
    query: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, type: p.type, ...(p.maximum !== undefined ? { maximum: p.maximum } : {}), ...(p.enum ? { enum: p.enum } : {}) })),
    ...(body ? { body: refName(body.schema.$ref) } : {}),
    success: Number(success),
    ...(answer ? { answer: refName(answer) } : {}),
  };
}

/** The definitions named, and every definition they reach through `$ref`, as the spec has them. */
function closure(spec, roots) {
  const out = {};
  const todo = [...roots];
  while (todo.length > 0) {
    const name = todo.pop();
    if (name in out) continue;
    const def = spec.definitions[name];
    if (!def) throw new Error(`the spec has no definition ${name}`);
    out[name] = def;
    for (const [, ref] of JSON.stringify(def).matchAll(/"#\/definitions\/([^"]+)"/g)) todo.push(ref);
  }
  return Object.fromEntries(Object.keys(out).sort().map((k) => [k, out[k]]));
}

const main = load(values.spec);
const operations = OPERATIONS.map(([m, p]) => {
  const op = operation(main, m, p);
  if (!op) throw new Error(`the spec has no ${m.toUpperCase()} ${p}`);
  return op;
});
const roots = [...new Set([...operations.flatMap((o) => (o.body ? [o.body] : [])), ...ANSWERS])];
const definitions = closure(main, roots);

const versions = {};
for (const entry of values.compare ?? []) {
  const [, version, file, commit] = /^([^=]+)=(.+?)(?:@([0-9a-f]+))?$/.exec(entry) ?? [];
  const other = load(file);
  const ops = operations.filter((o) => JSON.stringify(operation(other, o.method.toLowerCase(), o.path)) !== JSON.stringify(o)).map((o) => `${o.method} ${o.path}`);
  const theirs = closure(other, roots);
  const defs = [...new Set([...Object.keys(definitions), ...Object.keys(theirs)])].filter((n) => JSON.stringify(definitions[n]) !== JSON.stringify(theirs[n])).sort();
  versions[version] = { title: other.info.title, ...(commit ? { commit } : {}), operationsThatDiffer: ops, definitionsThatDiffer: defs };
}

const out = {
  source: {
    repository: 'spectrocloud/palette-sdk-go',
    path: 'api/spec/palette-apis-spec.json',
    title: main.info.title,
    swagger: main.swagger,
    ...(values.commit ? { commit: values.commit } : {}),
    extractedBy: 'scripts/palette-contract.mjs',
  },
  versionsCompared: versions,
  operations,
  definitions,
};
process.stdout.write(`${JSON.stringify(out, null, 1)}\n`);
