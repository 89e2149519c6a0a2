import { describe, expect, it } from 'vitest';
import { classifyKubectlFailure } from '../../src/kube/errors.js';

const ctx = { action: 'list pods', kubeconfig: '/home/op/vmo.kubeconfig', timeoutMs: 20_000 };

// [what kubectl printed, failure, exit code, message fragment, hint fragment]
const cases: Array<[string, string, number, RegExp, RegExp | undefined]> = [
  ['error: You must be logged in to the server (Unauthorized)', 'credentials', 4, /refused the credentials while trying to list pods/, /fresh cluster access file/],
  ['E1122 04:00:00.000000 1 memcache.go:265] couldn\'t get current server API group list: the server has asked for the client to provide credentials\nerror: You must be logged in to the server (the server has asked for the client to provide credentials)', 'credentials', 4, /expired or is not valid/, /fresh cluster access file/],
  ['Unable to connect to the server: tls: failed to verify certificate: x509: certificate has expired or is not yet valid', 'credentials', 4, /expired/, /fresh cluster access file/],
  ['Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:ops:reader" cannot list resource "pods" in API group "" at the cluster scope', 'forbidden', 4, /not allowed to list pods \(needed to list pods\)/, /cluster-admin/],
  ['Error from server (Forbidden): virtualmachineinstances.kubevirt.io is forbidden: User "op" cannot list resource "virtualmachineinstances" in API group "kubevirt.io" at the cluster scope', 'forbidden', 4, /not allowed to list virtualmachineinstances\.kubevirt\.io/, /cluster-admin/],
  ['The connection to the server 10.0.0.5:6443 was refused - did you specify the right host or port?', 'unreachable', 4, /cannot be reached/, /network or VPN/],
  ['Unable to connect to the server: dial tcp: lookup api.vmo.example: no such host', 'unreachable', 4, /cannot be reached/, /server address/],
  ['Unable to connect to the server: net/http: request canceled (Client.Timeout exceeded while awaiting headers)', 'timeout', 4, /did not answer in time \(20s\) while trying to list pods/, /resume to retry/],
  ['error: context deadline exceeded', 'timeout', 4, /did not answer in time/, undefined],
  ['Error from server (NotFound): virtualmachineinstancemigrations.kubevirt.io "kubevirt-workload-update-abc" not found', 'not-found', 1, /Not found while trying to list pods: virtualmachineinstancemigrations\.kubevirt\.io "kubevirt-workload-update-abc" not found/, undefined],
  ['Error from server (NotFound): the server could not find the requested resource', 'missing-crd', 1, /a CRD is missing/, /KubeVirt, CDI and the storage operator/],
  ['error: the server doesn\'t have a resource type "vmis"', 'missing-crd', 1, /a CRD is missing/, undefined],
  ['error: context "vmo-prod" does not exist', 'config', 2, /cannot be used: context "vmo-prod" does not exist/, /--kubeconfig and --context/],
  ['error: stat /home/op/missing.kubeconfig: no such file or directory', 'config', 2, /cannot be used/, /must exist/],
  ['error: something odd happened', 'failed', 1, /kubectl failed while trying to list pods: error: something odd happened/, undefined],
];

describe('kubectl failure classification', () => {
  it.each(cases)('%s', (stderr, failure, exit, message, hint) => {
    const err = classifyKubectlFailure(stderr, ctx);
    expect(err.failure).toBe(failure);
    expect(err.exitCode).toBe(exit);
    expect(err.message).toMatch(message);
    if (hint) expect(err.hint).toMatch(hint);
  });

  it('a process timeout is a timeout whatever stderr says, and a missing kubectl says so', () => {
    expect(classifyKubectlFailure('', ctx, { timedOut: true }).failure).toBe('timeout');
    const missing = classifyKubectlFailure('', ctx, { enoent: true });
    expect(missing.message).toBe('kubectl is not on the PATH.');
    expect(missing.exitCode).toBe(4);
  });
});
