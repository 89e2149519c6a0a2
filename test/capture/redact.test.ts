/**
 * What a capture never carries: the stripping of Kubernetes objects and the redaction of pack
 * values, case by case, and that what carries no secret is left exactly as it was.
 */
import { describe, expect, it } from 'vitest';
import { stripKubeObject, TALLY } from '../../src/capture/redact-kube.js';
import { redactValuesText } from '../../src/capture/redact-values.js';

const strip = (obj: unknown, resource = 'pods') => {
  const tallied: string[] = [];
  const out = stripKubeObject(obj, resource, (t) => tallied.push(t)) as Record<string, any>;
  return { out, tallied };
};

describe('Kubernetes objects', () => {
  it('drops managedFields and last-applied-configuration, blanks credential-named annotations, keeps the rest', () => {
    const obj = {
      metadata: {
        name: 'a',
        managedFields: [{ manager: 'kubectl' }],
        annotations: {
          'kubectl.kubernetes.io/last-applied-configuration': '{"kind":"Secret","data":{"password":"aHVudGVyMg=="}}',
          'example.com/api-token': 'abc123',
          'example.com/password': '',
          'portworx.io/run-on-master': 'true',
        },
        labels: { app: 'x' },
      },
    };
    const { out, tallied } = strip(obj);
    expect(out.metadata).toEqual({ name: 'a', annotations: { 'example.com/api-token': '[REDACTED]', 'example.com/password': '', 'portworx.io/run-on-master': 'true' }, labels: { app: 'x' } });
    expect(tallied).toEqual([TALLY.managedFields, TALLY.lastApplied, TALLY.annotation]);
    // The input is not touched.
    expect(obj.metadata.managedFields).toHaveLength(1);
  });

  it('blanks env values at any depth, keeps valueFrom references and names', () => {
    const pod = { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', env: [{ name: 'DB_PASSWORD', value: 's3cr3t' }, { name: 'EMPTY', value: '' }, { name: 'FROM', valueFrom: { secretKeyRef: { name: 'db', key: 'pw' } } }] }], initContainers: [{ name: 'i', env: [{ name: 'X', value: 'y' }] }] } };
    const { out, tallied } = strip(pod);
    expect(out.spec.containers[0].env).toEqual([{ name: 'DB_PASSWORD', value: '[REDACTED]' }, { name: 'EMPTY', value: '' }, { name: 'FROM', valueFrom: { secretKeyRef: { name: 'db', key: 'pw' } } }]);
    expect(out.spec.initContainers[0].env[0].value).toBe('[REDACTED]');
    expect(tallied.filter((t) => t === TALLY.env)).toHaveLength(2);
  });

  it("blanks a VM's cloud-init data", () => {
    const vm = { metadata: { name: 'v' }, spec: { template: { spec: { volumes: [{ name: 'ci', cloudInitNoCloud: { userData: '#cloud-config\npassword: x\n', networkDataBase64: 'Zm9v' } }] } } } };
    const { out } = strip(vm, 'virtualmachines');
    expect(out.spec.template.spec.volumes[0].cloudInitNoCloud).toEqual({ userData: '[REDACTED]', networkDataBase64: '[REDACTED]' });
  });

  it.each([
    [['--token=abc', '--v=2', '--api-key=k', '-password=p', '--secret-file=/etc/x', '--tokenless'], ['--token=[REDACTED]', '--v=2', '--api-key=[REDACTED]', '-password=[REDACTED]', '--secret-file=/etc/x', '--tokenless']],
  ])('arguments that carry a credential: %j', (args, expected) => {
    expect(strip({ metadata: { name: 'p' }, spec: { containers: [{ name: 'c', args, command: args }] } }).out.spec.containers[0]).toEqual({ name: 'c', args: expected, command: expected });
  });

  it('blanks string fields the redactor knows by name, wherever they are', () => {
    const { out, tallied } = strip({ metadata: { name: 'x' }, spec: { auth: { token: 'abc', password: '', secret: { name: 'ref' } } } }, 'storageclusters');
    expect(out.spec.auth).toEqual({ token: '[REDACTED]', password: '', secret: { name: 'ref' } });
    expect(tallied).toEqual([TALLY.field]);
  });

  it("removes a node's image list only", () => {
    const node = { metadata: { name: 'n' }, status: { images: [{ names: ['x'] }], conditions: [{ type: 'Ready', status: 'True' }] } };
    expect(strip(node, 'nodes').out.status).toEqual({ conditions: [{ type: 'Ready', status: 'True' }] });
    expect(strip(node, 'pods').out.status.images).toHaveLength(1);
  });
});

describe('pack values (YAML text)', () => {
  it.each([
    ['adminPassword: hunter2', "adminPassword: '[REDACTED]'"],
    ['  password: "p@ss word"  # set me', "  password: '[REDACTED]'"],
    ['- token: abc', "- token: '[REDACTED]'"],
    ['apiKey: 0123456789', 'apiKey: 0123456789'], // a number holds no secret
    ['clientSecret: x', "clientSecret: '[REDACTED]'"],
    ['"secretKey": xyz', `"secretKey": '[REDACTED]'`],
    ['existingSecret: ""', 'existingSecret: ""'],
    ['adminPassword: "${grafana-admin-password}"', 'adminPassword: "${grafana-admin-password}"'],
    ["password: '{{ .spectro.var.LOCAL_ADMIN_PASSWORD }}'", "password: '{{ .spectro.var.LOCAL_ADMIN_PASSWORD }}'"],
    ['use-service-account-credentials: "true"', 'use-service-account-credentials: "true"'],
    ['automountServiceAccountToken: true', 'automountServiceAccountToken: true'],
    ['secretName: grafana-tls', 'secretName: grafana-tls'],
    ['imagePullSecrets: []', 'imagePullSecrets: []'],
    ['token: ~', 'token: ~'],
    ['token:', 'token:'],
  ])('%s', (line, expected) => {
    expect(redactValuesText(line).text).toBe(expected);
  });

  it('a block scalar under a credential-named key: every line of it, and nothing after', () => {
    const text = ['tls:', '  privateKey: |', '    -----BEGIN PRIVATE KEY-----', '    MIIE...', '', '    -----END PRIVATE KEY-----', '  cert: abc', 'next: 1'].join('\n');
    const r = redactValuesText(text);
    expect(r.text).toBe(['tls:', '  privateKey: |', '    [REDACTED]', '    [REDACTED]', '', '    [REDACTED]', '  cert: abc', 'next: 1'].join('\n'));
    expect(r.count).toBe(1);
  });

  it('values without credentials come back exactly as they were', () => {
    const text = 'charts:\n  metallb:\n    autoAssign: false # keep\n    addresses:\n      - 10.0.0.1/32\n';
    expect(redactValuesText(text)).toEqual({ text, count: 0 });
  });
});
