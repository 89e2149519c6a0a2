import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { loadParams } from '../../src/engine/load.js';
import { loadRunbook } from '../../src/steps/runbook-load.js';
import type { Params } from '../../src/engine/params.js';
import { testSteps } from '../support/test-steps.js';
import { VALID_PARAMS } from '../support/params-text.js';

const dir = mkdtempSync(join(tmpdir(), 'up-load-'));
let n = 0;
const file = (text: string, ext = 'yaml') => {
  const f = join(dir, `f${++n}.${ext}`);
  writeFileSync(f, text);
  return f;
};

const validParams = VALID_PARAMS;

const header = `apiVersion: upgrade-pilot/v1
kind: Runbook
metadata:
  name: t
  title: T
`;

function params(): Params {
  return loadParams(file(validParams)).params;
}

function loadError(fn: () => unknown): InputError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return err as InputError;
  }
  throw new Error('expected an InputError');
}

// [case, runbook text, expected line:col, expected message fragment]
const runbookCases: Array<[string, string, string, RegExp]> = [
  ['broken YAML indentation', `${header}steps:\n  - id: a\n   kind: noop\n`, '8:1', /not valid YAML/],
  ['an empty file', '', '', /is empty/],
  ['a wrong apiVersion', `apiVersion: v2\nkind: Runbook\nmetadata: {name: t, title: T}\nsteps: [{id: a, kind: noop}]\n`, '1:13', /apiVersion: expected one of "upgrade-pilot\/v1", got "v2"/],
  ['an unknown top-level key', `${header}stepz: []\nsteps:\n  - id: a\n    kind: noop\n`, '6:8', /stepz: unknown key `stepz`: did you mean `steps`\? \(accepted: apiVersion, kind, metadata, settings, steps/],
  ['an unknown key nothing is close to', `${header}zzz: []\nsteps:\n  - id: a\n    kind: noop\n`, '6:6', /zzz: unknown key `zzz` \(accepted: apiVersion/],
  ['a step without a kind', `${header}steps:\n  - id: a\n    title: A\n`, '7:5', /steps\[0\]\.kind: missing required key \(expected string\)/],
  ['an unknown step kind', `${header}steps:\n  - id: a\n    kind: nope\n`, '8:11', /unknown step kind `nope` \(known: noop, emit-hops/],
  ['a step parameter of the wrong type', `${header}steps:\n  - id: a\n    kind: noop\n    with:\n      value: high\n`, '10:14', /steps\[0\]\.with\.value: expected number, got string "high"/],
  ['an unknown step parameter', `${header}steps:\n  - id: a\n    kind: noop\n    with:\n      valu: 3\n`, '10:13', /unknown key `valu`: did you mean `value`\? \(accepted: value, skip\)/],
  ['a duplicate step id', `${header}steps:\n  - id: a\n    kind: noop\n  - id: a\n    kind: noop\n`, '9:9', /duplicate step id `a`/],
  ['a step id in capitals', `${header}steps:\n  - id: Draft\n    kind: noop\n`, '7:9', /expected a lower-case id/],
  ['a reference to a param that does not exist', `${header}steps:\n  - id: a\n    kind: noop\nrules:\n  - id: r\n    title: R\n    profile: addon\n    pack: \${params.packs.nope}\n    path: a.b\n    assert: present\n    reason: x\n`, '13:11', /refers to \$\{params\.packs\.nope\}, which the params file does not define/],
  ['a rule naming both a path and a manifest', `${header}steps:\n  - id: a\n    kind: noop\nrules:\n  - id: r\n    title: R\n    profile: addon\n    pack: p\n    path: a.b\n    manifest: m\n    assert: present\n    reason: x\n`, '10:5', /exactly one of `path`, `manifest` or `packs`/],
  ['a rule with an unknown assertion', `${header}steps:\n  - id: a\n    kind: noop\nrules:\n  - id: r\n    title: R\n    profile: addon\n    pack: p\n    path: a\n    assert: matches\n    reason: x\n`, '15:13', /assert: expected one of "equals", "contains"/],
  ['a known issue with a broken regular expression', `${header}steps:\n  - id: a\n    kind: noop\nknownIssues:\n  - id: k\n    title: K\n    recovery: [restart]\n    signatures:\n      - id: s\n        source: virtHandlerLogs\n        pattern: "Unimplemented(("\n`, '16:18', /expected a valid regular expression/],
  ['a group repeated over something other than hops', `${header}steps:\n  - id: g\n    forEach: nodes\n    steps:\n      - id: a\n        kind: noop\n`, '', /not valid/],
  ['duplicate keys', `${header}steps:\n  - id: a\n    kind: noop\n    kind: noop\n`, '9:5', /not valid YAML.*[Mm]ap keys must be unique/],
];

describe('runbook loader: malformed runbooks', () => {
  it.each(runbookCases)('%s', (_name, text, pos, message) => {
    const f = file(text);
    const err = loadError(() => loadRunbook(f, params(), testSteps()));
    expect(err.message).toMatch(message);
    expect(err.message).toContain(`${f}:${pos}`);
    expect(err.exitCode).toBe(2);
    expect(err.hint).toBeTruthy();
  });

  it('says when the runbook refers to params but none were given', () => {
    const f = file(`${header}steps:\n  - id: a\n    kind: noop\n    title: \${params.site.ingressIP}\n`);
    const err = loadError(() => loadRunbook(f, undefined, testSteps()));
    expect(err.message).toContain(`${f}:9:12`);
    expect(err.message).toContain('no params file was given');
    expect(err.hint).toContain('--params');
  });

  it('says when the runbook file cannot be read', () => {
    const err = loadError(() => loadRunbook(join(dir, 'missing.yaml'), undefined, testSteps()));
    expect(err.message).toMatch(/Cannot read the runbook .*missing\.yaml: it does not exist/);
    expect(err.hint).toBe('Pass an existing, readable runbook file.');
  });

  it('says when the params file cannot be read, and what to pass instead', () => {
    const err = loadError(() => loadParams(join(dir, 'missing-params.yaml')));
    expect(err.message).toMatch(/Cannot read the params file .*missing-params\.yaml: it does not exist/);
    expect(err.hint).toBe('Pass an existing, readable params file.');
  });
});

describe('runbook loader: references', () => {
  it('a whole-value reference keeps its type; an embedded one becomes text', () => {
    const f = file(`${header}steps:\n  - id: a\n    kind: noop\nrules:\n  - id: r\n    title: "Ingress at \${params.site.ingressIP}"\n    profile: addon\n    pack: \${params.packs.ingress}\n    path: x\n    assert: contains\n    value: \${params.site.storageClassParameters}\n    reason: x\n`);
    const { runbook } = loadRunbook(f, { ...params(), site: { ...params().site, storageClassParameters: { repl: '3' } } }, testSteps());
    expect(runbook.rules[0]).toMatchObject({ title: 'Ingress at 10.10.0.50', pack: 'nginx', value: { repl: '3' } });
  });

  it('loads the test runbook and fingerprints it', () => {
    const loaded = loadRunbook('test/fixtures/runbooks/test.yaml', undefined, testSteps());
    expect(loaded.runbook.steps).toHaveLength(4);
    expect(loaded.digest).toMatch(/^[0-9a-f]{12}$/);
  });
});

// [case, params text, expected line:col, message]
const paramsCases: Array<[string, string, string, RegExp]> = [
  ['a missing base URL', validParams.replace('  baseUrl: https://api.example.com\n', ''), '2:3', /palette\.baseUrl: missing required key/],
  ['a base URL that is not a URL', validParams.replace('https://api.example.com', 'api.example.com'), '2:12', /expected an http\(s\) URL/],
  ['an ingress IP that is not an address', validParams.replace('10.10.0.50', '10.10.0.500'), '11:14', /site\.ingressIP: expected an IPv4 address/],
  ['an unknown key', `${validParams}targt: 4.6.3\n`, '13:8', /targt: unknown key `targt`: did you mean `target`\? \(accepted: palette, cluster, profiles, packs, target/],
  ['a nested key one slip away', validParams.replace('  uid: c-1\n', '  uid: c-1\n  kubeconfg: ./kube\n'), '', /cluster\.kubeconfg: unknown key `kubeconfg`: did you mean `kubeconfig`\?/],
  ['a target that is not a version', validParams.replace('target: 4.6.3', 'target: latest'), '9:9', /expected a version such as 4\.6\.3/],
  ['a window that is not a duration', `${validParams}window: soon\n`, '13:9', /expected a duration such as 30s, 5m or 4h/],
  ['a list instead of a mapping', '- a\n- b\n', '1:1', /expected object, got a list/],
  ['a cluster collection the API does not have', validParams.replace('  projectUid: p-1\n', '  projectUid: p-1\n  clusterCollection: cluster\n'), '4:22', /expected one of "clusters", "spectroclusters"/],
  ['a load-balancer service without a namespace', `${validParams}  loadBalancerServices: [ingress]\n`, '13:26', /expected namespace\/name/],
];

describe('params loader: malformed params files', () => {
  it.each(paramsCases)('%s', (_name, text, pos, message) => {
    const f = file(text);
    const err = loadError(() => loadParams(f));
    expect(err.message).toMatch(message);
    expect(err.message).toContain(`${f}:${pos}`);
    expect(err.exitCode).toBe(2);
  });

  it('resolves relative paths against the params file', () => {
    const f = file(`${validParams}valuesDir: defaults\n`.replace('  uid: c-1\n', '  uid: c-1\n  kubeconfig: ./kube/config\n'));
    const { params: p } = loadParams(f);
    expect(p.cluster.kubeconfig).toBe(join(dir, 'kube/config'));
    expect(p.valuesDir).toBe(join(dir, 'defaults'));
    expect(p.window).toBe(4 * 3600_000);
    expect(p.packs.orchestration).toBe('virtual-machine-orchestrator');
  });
});

describe('params.example.yaml', () => {
  it('is a valid params file', () => {
    const { params: p } = loadParams('params.example.yaml');
    // The documented default is the small file: no references, the pack registry gives the defaults.
    expect(p.references).toEqual([]);
    expect(p.valuesDir).toBeUndefined();
    expect(p.moveWith).toEqual({ 'cni-cilium-oss': 'latest-patch', nginx: { '4.5.4': '1.11.3', '4.6.3': '1.12.1' } });
    expect(p.palette.clusterCollection).toBe('spectroclusters');
  });
});
