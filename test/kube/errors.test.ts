import { describe, expect, it } from 'vitest';
import { classifyKubectlFailure } from '../../src/kube/errors.js';

const ctx = { action: 'list pods', kubeconfig: '/home/op/vmo.kubeconfig', timeoutMs: 20_000 };

// [what kubectl printed, failure, exit code, message fragment, hint fragment]
const cases: Array<[string, string, number, RegExp, RegExp | undefined]> = [
  ['error: You must be logged in to the server (Unauthorized)', 'credentials', 4, /refused the credentials while trying to list pods/, /fresh cluster access file/],
  ['E1122 04:00:00.000000 1 memcache.go:265] couldn\'t get current server API group list: the server has asked for the client to provide credentials\nerror: You must be logged in to the server (the server has asked for the client to provide credentials)', 'credentials', 4, /expired or is not valid/, /fresh cluster access file/],
  // The server's certificate (an expired client certificate is refused with 401 instead): a TLS problem.
  ['Unable to connect to the server: tls: failed to verify certificate: x509: certificate has expired or is not yet valid: current time 2026-11-27T13:00:00Z is after 2026-06-01T00:00:00Z', 'tls', 4, /TLS certificate of the cluster in the access file \/home\/op\/vmo\.kubeconfig has expired or is not yet valid \(current time 2026-11-27T13:00:00Z is after 2026-06-01T00:00:00Z\)/, /this machine's clock/],
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

  // What kubectl 1.32 printed (how each was made: the note above the describe below).
  [
    'Unable to connect to the server: getting credentials: exec: executable kubelogin not found\n\nIt looks like you are trying to use a client-go credential plugin that is not installed.\n\nTo learn more about this feature, consult the documentation available at:\n      https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins',
    'credential-plugin',
    4,
    /^The credential plugin kubelogin that the cluster access file \/home\/op\/vmo\.kubeconfig runs for its credentials is not installed \(kubectl could not find it\) while trying to list pods\.$/,
    /Install Azure kubelogin .*`command -v kubelogin` must find it/,
  ],
  [
    'error: failed to get token: AADSTS700082: The refresh token has expired due to inactivity.\nerror: failed to get token: AADSTS700082: The refresh token has expired due to inactivity.\nUnable to connect to the server: getting credentials: exec: executable /usr/local/bin/kubelogin failed with exit code 1',
    'credential-plugin',
    4,
    /^The credential plugin \/usr\/local\/bin\/kubelogin of the cluster access file \/home\/op\/vmo\.kubeconfig failed \(exit code 1\) while trying to list pods: error: failed to get token: AADSTS700082: The refresh token has expired due to inactivity\.$/,
    /Run kubelogin by hand/,
  ],
  ['Unable to connect to the server: getting credentials: exec: fork/exec /opt/bin/aws: permission denied', 'credential-plugin', 4, /gave no usable credentials while trying to list pods: exec: fork\/exec \/opt\/bin\/aws: permission denied/, /./],
  ['Unable to connect to the server: tls: failed to verify certificate: x509: certificate signed by unknown authority', 'tls', 4, /not signed by any CA this machine trusts \(the access file \/home\/op\/vmo\.kubeconfig names no CA of its own\) while trying to list pods: a trust problem, not the network/, /TLS-inspecting proxy/],
  [
    'Unable to connect to the server: tls: failed to verify certificate: x509: certificate signed by unknown authority (possibly because of "crypto/rsa: verification error" while trying to verify candidate authority certificate "corp-root-ca")',
    'tls',
    4,
    /kubectl tried "corp-root-ca"/,
    /certificate-authority-data/,
  ],
  ['Unable to connect to the server: tls: failed to verify certificate: x509: certificate is valid for localhost, not api.vmo.example', 'tls', 4, /does not match the host in the access file \/home\/op\/vmo\.kubeconfig \(it is valid for localhost, not api\.vmo\.example\)/, /tls-server-name/],
  ['Unable to connect to the server: tls: failed to verify certificate: x509: cannot validate certificate for 10.0.0.5 because it doesn\'t contain any IP SANs', 'tls', 4, /it names no IP address, and the access file reaches it at 10\.0\.0\.5/, /server address the certificate names/],
  ['Unable to connect to the server: http: server gave HTTP response to HTTPS client', 'tls', 4, /does not speak TLS: it answered in plain HTTP/, /port/],
  ['Unable to connect to the server: tls: first record does not look like a TLS handshake', 'tls', 4, /does not speak TLS \(while trying to list pods\)/, /port/],
  ['Unable to connect to the server: net/http: TLS handshake timeout', 'timeout', 4, /accepted the connection but never completed a TLS handshake/, /not speaking TLS/],
  ['Error from server (TooManyRequests): the server has received too many requests and has asked us to try again later', 'throttled', 4, /kept asking to slow down \(429 Too Many Requests\) while trying to list pods: the server has received too many requests/, /priority and fairness/],
  ['Error from server (ServiceUnavailable): the server is currently unable to handle the request', 'server-error', 4, /failed to answer while trying to list pods \(ServiceUnavailable\): the server is currently unable to handle the request/, /virt-api/],
  ['Error from server (InternalError): an error on the server ("unknown") has prevented the request from succeeding', 'server-error', 4, /\(InternalError\)/, /restarting/],
  ['Error from server (BadRequest): a container name must be specified for pod virt-handler-x7k2p, choose one of: [virt-handler virt-launcher-image-holder]', 'failed', 1, /a container name must be specified for pod virt-handler-x7k2p/, undefined],
];

/**
 * The kubectl 1.32 texts above were printed by kubectl against the lab with a kubeconfig made for
 * each: an exec user whose command is not installed (kubelogin) or exits 1 after writing a line;
 * no CA, another CA, a `tls-server-name` the certificate does not hold; a server that answers
 * plain HTTP, or accepts and never speaks; the lab's faults for 429 and 5xx. The rest are the Go
 * texts of crypto/x509 and client-go for the same causes (an expired server certificate, a
 * certificate without IP SANs, the apiserver's own 429/503/500 wording).
 */
describe('kubectl failure classification', () => {
  it.each(cases)('%s', (stderr, failure, exit, message, hint) => {
    const err = classifyKubectlFailure(stderr, ctx);
    expect(err.failure).toBe(failure);
    expect(err.exitCode).toBe(exit);
    expect(err.message).toMatch(message);
    if (hint) expect(err.hint).toMatch(hint);
  });

  it('names what the access file holds: the CA it trusts, the plugin it runs (and its install hint), the server', () => {
    const rich = { ...ctx, server: 'https://rancher.example.com/k8s/clusters/c-abc', ca: 'its certificate-authority-data, CN=vmo-prod-ca', plugin: { command: 'corp-login', installHint: 'Get corp-login from\n  https://intranet.example/tools' } };
    expect(classifyKubectlFailure('Unable to connect to the server: tls: failed to verify certificate: x509: certificate signed by unknown authority', rich).message).toMatch(/not signed by the CA the access file \/home\/op\/vmo\.kubeconfig trusts \(its certificate-authority-data, CN=vmo-prod-ca\) while/);
    expect(classifyKubectlFailure('Unable to connect to the server: getting credentials: exec: executable corp-login not found', rich).hint).toMatch(/^Install corp-login: Get corp-login from https:\/\/intranet\.example\/tools, on the PATH/);
    expect(classifyKubectlFailure('Unable to connect to the server: http: server gave HTTP response to HTTPS client', rich).message).toMatch(/^The server at https:\/\/rancher\.example\.com\/k8s\/clusters\/c-abc \(in the access file \/home\/op\/vmo\.kubeconfig\) does not speak TLS/);
    expect(classifyKubectlFailure('', rich, { timedOut: true }).message).toBe('The cluster did not answer in time (20s) (or its credential plugin corp-login did not return) while trying to list pods.');
  });

  it('a process timeout is a timeout whatever stderr says, and a missing kubectl says so', () => {
    expect(classifyKubectlFailure('', ctx, { timedOut: true }).failure).toBe('timeout');
    const missing = classifyKubectlFailure('', ctx, { enoent: true });
    expect(missing.message).toBe('kubectl is not on the PATH.');
    expect(missing.exitCode).toBe(4);
  });
});
