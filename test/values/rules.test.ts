import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { findLiteralCidr, evaluateRule, isTemplateVariable } from '../../src/values/rules.js';
import { RuleSpecSchema, type RuleSpec } from '../../src/values/rule-schema.js';
import type { Manifest } from '../../src/values/manifests.js';
import { expectGolden, fixture, realValues, substituteParams } from './helpers.js';

const params = {
  site: { ingressIP: '10.10.1.50', blockStorageClass: 'px-vm-block', storageClassParameters: { repl: '2', priority_io: 'high' } },
};
const rules: RuleSpec[] = (parse(fixture('vmo-rules.yaml')) as { rules: unknown[] }).rules.map((r) => RuleSpecSchema.parse(substituteParams(r, params)));
const rule = (id: string): RuleSpec => {
  const found = rules.find((r) => r.id === id);
  if (!found) throw new Error(`no rule ${id}`);
  return found;
};

const metallb = realValues('metallb-0.14.9.values.yaml');
const cilium = realValues('cilium.values.yaml');
const vmo140 = realValues('virtual-machine-orchestrator.kubevirt-v1.4.0.values.yaml');
const nginx = fixture('ingress-nginx.defaults.yaml');
const portworxDefaults = fixture('portworx.defaults.yaml');
const portworxSite = fixture('portworx.site.yaml');
const issuer: Manifest = { name: 'issuer-selfsigned', content: fixture('issuer-selfsigned.manifest.yaml'), uid: 'm-1' };

interface RuleCase {
  id: string;
  pass: { values?: string; manifests?: Manifest[] };
  fail: { values?: string; manifests?: Manifest[] };
  /** The failure message, as the operator reads it. */
  message: string;
}

const ruleCases: RuleCase[] = [
  {
    id: 'lb-no-auto-assign',
    pass: { values: fixture('metallb-0.14.9.merged.golden.yaml') },
    fail: { values: metallb },
    message:
      'lb-metallb-helm (addon profile): `charts.metallb-full.configuration.ipaddresspools.first-pool.spec.autoAssign` is true; expected false. Why: Do not give addresses to services that should not have one',
  },
  {
    id: 'ingress-fixed-address',
    pass: { values: nginx.replace('loadBalancerIP: ""', 'loadBalancerIP: "10.10.1.50"') },
    fail: { values: nginx },
    message: 'nginx (addon profile): `charts.ingress-nginx.controller.service.loadBalancerIP` is ""; expected "10.10.1.50". Why: Stable address for DNS records',
  },
  {
    id: 'vmo-smm-feature-gate',
    pass: { values: fixture('vmo-kubevirt-v1.4.0.merged.golden.yaml') },
    fail: { values: vmo140 },
    message:
      'virtual-machine-orchestrator (addon profile): `charts.virtual-machine-orchestrator.kubevirt.kubevirtResource.additionalFeatureGates` lacks "SMM"; expected a value containing "SMM". Why: VMs with EFI secure boot (for example migrated from another hypervisor) fail to start without it',
  },
  {
    id: 'monitoring-selfsigned-issuer',
    pass: { manifests: [issuer] },
    fail: { manifests: [{ name: 'other', content: 'kind: ConfigMap' }] },
    message: 'prometheus-operator (addon profile): manifest `issuer-selfsigned` is missing; add it to the pack. Why: Self-signed certificate issuer for internal TLS',
  },
  {
    id: 'cni-pod-cidr-variable',
    pass: { values: cilium.replace('[ "10.0.0.0/8" ]', '[ "{{ .spectro.pack.kubernetes.pack.podCIDR }}" ]') },
    fail: { values: cilium },
    message:
      'cni-cilium-oss (infra profile): `charts.cilium.ipam.operator.clusterPoolIPv4PodCIDRList` item [0] is "10.0.0.0/8", not a template variable; expected a Palette macro {{ ... }} or a ${variable}. Why: Platform-managed pod CIDR',
  },
  {
    id: 'storage-class-name',
    pass: { values: portworxSite },
    fail: { values: portworxDefaults },
    message: 'csi-portworx-generic (infra profile): `charts.portworx-generic.storageClass.name` is "px-csi-db"; expected "px-vm-block". Why: VMs and volume claims refer to it',
  },
  {
    id: 'storage-class-parameters',
    pass: { values: portworxSite },
    fail: { values: portworxDefaults },
    message:
      'csi-portworx-generic (infra profile): `charts.portworx-generic.storageClass.parameters` has repl: "3" instead of "2", lacks priority_io: "high"; expected a value containing {"repl":"2","priority_io":"high"}. Why: Tuned for VM workloads',
  },
  {
    id: 'storage-class-virt-annotation',
    pass: { values: portworxSite },
    fail: { values: portworxDefaults },
    message:
      'csi-portworx-generic (infra profile): `charts.portworx-generic.storageClass.annotations["storageclass.kubevirt.io/is-default-virt-class"]` is not set (charts.portworx-generic.storageClass.annotations has no key `storageclass.kubevirt.io/is-default-virt-class`); expected "true". Why: Enables integration with the VM orchestration and the data importer',
  },
  {
    id: 'storage-node-affinity',
    pass: { values: portworxSite },
    fail: { values: portworxDefaults },
    message:
      'csi-portworx-generic (infra profile): `charts.portworx-generic.storageCluster.spec.placement.nodeAffinity` is not set (charts.portworx-generic.storageCluster.spec.placement has no key `nodeAffinity`); expected set (not null or empty). Why: Controls which nodes run storage',
  },
  {
    id: 'storage-run-on-control-plane',
    pass: { values: portworxSite },
    fail: { values: portworxSite.replace('portworx.io/run-on-master: "true"', 'portworx.io/run-on-master: true') },
    message:
      'csi-portworx-generic (infra profile): `charts.portworx-generic.storageCluster.annotations["portworx.io/run-on-master"]` is true (a boolean, not a string); expected "true". Why: Storage may run on control plane nodes',
  },
  {
    id: 'storage-pvc-controller-ports',
    pass: { values: portworxSite },
    fail: { values: portworxSite.replace('portworx.io/pvc-controller-port: "10261"', 'portworx.io/pvc-controller-port: ""') },
    message:
      'csi-portworx-generic (infra profile): `charts.portworx-generic.storageCluster.annotations["portworx.io/pvc-controller-port"]` is empty (""); expected set (not null or empty). Why: Avoids port conflicts',
  },
  {
    id: 'storage-no-license-activation',
    pass: { values: portworxSite },
    fail: { values: portworxDefaults },
    message: 'csi-portworx-generic (infra profile): `charts.portworx-generic.activateLicense` is true; expected false. Why: No license activation on non-production clusters',
  },
];

describe('the twelve rules of spec 9.2', () => {
  it('are valid runbook rules, four add-on and eight infrastructure, with unique ids', () => {
    expect(rules).toHaveLength(12);
    expect(rules.filter((r) => r.profile === 'addon')).toHaveLength(4);
    expect(new Set(rules.map((r) => r.id)).size).toBe(12);
    expect(ruleCases.map((c) => c.id)).toEqual(rules.map((r) => r.id));
  });

  it.each(ruleCases)('$id passes on a customized pack', ({ id, pass }) => {
    const result = evaluateRule(rule(id), pass);
    expect(result.message).toMatch(/as required\.$/);
    expect(result.status).toBe('pass');
  });

  it.each(ruleCases)('$id fails on the defaults, saying what, where and why', ({ id, fail, message }) => {
    const result = evaluateRule(rule(id), fail);
    expect(result.status).toBe('fail');
    expect(result.message).toBe(message);
  });

  it('report every result in one golden file (the text the rules panel shows)', () => {
    const lines = ruleCases.flatMap(({ id, pass, fail }) => {
      const p = evaluateRule(rule(id), pass);
      const f = evaluateRule(rule(id), fail);
      return [`${id}`, `  pass: expected ${p.expected}; actual ${p.actual}`, `  fail: expected ${f.expected}; actual ${f.actual}`];
    });
    expectGolden('vmo-rules.results.golden.txt', `${lines.join('\n')}\n`);
  });
});

describe('assertions', () => {
  const base = { id: 'r', title: 'T', profile: 'addon' as const, pack: 'p', reason: 'because' };
  const check = (path: string, assert: RuleSpec['assert'], values: string, value?: unknown) => evaluateRule({ ...base, path, assert, value }, { values }).status;

  it.each([
    ['equals compares maps deeply, in any key order', 'a', 'equals', 'a: {x: 1, y: [1, 2]}', { y: [1, 2], x: 1 }, 'pass'],
    ['equals tells types apart', 'a', 'equals', 'a: "false"', false, 'fail'],
    ['contains finds an item in a list', 'a', 'contains', 'a: [x, SMM]', 'SMM', 'pass'],
    ['contains needs every item of a list value', 'a', 'contains', 'a: [x, SMM]', ['SMM', 'y'], 'fail'],
    ['contains finds key-values in a map', 'a', 'contains', 'a: {k: v, o: 1}', { k: 'v' }, 'pass'],
    ['contains fails on a different value for a key', 'a', 'contains', 'a: {k: v}', { k: 'w' }, 'fail'],
    ['contains finds text in a string', 'a', 'contains', 'a: "--kvdb-name px"', 'kvdb', 'pass'],
    ['contains fails on a number', 'a', 'contains', 'a: 5', 5, 'fail'],
    ['present fails on null', 'a', 'present', 'a:', undefined, 'fail'],
    ['present fails on an empty map', 'a', 'present', 'a: {}', undefined, 'fail'],
    ['present passes on false', 'a', 'present', 'a: false', undefined, 'pass'],
    ['absent passes on a missing key', 'a.b', 'absent', 'a: {}', undefined, 'pass'],
    ['absent passes on null', 'a', 'absent', 'a: ~', undefined, 'pass'],
    ['absent fails on a value', 'a', 'absent', 'a: 1', undefined, 'fail'],
    ['templateVariable accepts a macro with pipes', 'a', 'templateVariable', 'a: "{{ .spectro.system.kubernetes.version | substr 0 4 }}"', undefined, 'pass'],
    ['templateVariable accepts a profile variable', 'a', 'templateVariable', 'a: ${pod-cidr}', undefined, 'pass'],
    ['templateVariable needs every list item', 'a', 'templateVariable', 'a: ["{{ .x }}", 10.0.0.0/8]', undefined, 'fail'],
    ['templateVariable refuses text around a macro', 'a', 'templateVariable', 'a: "v{{ .x }}"', undefined, 'fail'],
    ['templateVariable refuses an empty list', 'a', 'templateVariable', 'a: []', undefined, 'fail'],
    ['notLiteralCidr passes on a macro', 'a', 'notLiteralCidr', 'a: ["{{ .spectro.pack.kubernetes.pack.podCIDR }}"]', undefined, 'pass'],
    ['notLiteralCidr finds a CIDR inside text', 'a', 'notLiteralCidr', 'a: "10.0.0.0/8,10.1.0.0/16"', undefined, 'fail'],
    ['notLiteralCidr finds an IPv6 CIDR', 'a', 'notLiteralCidr', 'a: ["fd00::/104"]', undefined, 'fail'],
    ['notLiteralCidr ignores an address without a prefix', 'a', 'notLiteralCidr', 'a: 10.0.0.1', undefined, 'pass'],
  ] as const)('%s', (_, path, assert, values, value, status) => {
    expect(check(path, assert, values, value)).toBe(status);
  });

  it('holds a wildcard rule at every match, and fails a match that lacks the key', () => {
    const pools = 'pools:\n  a:\n    spec: {autoAssign: false}\n  b:\n    spec: {addresses: [x]}\n';
    const result = evaluateRule({ ...base, path: 'pools.*.spec.autoAssign', assert: 'equals', value: false }, { values: pools });
    expect(result.status).toBe('fail');
    expect(result.actual).toBe('pools.a.spec.autoAssign: false; pools.b.spec.autoAssign: not set');
    expect(result.message).toBe('p (addon profile): `pools.b.spec.autoAssign` is not set (pools.b.spec has no key `autoAssign`); expected false. Why: because');
    expect(evaluateRule({ ...base, path: 'pools.*.spec.autoAssign', assert: 'equals', value: false }, { values: pools.replace('{addresses: [x]}', '{autoAssign: false}') }).message).toBe(
      'p (addon profile): all 2 matches of `pools.*.spec.autoAssign` are false, as required.',
    );
  });

  it('fails a wildcard rule that matches nothing, except absent', () => {
    const values = 'pools: {}\n';
    const equals = evaluateRule({ ...base, path: 'pools.*.spec.autoAssign', assert: 'equals', value: false }, { values });
    expect(equals).toMatchObject({ status: 'fail', actual: 'no match' });
    expect(equals.message).toBe('p (addon profile): nothing matches `pools.*.spec.autoAssign`; expected false. Add the setting to the pack values. Why: because');
    expect(evaluateRule({ ...base, path: 'pools.*.x', assert: 'absent' }, { values }).status).toBe('pass');
  });

  it('says where a path stops when a parent has another type', () => {
    const result = evaluateRule({ ...base, path: 'a.b.c', assert: 'present' }, { values: 'a:\n  b: text\n' });
    expect(result.message).toBe('p (addon profile): `a.b.c` is not set (a.b is a string, so it has no key `c`); expected set (not null or empty). Why: because');
  });

  it('looks in every document of a multi-document value unless the path names one', () => {
    const values = 'a: 1\n---\nkind: X\nspec: {n: 2}\n';
    expect(evaluateRule({ ...base, path: '**.n', assert: 'equals', value: 2 }, { values }).status).toBe('pass');
    expect(evaluateRule({ ...base, path: '@1.spec.n', assert: 'equals', value: 2 }, { values }).status).toBe('pass');
    expect(evaluateRule({ ...base, path: 'spec.n', assert: 'equals', value: 2 }, { values }).status).toBe('fail');
  });

  it('fails with a plain message when the values are missing or unreadable', () => {
    expect(evaluateRule({ ...base, path: 'a', assert: 'present' }, {}).message).toBe('p (addon profile): the pack\'s values are not available, so `a` cannot be checked. Why: because');
    expect(evaluateRule({ ...base, path: 'a', assert: 'present' }, { values: 'a: [' }).message).toMatch(/^p \(addon profile\): The values of p are not valid YAML at line 1/);
  });

  it('checks manifests by name', () => {
    const present = { ...base, manifest: 'issuer-selfsigned', assert: 'present' as const };
    expect(evaluateRule(present, { manifests: [{ name: 'issuer-selfsigned', content: '  \n' }] })).toMatchObject({ status: 'fail', actual: 'present but empty' });
    expect(evaluateRule(present, {}).status).toBe('fail');
    expect(evaluateRule({ ...present, assert: 'absent' }, { manifests: [] })).toMatchObject({ status: 'pass', expected: 'absent' });
  });

  it('recognizes template variables and literal CIDRs', () => {
    expect(isTemplateVariable(' {{ .spectro.system.cluster.uid }} ')).toBe(true);
    expect(isTemplateVariable('{{ a }}-{{ b }}')).toBe(false);
    expect(findLiteralCidr({ x: ['{{ .y }}', 'ok'], z: 'use 192.168.0.0/16' })).toBe('192.168.0.0/16');
    expect(findLiteralCidr('${cidr}/24')).toBeUndefined();
  });
});

describe('rule schema', () => {
  const valid = { id: 'x', title: 'X', profile: 'addon', pack: 'p', reason: 'r' };
  it('rejects a bad path when the runbook loads', () => {
    const result = RuleSpecSchema.safeParse({ ...valid, path: 'a..b', assert: 'present' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/Bad values path `a..b` at column 3/);
  });
  it('limits manifest rules to present and absent', () => {
    expect(RuleSpecSchema.safeParse({ ...valid, manifest: 'm', assert: 'equals', value: 1 }).success).toBe(false);
    expect(RuleSpecSchema.safeParse({ ...valid, manifest: 'm', assert: 'absent' }).success).toBe(true);
  });
});
